/**
 * The contract (docs/interface.md 2, 4) as zod schemas: request bodies and response
 * objects of both operations. The HTTP API validates with them, the MCP tools advertise
 * them as input/output schemas, so both faces speak exactly the same shapes.
 */
import { z } from 'zod';
import { PAGE_TYPES } from './page-types.js';
import { cssSelectorProblem } from './css-selector.js';
import { STEALTH_PRICE_TEXT } from './prices.js';

/** Longest URL string accepted in a request (browsers and CDNs cap near 8 KiB too). */
export const MAX_URL_LENGTH = 8192;

/** Query-focused passages: at most this many a page, this many unless asked. */
export const MAX_PASSAGES = 10;
export const DEFAULT_PASSAGES = 3;
/** `max_passage_chars`: the passages' characters in all for a page, this many unless asked, within these bounds. */
export const DEFAULT_PASSAGE_CHARS = 1500;
export const PASSAGE_CHARS_RANGE = [100, 20_000] as const;

/** `max_passages` on both operations; `when` says which option it goes with. */
function maxPassagesSchema(when: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(MAX_PASSAGES)
    .optional()
    .describe(`Passages per page ${when} (1-${MAX_PASSAGES}, default ${DEFAULT_PASSAGES}).`);
}

/** `max_passage_chars` on both operations (docs/decisions.md, "Query-focused passages"). */
function maxPassageCharsSchema(when: string) {
  const [min, max] = PASSAGE_CHARS_RANGE;
  return z
    .number()
    .int()
    .min(min)
    .max(max)
    .optional()
    .describe(
      `The passages' characters in all per page ${when} (${min}-${max}, default ${DEFAULT_PASSAGE_CHARS}): a longer passage is cut to its best whole sentences, a shorter one takes in the sentences around it; offsets stay exact.`,
    );
}

export const extractFormatSchema = z.enum(['markdown', 'html']);

/** Page controls (docs/decisions.md, "Page controls"): at most this many selectors a list, this long each. */
export const MAX_SELECTORS = 20;
export const MAX_SELECTOR_LENGTH = 500;

/**
 * A CSS selector of the page controls, one rule on every field (docs/decisions.md, "Page
 * controls"): standard CSS that css-select also runs; a 400 naming its path otherwise.
 */
