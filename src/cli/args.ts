/**
 * Command-line parsing, strict: a command's own options and every setting flag are known,
 * anything else is an error naming the option and the closest valid one. A command's own
 * option wins over a setting of the same name (`search --engines` picks this search's
 * engines). Every setting is a flag with its value, written `--port 8080` or `--port=8080`:
 * a value may start with a dash (`--port -1` is then refused by the setting, not by the
 * parser); an on/off flag goes alone (`--robots`, `--no-robots`) or with `true`/`false`
 * (`--robots false`; `--robots=off` takes every form the variable does); the one on/off
 * setting that takes a list too takes it the same ways (`--allow-private-addresses
 * 127.0.0.1:8080`). A command's list option (`strings`) may repeat, each value kept.
 * Setting flags may come before the command (`--log-level warn serve`).
 */
import { closest } from '../core/closest.js';
import { settingFlags, type SettingFlag } from '../core/config.js';

/** A mistake in how the command was called: one line, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface OptionSpec {
  /** `strings`: a value each time the option is given, every one kept in order. */
  type: 'string' | 'boolean' | 'strings';
  short?: string;
}

export interface ParsedCommand<O extends Record<string, OptionSpec>> {
  options: {
    [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['type'] extends 'strings' ? string[] : string;
  };
  positionals: string[];
  /** The setting flags given, as `loadConfig({ argv })` takes them. */
  settings: string[];
  help: boolean;
}

// One "did you mean" for the whole project (core/closest.ts); the commands import it from here.
export { closest };

/** How an option reads its value: `value` always takes one; `switch` may; `list` may, a list too. */
type Kind = 'value' | 'switch' | 'list';

interface Known {
  kind: Kind;
  /** The setting it sets, or undefined for a command's own option. */
  setting?: SettingFlag;
  /** A command's option that may repeat (`strings`). */
  repeats?: boolean;
}

/** The words a switch's value may be: every form with `=`, only true/false as the next argument. */
const SWITCH_WORDS: Record<string, boolean> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  on: true,
  off: false,
  '1': true,
  '0': false,
};

const kindOf = (s: SettingFlag): Kind => (s.list ? 'list' : s.boolean ? 'switch' : 'value');

/**
 * Whether the argument after an on/off flag is its value. A switch takes true or false
 * there, nothing else (a query word stays a query word). A flag that takes a list takes
 * the next argument unless it is a URL (`://`), an option or, before the command, a
 * command: a mistyped list (`127.0.0.1:99999`) is then refused by the setting, naming
 * it, instead of being read as a URL while the bare flag opens every private address.
 */
function isSwitchValue(kind: Kind, next: string | undefined, commands: readonly string[] = []): boolean {
  if (next === undefined) return false;
  if (next === 'true' || next === 'false') return true;
  return kind === 'list' && !next.includes('://') && !next.startsWith('-') && !commands.includes(next);
}

/** `--no-x`: the option `x` when it is on/off. */
function negated(name: string, known: Map<string, Known>): Known | undefined {
  if (!name.startsWith('no-')) return undefined;
  const k = known.get(name.slice(3));
  return k && k.kind !== 'value' ? k : undefined;
}

/** A looks-like-a-number argument (`-5`) is a value or a positional, never an option. */
const isOption = (arg: string) => arg.startsWith('-') && arg !== '-' && !/^-\d/.test(arg);

function settingTable(own: Record<string, OptionSpec>): Map<string, Known> {
  const known = new Map<string, Known>();
  for (const s of settingFlags()) {
    const name = s.flag.slice(2);
    if (!(name in own)) known.set(name, { kind: kindOf(s), setting: s });
  }
  for (const [name, spec] of Object.entries(own))
    known.set(name, { kind: spec.type === 'boolean' ? 'switch' : 'value', repeats: spec.type === 'strings' });
  return known;
}

/**
 * Splits `argv` at its command: setting flags before the command are kept for it
 * (`--log-level warn serve --port 0` is `serve --log-level warn --port 0`). The command is
 * the first argument that is neither a flag nor a flag's value; '' when there is none.
 * `commands`: the command names, never taken for a list flag's value.
 */
