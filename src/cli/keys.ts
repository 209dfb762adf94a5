/**
 * `websearch-mcp keys create|list|revoke|topup|usage`: API keys and their credits, in the
 * store the server uses (the SQLite file, or Redis), so keys made here work at once on
 * every running instance. A key's secret is printed once, by `create`, and never again.
 */
import type { Config } from '../core/config.js';
import { UsageError, closest, parseCommand, splitCommand, wholeNumber } from './args.js';
import { isAppError } from '../core/errors.js';
import type { ApiKeyRecord } from '../core/ports/key-store.js';
import type { UsageRecord } from '../core/ports/ledger-store.js';
import { usageRecordJson } from '../core/usage-schema.js';

export const KEYS_USAGE = `Usage:
  websearch-mcp keys create [--name NAME] [--credits N] [--json]
                                 create a key (unlimited without --credits); prints its secret once
  websearch-mcp keys list [--json]
                                 every key: id, name, first characters, balance, state
  websearch-mcp keys revoke <key-id>
                                 the key stops working at once, everywhere
  websearch-mcp keys topup <key-id> --credits N
                                 add N credits to a limited key
  websearch-mcp keys usage [--key <key-id>] [--since <ISO date | 30m | 24h | 7d>] [--json]
                                 credits used, per key and operation (--json: every record)
`;

interface KeysOptions {
  name?: string;
  credits?: string;
  json?: boolean;
  key?: string;
  since?: string;
}

function credits(value: string | undefined, min: number): number {
  const n = wholeNumber(value, '--credits', min);
  if (n === undefined) throw new UsageError('--credits N is needed');
  return n;
}

/** `--since`: an ISO 8601 date-time, or a span back from now such as 30m, 24h or 7d. */
export function parseSince(value: string, now = Date.now()): string {
  const span = /^(\d+)\s*([mhd])$/i.exec(value.trim());
  if (span) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[(span[2] as string).toLowerCase() as 'm' | 'h' | 'd'];
    return new Date(now - Number(span[1]) * unit).toISOString();
  }
  const at = Date.parse(value);
  if (Number.isNaN(at))
    throw new UsageError(
      `--since takes an ISO 8601 date (2026-01-31 or 2026-01-31T12:00:00Z) or a span such as 24h or 7d (got "${value}")`,
    );
  return new Date(at).toISOString();
}

function only(positionals: string[], count: number, what: string): string[] {
  if (positionals.length !== count)
    throw new UsageError(`${what} (got ${positionals.length === 0 ? 'nothing' : positionals.join(' ')})`);
  return positionals;
}

/** A key as `--json` prints it: snake_case like the API's JSON, without its hash. */
const keyJson = (k: ApiKeyRecord) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  balance: k.balance,
  created_at: k.createdAt,
  ...(k.revokedAt !== undefined ? { revoked_at: k.revokedAt } : {}),
});

/** A usage record as `--json` prints it: snake_case like the API's JSON. */
const usageJson = (r: UsageRecord) => ({ key_id: r.keyId, ...usageRecordJson(r) });

const balanceText = (k: ApiKeyRecord) => (k.balance === null ? 'unlimited' : String(k.balance));

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '))
    .join('\n');
}

/** Totals per key and operation. */
function summarise(records: UsageRecord[], keys: ApiKeyRecord[]): string {
  if (records.length === 0) return 'No usage recorded.';
  const names = new Map(keys.map((k) => [k.id, k.name]));
  // A site crawl files one record a page under its one request id: requests are counted by id.
  const totals = new Map<string, { keyId: string; operation: string; requests: Set<string>; credits: number }>();
  for (const r of records) {
    const id = `${r.keyId}\u0000${r.operation}`;
    const t = totals.get(id) ?? { keyId: r.keyId, operation: r.operation, requests: new Set<string>(), credits: 0 };
    t.requests.add(r.requestId);
    t.credits += r.credits;
    totals.set(id, t);
  }
  const rows = [['KEY', 'NAME', 'OPERATION', 'REQUESTS', 'CREDITS']];
  for (const t of totals.values())
    rows.push([t.keyId, names.get(t.keyId) ?? '?', t.operation, String(t.requests.size), String(t.credits)]);
  const sum = records.reduce((s, r) => s + r.credits, 0);
  const requests = new Set(records.map((r) => r.requestId)).size;
  return `${table(rows)}\n\n${requests} request(s), ${sum} credit(s), from ${records[0]?.at} to ${records[records.length - 1]?.at}`;
}

/** The sections `keys` never reads: only the store matters to it. */
const UNUSED = [
  'server',
  'mcp',
  'fetch',
  'robots',
  'search',
  'engines',
  'crawl',
  'cache',
  'auth',
  'render',
  'convert',
  'passages',
];

/**
 * Runs one `keys` subcommand; returns the exit code (0 done, 1 failed). Usage errors throw
 * UsageError. `makeConfig` builds the configuration from the setting flags given.
 */