const cssSelector = z
  .string()
  .trim()
  // abort: an empty or overlong selector gets that one message, not a parse error besides.
  .min(1, { message: 'a CSS selector is empty', abort: true })
  .max(MAX_SELECTOR_LENGTH, { message: `a CSS selector is at most ${MAX_SELECTOR_LENGTH} characters`, abort: true })
  .superRefine((selector, ctx) => {
    const problem = cssSelectorProblem(selector);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

const selectorList = (what: string) =>
  z.array(cssSelector).max(MAX_SELECTORS, `at most ${MAX_SELECTORS} selectors`).optional().describe(what);

/**
 * What a page's extraction may ask for, beyond which page: the fields of `/api/crawl` after
 * `urls`, shared by the site crawl (core/site-schemas.ts), checked together by
 * `checkPageOptions`.
 */
export function pageOptionsShape(limits: { maxTimeoutMs: number }) {
  return {
    format: extractFormatSchema
      .default('markdown')
      .describe(
        '"markdown" (default): main content as Markdown, boilerplate removed (rendered in the headless browser when the page needs scripts). "html": the full page HTML after rendering when a browser is available, else as served, decoded to UTF-8.',
      ),
    stealth: z
      .boolean()
      .default(false)
      .describe(
        `Fetch with a realistic Chrome profile (headers, client hints; through the stealth proxy when one is configured) and, when the plain fetch is blocked (challenge page, 401/403/429/451), retry in the headless browser with that profile. ${STEALTH_PRICE_TEXT}`,
      ),
    max_chars: z
      .number()
      .int()
      .min(1)
      .max(100_000_000)
      .optional()
      .describe(
        'Return at most this many characters of each page; the result then says total_chars and next_start_char.',
      ),
    start_char: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('Character offset to start from, to continue a page cut by max_chars (use next_start_char).'),
    timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(limits.maxTimeoutMs)
      .optional()
      .describe(`Deadline per URL in milliseconds (at most ${limits.maxTimeoutMs}).`),
    include_links: z
      .boolean()
      .optional()
      .describe(
        "List the page's links in `links` ({ url, text, in_content }): absolute, de-duplicated, at most 1000 (links_truncated says when cut). Default false.",
      ),
    include_comments: z
      .boolean()
      .optional()
      .describe(
        'Readers\' comments that follow the content (left out by default) are added after it under a "## Comments" heading, each with its author and date on one line. Format "markdown" only. Default false.',
      ),
    include_structured_data: z
      .boolean()
      .optional()
      .describe(
        "Return the page's structured data in `structured_data`: JSON-LD, microdata, RDFa Lite and OpenGraph/Twitter cards, normalised to schema.org types (Article, Product, Recipe, Event, FAQPage, HowTo, BreadcrumbList, Organization, Person in a stable shape; other types as their properties). HTML pages only. Default false.",
      ),
    include_selectors: selectorList(
      `CSS selectors (standard CSS, no :contains; at most ${MAX_SELECTORS}) whose elements, in page order, are the content instead of the extractor's choice (content_source "selectors"); empty_content when none matches. HTML pages, format "markdown" only.`,
    ),
    exclude_selectors: selectorList(
      `CSS selectors (standard CSS, no :contains; at most ${MAX_SELECTORS}) whose elements are removed before extraction. HTML pages, format "markdown" only.`,
    ),
    wait_for_selector: cssSelector
      .optional()
      .describe(
        'Render the page in the headless browser and wait (within the deadline) until this CSS selector (standard CSS, no :contains) matches; timeout when it never does. Needs a browser on the server (render_unavailable otherwise).',
      ),
    max_age: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'Seconds: a cached copy older than this is fetched again (0: always fetch). Each result says from_cache and cached_at.',
      ),
    screenshot: z
      .boolean()
      .optional()
      .describe(
        'Also return a PNG of the rendered page (1280 wide, full page up to a height cap) as base64 in `screenshot`. Needs a browser (render_unavailable otherwise). Default false.',
      ),
    query: z
      .string()
      .trim()
      .min(1, 'the query is empty')
      .max(MAX_QUERY_LENGTH, `the query is at most ${MAX_QUERY_LENGTH} characters`)
      .optional()
      .describe(
        'A question or topic: each page then returns only `passages`, its few passages that answer it (offsets into the full Markdown), and `markdown` stays empty unless max_chars is given. Format "markdown" only.',
      ),
    max_passages: maxPassagesSchema('with query'),
    max_passage_chars: maxPassageCharsSchema('with query'),
  };
}

/** The page options' rules between fields (both operations that take them). */
export function checkPageOptions(
  request: {
    format: 'markdown' | 'html';
    query?: string | undefined;
    max_passages?: number | undefined;
    max_passage_chars?: number | undefined;
    include_selectors?: string[] | undefined;
    exclude_selectors?: string[] | undefined;
    include_comments?: boolean | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  // Passages are picked from the Markdown, for a query (docs/decisions.md, "Query-focused passages").
  for (const key of ['max_passages', 'max_passage_chars'] as const)
    if (request[key] !== undefined && request.query === undefined)
      ctx.addIssue({ code: 'custom', path: [key], message: `${key} needs a query` });
  if (request.query !== undefined && request.format === 'html')
    ctx.addIssue({ code: 'custom', path: ['query'], message: 'query applies to format "markdown" only' });
  // Format html returns the page as served or rendered, whole: there is no content to select.
  if (request.format !== 'html') return;
  if (request.include_comments === true)
    ctx.addIssue({
      code: 'custom',
      path: ['include_comments'],
      message: 'include_comments applies to format "markdown" only',
    });
  for (const key of ['include_selectors', 'exclude_selectors'] as const) {
    const list = request[key];
    if (list !== undefined && list.length > 0)
      ctx.addIssue({ code: 'custom', path: [key], message: `${key} applies to format "markdown" only` });
  }
}

export function extractRequestSchema(limits: { maxUrls: number; maxTimeoutMs: number }) {
  return z
    .object({
      urls: z
        .array(z.string().max(MAX_URL_LENGTH, `a URL is at most ${MAX_URL_LENGTH} characters`))
        .min(1, 'give at least one URL')
        .max(limits.maxUrls, `at most ${limits.maxUrls} URLs per request; split larger batches into several requests`)
        .describe(`URLs to extract (1 to ${limits.maxUrls}). Each URL succeeds or fails on its own.`),
      ...pageOptionsShape(limits),
    })
    .strict()
    .superRefine(checkPageOptions);
}
export type ExtractRequest = z.infer<ReturnType<typeof extractRequestSchema>>;

export const extractionErrorTypeSchema = z.enum([
  'http',
  'unsupported_content_type',
  'too_large',
  'robots_disallowed',
  'invalid_url',
  'forbidden_address',
  'timeout',
  'network',
  'blocked',
  'empty_content',
  'render_failed',
  'render_unavailable',
  'busy',
]);

/** What kind of page the HTML extractor takes a page for (page-types.ts). */
export const pageTypeSchema = z.enum(PAGE_TYPES);

/** One passage of a page for a query (extract/passages/passage.ts; docs/decisions.md, "Query-focused passages"). */
export const passageSchema = z.object({
  text: z.string().describe('The passage: exactly the Markdown from start_char to end_char.'),
  heading_path: z.array(z.string()).describe('The headings it sits under, outermost first.'),
  start_char: z.number().int().describe('Offset in the full Markdown: extract_urls start_char reads on from here.'),
  end_char: z.number().int(),
  score: z.number().describe('Relevance to the query (BM25 with heading, phrase and proximity terms); per page.'),
  lead_in: z
    .string()
    .optional()
    .describe(
      "The table's header row or the list's lead-in line, when the passage starts inside it past them and the passage before it does not show them.",
    ),
});
export type PassageResult = z.infer<typeof passageSchema>;

/** What `include_structured_data` returns (extract/html/read/structured-data/; docs/decisions.md, "Structured data"). */
export const structuredDataSchema = z.object({
  items: z
    .array(z.record(z.string(), z.unknown()))
    .describe(
      'schema.org items in page order, duplicates merged: `type`, `sources` (json-ld, microdata, rdfa, opengraph) and the fields of their type.',
    ),
  open_graph: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  twitter_card: z.record(z.string(), z.string()).optional(),
  notes: z.array(z.string()).optional().describe('What could not be read (a broken JSON-LD block, a bound reached).'),
  truncated: z.boolean().optional(),
});

export const extractResultSchema = z.object({
  url: z.string().describe('The submitted URL.'),
  success: z.boolean(),
  markdown: z
    .string()
    .describe(
      'Extracted Markdown; empty string on failure, with format "html", or with query unless max_chars is given.',
    ),
  html: z.string().optional().describe('Full page HTML (format "html" only).'),
  passages: z
    .array(passageSchema)
    .optional()
    .describe('With query, on success: the best passages for it, in page order ([] when none matches).'),
  rendered: z
    .boolean()
    .optional()
    .describe(
      'On success: whether the content comes from the page rendered in the headless browser (true) or from the static response (false).',
    ),
  status_code: z.number().int().describe('HTTP status of the target page; 0 when no response came.'),
  error: z.string().optional(),
  error_type: extractionErrorTypeSchema.optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  language: z.string().optional(),
  published_at: z.string().optional(),
  authors: z
    .array(z.string())
    .optional()
    .describe("HTML pages: the authors' names, from the page's structured data, else its byline."),
  page_type: pageTypeSchema
    .optional()
    .describe("The extractor's guess of what kind of page it is; only on pages converted from HTML to Markdown."),
  content_type: z.string().optional(),
  final_url: z.string().optional().describe('URL after redirects.'),
  total_chars: z
    .number()
    .int()
    .optional()
    .describe('Length of the whole content when max_chars, start_char or query was given.'),
  next_start_char: z.number().int().optional().describe('Offset of the rest of the content, when it was cut.'),
  from_cache: z
    .boolean()
    .optional()
    .describe('On success: whether the page came from the cache (free) or was fetched now.'),
  cached_at: z
    .string()
    .optional()
    .describe('On success: when the copy returned was fetched (ISO 8601 UTC); now for a fresh fetch.'),
  links: z
    .array(z.object({ url: z.string(), text: z.string(), in_content: z.boolean() }))
    .optional()
    .describe(
      "include_links: the page's links; in_content: inside the extracted content. [] for content that is not HTML.",
    ),
  links_truncated: z.boolean().optional().describe('include_links: the page has more links than `links` holds.'),
  content_source: z
    .enum(['selectors'])
    .optional()
    .describe('"selectors": the content is what include_selectors matched, not the extractor\'s choice.'),
  screenshot: z.string().optional().describe('screenshot: the rendered page as a base64 PNG.'),
  structured_data: structuredDataSchema
    .optional()
    .describe('include_structured_data (HTML pages): what the page says about itself.'),
});
export type ExtractResult = z.infer<typeof extractResultSchema>;

export const extractMetadataSchema = z.object({
  total_urls: z.number().int(),
  processed_urls: z.number().int(),
  successful_crawls: z.number().int(),
  failed_crawls: z.number().int(),
  credits_used: z.number().int(),
  cached_free: z.number().int(),
  response_time: z.number().describe('Seconds.'),
  timestamp: z.string().describe('ISO 8601 UTC.'),
});

export const extractResponseSchema = z.object({
  results: z.array(extractResultSchema),
  metadata: extractMetadataSchema,
});
export type ExtractResponse = z.infer<typeof extractResponseSchema>;

/** Request-level error body (docs/decisions.md, "Gaps in part 7 (request-level errors)"). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Turns zod issues into `{ path, message }` details with dotted paths (`urls.3`). */
export function issuesToDetails(error: z.ZodError): { path: string; message: string }[] {
  const pathOf = (path: PropertyKey[]) => (path.length > 0 ? path.map(String).join('.') : '(body)');
  // zod 4 still runs length checks on a value of the wrong type (a string's length against
  // an array's max): past a type error, nothing else said of that field is true.
  const mistyped = new Set(error.issues.filter((i) => i.code === 'invalid_type').map((i) => pathOf(i.path)));
  const issues = error.issues.filter((i) => i.code === 'invalid_type' || !mistyped.has(pathOf(i.path)));
  return issues.flatMap((issue) =>
    // An unknown field is named by its own path, one detail each, not by its parent's.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: pathOf([...issue.path, key]), message: `unknown field "${key}"` }))
      : [{ path: pathOf(issue.path), message: issue.message }],
  );
}

// ---------------------------------------------------------------- search (docs/interface.md 2.1-2.3, 4.1)

export const SEARCH_ENGINE_IDS = ['duckduckgo', 'wikipedia', 'mojeek', 'brave', 'searxng', 'google'] as const;
export const MAX_QUERY_LENGTH = 400;

/**
 * The published pattern of a host name (OpenAPI `pattern`): labels of letters, digits and
 * hyphens, not starting with one, any non-ASCII character passing. It uses no lookaround
 * and no `\p{..}`, so that other languages' validators (Python's `re`, Go's RE2, Java) compile
 * it; the Unicode check below holds the non-ASCII characters to letters and digits.
 */
export const HOST_NAME_PATTERN =
  // eslint-disable-next-line no-control-regex -- the ASCII that is not a letter or digit, control characters included
  /^[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f][^\x00-\x2c\x2e\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]*(\.[^\x00-\x2c\x2e\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+)*\.?$/;
const HOST_NAME_LETTERS = /^[\p{L}\p{N}.-]*$/u;
const HOST_NAME_MESSAGE = 'a host name such as "example.com" (no scheme, path or port)';

/** A host name as given in include/exclude_domains: letters, digits, dots, hyphens (IDN allowed). */
const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  // One issue per bad host: the Unicode check runs only on what the pattern let through.
  .regex(HOST_NAME_PATTERN, { error: HOST_NAME_MESSAGE, abort: true })
  .refine((h) => HOST_NAME_LETTERS.test(h), HOST_NAME_MESSAGE)
  .transform((h) => h.replace(/\.$/, ''));

export const searchRequestSchema = z
  .object({
    q: z
      .string()
      .trim()
      .min(1, 'the query is empty')
      .max(MAX_QUERY_LENGTH, `the query is at most ${MAX_QUERY_LENGTH} characters`)
      .describe('The search query.'),
    include_content: z
      .boolean()
      .default(false)
      .describe("Also fetch the top results' pages and attach their main content as Markdown."),
    content_results: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(5)
      .describe('How many of the top results get content (1-10, default 5). Used with include_content.'),
    max_results: z.number().int().min(1).max(20).default(10).describe('Number of results (1-20, default 10).'),
    engines: z
      .array(
        z.enum(SEARCH_ENGINE_IDS, {
          // Names the value given, not only the ones allowed.
          error: (issue) => `unknown engine ${JSON.stringify(issue.input)}; engines: ${SEARCH_ENGINE_IDS.join(', ')}`,
        }),
      )
      .min(1)
      .optional()
      .describe('Engines to query (default: every configured engine). duckduckgo, wikipedia and mojeek need no key.'),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code such as "us" or "de"')
      .transform((c) => c.toLowerCase())
      .optional()
      .describe('Country to bias results to (ISO 3166-1 alpha-2).'),
    language: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 tag such as "en" or "pt-BR"')
      .optional()
      .describe('Language of results (BCP 47).'),
    safesearch: z.enum(['off', 'moderate', 'strict']).default('moderate').describe('Adult-content filter.'),
    time_range: z
      .enum(['day', 'week', 'month', 'year'])
      .optional()
      .describe('Only results from the past day/week/month/year.'),
    include_domains: z
      .array(hostName)
      .max(20)
      .optional()
      .describe('Only results on these hosts (or their subdomains).'),
    exclude_domains: z.array(hostName).max(20).optional().describe('No results on these hosts (or their subdomains).'),
    content_mode: z
      .enum(['full', 'passages'])
      .default('full')
      .describe(
        'With include_content: "full" (default) attaches each page\'s Markdown as content; "passages" attaches only `passages`, the few passages of each page that answer q (preferred: far fewer tokens).',
      ),
    max_passages: maxPassagesSchema('with content_mode "passages"'),
    max_passage_chars: maxPassageCharsSchema('with content_mode "passages"'),
    include_comments: z
      .boolean()
      .optional()
      .describe(
        'With include_content: readers\' comments that follow a page\'s content (left out by default) are added to its content under a "## Comments" heading, each with its author and date on one line; with content_mode "passages" the passages may come from them. Default false.',
      ),
    include_structured_data: z
      .boolean()
      .optional()
      .describe(
        "With include_content: each result with content also carries its page's structured data in `structured_data`, as /api/crawl returns it (JSON-LD, microdata, RDFa Lite and OpenGraph/Twitter cards as schema.org items). HTML pages only. Default false.",
      ),
  })
  .strict()
  .superRefine((request, ctx) => {
    // docs/decisions.md, "Query-focused passages": a setting that would do nothing is refused.
    if (request.content_mode === 'passages' && !request.include_content)
      ctx.addIssue({
        code: 'custom',
        path: ['content_mode'],
        message: 'content_mode "passages" needs include_content: true',
      });
    // The page controls shape the pages' content: without content they would do nothing.
    for (const key of ['include_comments', 'include_structured_data'] as const)
      if (request[key] === true && !request.include_content)
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} needs include_content: true` });
    for (const key of ['max_passages', 'max_passage_chars'] as const)
      if (request[key] !== undefined && request.content_mode !== 'passages')
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} needs content_mode "passages"` });
  });
