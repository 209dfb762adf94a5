/**
 * Command-line parsing with `node:util` parseArgs, strict: a command's own options and
 * every setting flag (`--port`, `--no-robots`, ...) are known, anything else is an error
 * naming the option and the closest valid one. A command's own option wins over a
 * setting of the same name (`search --engines` picks this search's engines).
 */
import { parseArgs } from 'node:util';
import { settingFlags } from '../core/config.js';

/** A mistake in how the command was called: one line, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}

export interface ParsedCommand<O extends Record<string, OptionSpec>> {
  options: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };
  positionals: string[];
  /** The setting flags given, as `loadConfig({ argv })` takes them. */
  settings: string[];
  help: boolean;
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number;
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] as number;
}

export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

export function parseCommand<O extends Record<string, OptionSpec>>(
  command: string,
  args: string[],
  own: O,
  allowPositionals = true,
): ParsedCommand<O> {
  const settings = settingFlags().filter((s) => !(s.flag.slice(2) in own));
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, spec] of Object.entries(own)) options[name] = spec;
  for (const s of settings) options[s.flag.slice(2)] = { type: s.boolean ? 'boolean' : 'string' };
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals, allowNegative: true });
  } catch (err) {
    const e = err as Error & { code?: string };
    const unknown = /'(-{1,2}[^'\s]+)'/.exec(e.message)?.[1];
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const names = Object.keys(options).map((o) => `--${o}`);
      const guess = closest(unknown.split('=')[0] as string, names);
      throw new UsageError(`${command}: unknown option ${unknown}${guess ? ` (did you mean ${guess}?)` : ''}`);
    }
    if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new UsageError(
        `${command} takes no arguments besides options (got ${/'([^']*)'/.exec(e.message)?.[1] ?? 'one'})`,
      );
    throw new UsageError(`${command}: ${e.message.split('\n')[0]?.replace(/\.$/, '')}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const settingArgs: string[] = [];
  for (const s of settings) {
    const value = values[s.flag.slice(2)];
    if (value === undefined) continue;
    if (s.boolean) settingArgs.push(value ? s.flag : `--no-${s.flag.slice(2)}`);
    else settingArgs.push(s.flag, String(value));
  }
  const ownValues = Object.fromEntries(
    Object.keys(own)
      .filter((k) => values[k] !== undefined)
      .map((k) => [k, values[k]]),
  );
  return {
    options: ownValues as ParsedCommand<O>['options'],
    positionals: parsed.positionals,
    settings: settingArgs,
    help: values.help === true,
  };
}

/** A whole number option (`--max-chars 500`), or a usage error naming it. */
export function wholeNumber(value: string | undefined, option: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${option} needs a whole number of at least ${min} (got ${JSON.stringify(value)})`);
  }
  return n;
}