export async function runKeys(
  args: string[],
  makeConfig: (settings: string[], unused: readonly string[]) => Config,
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<number> {
  // Setting flags may come before the subcommand too (`keys --store-path x.db list`).
  const { command: sub, args: rest } = splitCommand(args);
  const parsed = parseCommand(`keys ${sub}`.trim(), rest, {
    name: { type: 'string' },
    credits: { type: 'string' },
    json: { type: 'boolean' },
    key: { type: 'string' },
    since: { type: 'string' },
  });
  const values = parsed.options as KeysOptions;
  const { positionals } = parsed;
  if (sub === 'help' || parsed.help) {
    out(KEYS_USAGE);
    return 0;
  }
  // A bare `keys` did nothing it was asked: the usage, as a mistake (exit 2).
  if (sub === '') {
    process.stderr.write(`websearch-mcp keys: which one? create, list, revoke, topup or usage\n${KEYS_USAGE}`);
    return 2;
  }
  if (!(KEYS_COMMANDS as readonly string[]).includes(sub)) throw unknownKeysCommand(sub);
  const config = makeConfig(parsed.settings, UNUSED);
  const { openStore } = await import('../compose.js');
  const { ApiKeys } = await import('../services/accounts/api-keys.js');
  const store = await openStore(config);
  const keys = new ApiKeys(store);
  try {
    switch (sub) {
      case 'create': {
        only(positionals, 0, 'keys create takes no arguments besides --name and --credits');
        const balance = values.credits === undefined ? undefined : credits(values.credits, 0);
        const { secret, record } = await keys.create({
          ...(values.name ? { name: values.name } : {}),
          ...(balance !== undefined ? { credits: balance } : {}),
        });
        if (values.json)
          out(
            `${JSON.stringify({ id: record.id, name: record.name, key: secret, balance: record.balance }, null, 2)}\n`,
          );
        else {
          out(`${secret}\n`);
          process.stderr.write(
            `Created ${record.id} "${record.name}" with ${balanceText(record)} credits. The key above is shown only now: store it safely.\n`,
          );
        }
        return 0;
      }
      case 'list': {
        only(positionals, 0, 'keys list takes no arguments');
        const all = await keys.list();
        if (values.json) out(`${JSON.stringify(all.map(keyJson), null, 2)}\n`);
        else if (all.length === 0)
          out('No keys. Create one with: websearch-mcp keys create --name NAME [--credits N]\n');
        else {
          const rows = [['ID', 'NAME', 'STARTS', 'BALANCE', 'CREATED', 'STATE']];
          for (const k of all)
            rows.push([
              k.id,
              k.name,
              `${k.prefix}…`,
              balanceText(k),
              k.createdAt,
              k.revokedAt ? `revoked ${k.revokedAt}` : 'active',
            ]);
          out(`${table(rows)}\n`);
        }
        return 0;
      }
      case 'revoke': {
        const [id] = only(positionals, 1, 'keys revoke takes one key id');
        const key = await keys.revoke(id as string);
        out(`Revoked ${key.id} "${key.name}" (${key.revokedAt}).\n`);
        return 0;
      }
      case 'topup': {
        const [id, positionalCredits] = positionals;
        if (id === undefined || positionals.length > 2)
          throw new UsageError('keys topup takes one key id and --credits N');
        const amount = credits(values.credits ?? positionalCredits, 1);
        const key = await keys.topUp(id, amount).catch((err: unknown) => {
          // Past the largest exact balance (core/pricing.ts): a wrong --credits, so a usage error.
          throw isAppError(err) && err.details?.some((d) => d.path === 'credits') ? new UsageError(err.message) : err;
        });
        out(`${key.id} "${key.name}": balance ${balanceText(key)} (+${amount}).\n`);
        return 0;
      }
      case 'usage': {
        only(positionals, 0, 'keys usage takes --key and --since, no arguments');
        const records = await keys.usage({
          ...(values.key ? { key: values.key } : {}),
          ...(values.since ? { since: parseSince(values.since) } : {}),
        });
        out(
          values.json
            ? `${JSON.stringify(records.map(usageJson), null, 2)}\n`
            : `${summarise(records, await keys.list())}\n`,
        );
        return 0;
      }
      default:
        throw unknownKeysCommand(sub);
    }
  } catch (err) {
    if (isAppError(err) && err.code !== 'internal_error') {
      process.stderr.write(`websearch-mcp keys ${sub}: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await store.close();
  }
}

const KEYS_COMMANDS = ['create', 'list', 'revoke', 'topup', 'usage'] as const;

function unknownKeysCommand(sub: string): UsageError {
  const guess = closest(sub, KEYS_COMMANDS);
  return new UsageError(
    `unknown keys command "${sub}"${guess ? ` (did you mean "${guess}"?)` : ''}; commands: ${KEYS_COMMANDS.join(', ')}`,
  );
}
