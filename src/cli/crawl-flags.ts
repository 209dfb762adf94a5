/**
 * `extract`'s page options: one flag for each property of the crawl request (POST
 * /api/crawl) but its URLs, derived from the request's schema as the reader's query
 * parameters are (faces/http/query-to-body.ts; docs/decisions.md, "The reader: GET
 * /r/<url>"): `max_chars` is `--max-chars`, an on/off property a switch, a list repeats
 * and/or takes comma-separated values, and the values are read and then validated by that
 * schema, so a property added to it is a flag at once. A bad value is one line naming its flag.
 */
import { z } from 'zod';
import type { Config } from '../core/config.js';
import { isAppError } from '../core/errors.js';
import { extractRequestSchema } from '../core/schemas.js';
import { validate } from '../core/validate.js';
import { propertyKinds, queryToBody } from '../faces/http/query-to-body.js';
import { UsageError, type OptionSpec } from './args.js';

export type CrawlSchema = ReturnType<typeof extractRequestSchema>;

/** The options a command was given, as parseCommand returns them. */
export type GivenOptions = Record<string, string | boolean | string[] | undefined>;

/** The crawl request's schema under a configuration's limits, as every face builds it. */
export function crawlSchema(config: Config): CrawlSchema {
  return extractRequestSchema({ maxUrls: config.crawl.maxUrls, maxTimeoutMs: config.fetch.maxTimeoutMs });
}

type Kind = ReturnType<typeof propertyKinds> extends Map<string, infer K> ? K : never;

interface CrawlFlag {
  /** The request's property (`max_chars`). */
  property: string;
  /** The option's name (`max-chars`). */
  name: string;
  kind: Kind;
}

/** Every property but `urls`, which are extract's arguments. */
function crawlFlags(schema: CrawlSchema): CrawlFlag[] {
  return [...propertyKinds(schema)]
    .filter(([property]) => property !== 'urls')
    .map(([property, kind]) => ({ property, name: property.replaceAll('_', '-'), kind }));
}

/** The flags as parseCommand takes them: a switch for on/off, a repeatable value for a list. */
export function crawlOptions(schema: CrawlSchema): Record<string, OptionSpec> {
  return Object.fromEntries(
    crawlFlags(schema).map(({ name, kind }) => [
      name,
      { type: kind === 'boolean' ? 'boolean' : kind === 'list' ? 'strings' : 'string' } satisfies OptionSpec,
    ]),
  );
}

/** The property names in a text (a message, a description) as their flags: `max_passages` as `--max-passages`. */
function withFlagNames(text: string, schema: CrawlSchema): string {
  // Only the names with an underscore: `format` or `query` are words of the sentence too.
  const names = crawlFlags(schema).filter((f) => f.property.includes('_'));
  return names.reduce(
    (t, f) => t.replace(new RegExp(`(?<![\\w\`-])${f.property}(?![\\w\`])`, 'g'), `--${f.name}`),
    text,
  );
}

interface JsonProperty {
  description?: string;
  enum?: unknown[];
  default?: unknown;
}

/** A description's first sentence, without its full stop. */
function firstSentence(text: string): string {
  return (text.split(/(?<=[.!?])\s+(?=["A-Z0-9])/)[0] as string).replace(/\.$/, '');
}

/** One line a flag, its meaning the first sentence of the schema's description. */
export function crawlFlagsHelp(schema: CrawlSchema): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonProperty>;
  };
  const lines = crawlFlags(schema).map(({ property, name, kind }) => {
    const p = json.properties?.[property] ?? {};
    const value =
      kind === 'boolean'
        ? ''
        : p.enum !== undefined
          ? ` ${p.enum.join('|')}`
          : kind === 'list'
            ? ' LIST'
            : kind === 'integer' || kind === 'number'
              ? ' N'
              : ' TEXT';
    const meaning = p.description === undefined ? '' : withFlagNames(firstSentence(p.description), schema);
    const fallback =
      kind !== 'boolean' && p.default !== undefined && !meaning.includes('default') ? ` (default: ${p.default})` : '';
    return `  ${`--${name}${value}`.padEnd(26)} ${meaning}${fallback}`;
  });
  return lines.join('\n');
}

/**
 * The request body of `extract <urls...>` with these flags, validated by the schema: what
 * POST /api/crawl would be sent. A bad value is a UsageError naming its flag and the value;
 * a problem of the URLs alone stays the API's own invalid_request.
 */
export function crawlBody(schema: CrawlSchema, urls: string[], options: GivenOptions): Record<string, unknown> {
  const flags = crawlFlags(schema);
  const params = new URLSearchParams();
  for (const { property, name } of flags) {
    const given = options[name];
    if (given === undefined) continue;
    for (const value of Array.isArray(given) ? given : [given]) params.append(property, String(value));
  }
  const body = { ...queryToBody(params, schema), urls };
  try {
    validate(schema, body);
  } catch (error) {
    if (!isAppError(error) || error.details === undefined) throw error;
    const byProperty = new Map(flags.map((f) => [f.property, f]));
    if (!error.details.some((d) => byProperty.has(d.path.split('.')[0] as string))) throw error;
    const lines = error.details.map(({ path, message }) => {
      const [property, index] = path.split('.') as [string, string | undefined];
      const flag = byProperty.get(property);
      const text = withFlagNames(message, schema);
      if (flag === undefined) return `${path}: ${text}`;
      // A list's item as it was read (comma-separated values apart), any other value as it was typed.
      const given = (body as Record<string, unknown>)[property];
      const value = index !== undefined && Array.isArray(given) ? given[Number(index)] : options[flag.name];
      const got = typeof value === 'string' ? ` (got ${JSON.stringify(value)})` : '';
      return `${text.startsWith(`--${flag.name}`) ? '' : `--${flag.name}: `}${text}${got}`;
    });
    throw new UsageError(lines.join('; '));
  }
  return body;
}