export type SearchRequest = z.infer<typeof searchRequestSchema>;

export const contentErrorSchema = z.enum([
  'blocked',
  'robots_disallowed',
  'http_error',
  'timeout',
  'network_error',
  'unsupported_content_type',
  'too_large',
  'forbidden_address',
  'empty_content',
  'busy',
]);

export const searchResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  position: z.number().int().min(1),
  engine: z.string().describe('The engine that ranked this result best.'),
  engines: z.array(z.string()).describe('Every engine that returned this result, best first.'),
  published_at: z.string().optional(),
  content: z
    .string()
    .optional()
    .describe('Page content as Markdown (include_content, fetch succeeded; left out with content_mode "passages").'),
  passages: z
    .array(passageSchema)
    .optional()
    .describe('content_mode "passages", fetch succeeded: the passages of the page that best answer q, in page order.'),
  structured_data: structuredDataSchema
    .optional()
    .describe(
      'include_structured_data, fetch succeeded (HTML pages): what the page says about itself, as /api/crawl returns it.',
    ),
  content_error: contentErrorSchema
    .optional()
    .describe('Why the page content could not be fetched (include_content, fetch failed).'),
  content_total_chars: z
    .number()
    .int()
    .optional()
    .describe('Length of the whole content, when it was cut to fit the output budget (MCP).'),
  content_next_start_char: z
    .number()
    .int()
    .optional()
    .describe('Offset of the rest of the content (continue with extract_urls start_char).'),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchMetadataSchema = z.object({
  number_of_results: z.number().int(),
  credits_used: z.number().int(),
  from_cache: z.boolean(),
  status: z.enum(['success', 'partial', 'no_results']),
  response_time: z.number().describe('Seconds.'),
  timestamp: z.string(),
  content_requested: z.number().int().optional(),
  content_delivered: z.number().int().optional(),
  failed_engines: z
    .array(z.object({ engine: z.string(), error: z.string(), message: z.string() }))
    .optional()
    .describe('Engines that failed or timed out (status "partial").'),
});

export const searchResponseSchema = z.object({
  id: z.string().describe('srch_ followed by a ULID.'),
  query: z.string(),
  engines: z.array(z.string()),
  results: z.array(searchResultSchema),
  metadata: searchMetadataSchema,
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