export function splitCommand(
  argv: readonly string[],
  commands: readonly string[] = [],
): { command: string; args: string[] } {
  const known = settingTable({});
  const before: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--' || !isOption(arg)) {
      if (arg === '--') return { command: '', args: [...argv] };
      return { command: arg, args: [...before, ...argv.slice(i + 1)] };
    }
    before.push(arg);
    const name = arg.replace(/^-+/, '');
    if (name.includes('=')) continue;
    const k = known.get(name);
    const next = argv[i + 1];
    if (k?.kind === 'value' && next !== undefined) before.push(argv[++i] as string);
    else if (k && k.kind !== 'value' && isSwitchValue(k.kind, next, commands)) before.push(argv[++i] as string);
  }
  return { command: '', args: before };
}

/**
 * Parses one command's arguments. `command` names it in messages (`'serve'`, `'keys topup'`;
 * '' for the bare stdio server, whose messages the caller prefixes with the program's name).
 */
export function parseCommand<O extends Record<string, OptionSpec>>(
  command: string,
  args: string[],
  own: O,
  allowPositionals = true,
): ParsedCommand<O> {
  const known = settingTable(own);
  const shorts = new Map(Object.entries(own).flatMap(([name, spec]) => (spec.short ? [[spec.short, name]] : [])));
  const where = command ? `${command}: ` : '';
  const values = new Map<string, string | boolean | string[]>();
  const positionals: string[] = [];
  let help = false;
  const unknown = (option: string): UsageError => {
    const guess = closest(option.split('=')[0] as string, ['--help', ...[...known.keys()].map((o) => `--${o}`)]);
    return new UsageError(`${where}unknown option ${option}${guess ? ` (did you mean ${guess}?)` : ''}`);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!isOption(arg)) {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) {
      const name = arg.slice(1);
      if (name === 'h') help = true;
      else if (shorts.has(name)) values.set(shorts.get(name) as string, true);
      else throw unknown(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (name === 'help') {
      help = true;
      continue;
    }
    const k = known.get(name);
    const off = k ? undefined : negated(name, known);
    if (off) {
      if (inline !== undefined) throw new UsageError(`${where}--${name} takes no value (got "${inline}")`);
      values.set(name.slice(3), false);
      continue;
    }
    if (!k) throw unknown(arg);
    if (k.kind === 'value') {
      const next = args[i + 1];
      let value: string;
      if (inline !== undefined) value = inline;
      // A value may start with one dash (`--port -1`), not with two: `--engines --json` forgot the value.
      else if (next !== undefined && !next.startsWith('--')) value = args[++i] as string;
      else throw new UsageError(`${where}--${name} needs a value`);
      const earlier = values.get(name);
      values.set(name, k.repeats ? [...(Array.isArray(earlier) ? earlier : []), value] : value);
      continue;
    }
    if (inline !== undefined) {
      const word = SWITCH_WORDS[inline.trim().toLowerCase()];
      if (word !== undefined) values.set(name, word);
      else if (k.kind === 'list') values.set(name, inline);
      else throw new UsageError(`${where}--${name} is on or off: true or false (got "${inline}")`);
    } else if (isSwitchValue(k.kind, args[i + 1])) {
      const next = args[++i] as string;
      values.set(name, SWITCH_WORDS[next] ?? next);
    } else values.set(name, true);
  }
  if (!allowPositionals && positionals.length > 0 && !help)
    throw new UsageError(`${command || 'the stdio server'} takes no arguments besides options (got ${positionals[0]})`);
  const settingArgs: string[] = [];
  const ownValues: Record<string, string | boolean | string[]> = {};
  for (const [name, value] of values) {
    const setting = known.get(name)?.setting;
    if (setting === undefined) ownValues[name] = value;
    // One `--flag=value` each: loadConfig reads the value as the setting's variable would be read.
    else settingArgs.push(`${setting.flag}=${String(value)}`);
  }
  return {
    options: ownValues as ParsedCommand<O>['options'],
    positionals,
    settings: settingArgs,
    help,
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
