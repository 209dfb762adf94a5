/**
 * A command's request options as flags, derived from the request's schema as the reader's
 * query parameters are (faces/http/query-to-body.ts; docs/decisions.md, "The reader: GET
 * /r/<url>"): one flag for each property but the command's arguments (extract's `urls`,
 * map's and crawl-site's `url`) and what the command sets itself; `max_chars` is
 * `--max-chars`, an on/off property a switch, a list repeats and/or takes comma-separated
 * values, and the values are read and then validated by that schema, so a property added
 * to it is a flag at once. A bad value is one line naming its flag. `extract` takes the
 * crawl request's (POST /api/crawl), `map` the map's, `crawl-site` the site crawl's.
 */
import { z } from 'zod';
import type { Config } from '../core/config.js';
import { isAppError } from '../core/errors.js';
import { extractRequestSchema } from '../core/schemas.js';
import { mapRequestSchema, siteCrawlRequestSchema } from '../core/site-schemas.js';
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

/** A request's schema and its properties that are no flags (the command's arguments, what it sets itself). */
export interface FlagSource {
  schema: z.ZodType;
  omit: readonly string[];
}

/** extract's: every crawl request property but `urls`. */
export function crawlFlagSource(config: Config): FlagSource {
  return { schema: crawlSchema(config), omit: ['urls'] };
}

/** map's: every map request property but `url`. */
export function mapFlagSource(): FlagSource {
  return { schema: mapRequestSchema, omit: ['url'] };
}

/**
 * crawl-site's: every site crawl request property (under the configuration's limits, as
 * Operations builds the schema) but `url`, and `wait_ms`: the command reads on itself.
 */
export function siteCrawlFlagSource(config: Config): FlagSource {
  const schema = siteCrawlRequestSchema({
    maxTimeoutMs: config.fetch.maxTimeoutMs,
    maxJobTimeoutMs: config.site.maxJobTimeoutMs,
  });
  return { schema, omit: ['url', 'wait_ms'] };
}

type Kind = ReturnType<typeof propertyKinds> extends Map<string, infer K> ? K : never;

interface RequestFlag {
  /** The request's property (`max_chars`). */
  property: string;
  /** The option's name (`max-chars`). */
  name: string;
  kind: Kind;
}

/** Every property but those omitted. */
function requestFlags({ schema, omit }: FlagSource): RequestFlag[] {
  return [...propertyKinds(schema)]
    .filter(([property]) => !omit.includes(property))
    .map(([property, kind]) => ({ property, name: property.replaceAll('_', '-'), kind }));
}

/** The flags as parseCommand takes them: a switch for on/off, a repeatable value for a list. */
export function flagOptions(source: FlagSource): Record<string, OptionSpec> {
  return Object.fromEntries(
    requestFlags(source).map(({ name, kind }) => [
      name,
      { type: kind === 'boolean' ? 'boolean' : kind === 'list' ? 'strings' : 'string' } satisfies OptionSpec,
    ]),
  );
}

/** The property names in a text (a message, a description) as their flags: `max_passages` as `--max-passages`. */
function withFlagNames(text: string, source: FlagSource): string {
  // Only the names with an underscore: `format` or `query` are words of the sentence too.
  const names = requestFlags(source).filter((f) => f.property.includes('_'));
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
export function flagsHelp(source: FlagSource): string {
  const json = z.toJSONSchema(source.schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonProperty>;
  };
  const lines = requestFlags(source).map(({ property, name, kind }) => {
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
    const meaning = p.description === undefined ? '' : withFlagNames(firstSentence(p.description), source);
    const fallback =
      kind !== 'boolean' && p.default !== undefined && !meaning.includes('default') ? ` (default: ${p.default})` : '';
    return `  ${`--${name}${value}`.padEnd(26)} ${meaning}${fallback}`;
  });
  return lines.join('\n');
}

/**
 * The request body of a command with these flags and `given` (its arguments: extract's
 * `urls`, map's `url`), validated by the schema: what the API would be sent. A bad value is
 * a UsageError naming its flag and the value; a problem of the arguments alone stays the
 * API's own invalid_request.
 */
export function requestBody(
  source: FlagSource,
  given: Record<string, unknown>,
  options: GivenOptions,
): Record<string, unknown> {
  const { schema } = source;
  const flags = requestFlags(source);
  const params = new URLSearchParams();
  for (const { property, name } of flags) {
    const given = options[name];
    if (given === undefined) continue;
    for (const value of Array.isArray(given) ? given : [given]) params.append(property, String(value));
  }
  const body = { ...queryToBody(params, schema), ...given };
  try {
    validate(schema, body);
  } catch (error) {
    if (!isAppError(error) || error.details === undefined) throw error;
    const byProperty = new Map(flags.map((f) => [f.property, f]));
    if (!error.details.some((d) => byProperty.has(d.path.split('.')[0] as string))) throw error;
    const lines = error.details.map(({ path, message }) => {
      const [property, index] = path.split('.') as [string, string | undefined];
      const flag = byProperty.get(property);
      const text = withFlagNames(message, source);
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
