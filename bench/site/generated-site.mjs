// A generated website served on loopback, for the site map and site crawl tests and their
// benchmark (bench/site-bench.mjs): every page, title and sentence follows from a seed, so
// two runs serve the same site. Node's standard library only; the types are in
// generated-site.d.mts.
//
// `startGeneratedSite()` serves "Tallowbrook", a made-up cloud platform's website: a robots.txt,
// a sitemap index of gzipped child sitemaps (one of them a nested index), a documentation
// section in chapters with sidebar navigation, a blog with RSS and Atom feeds, products,
// articles and support pages, a topic hub with ten pages only it leads to, and the traps a
// crawler meets on real sites: an endless calendar, session ids in links, redirects and a
// redirect chain, print variants with a canonical link, mirrors without one, broken links, a
// section robots.txt disallows, and links to a second (off-site) server that counts its hits.
//
// `startDocsSite()` serves "Larkspur", a made-up job queue library's documentation: getting
// started, guides, an API reference with code, a changelog, a search page, /v1/ and /v2/
// versions (identical v1 pages carry a canonical link to v2), its own sitemap.xml and robots.txt.
//
// Pages are rendered per request from the model built at startup (titles and paths); only the
// sitemaps are built ahead, once.
import http from 'node:http';
import zlib from 'node:zlib';

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** FNV-1a, 32 bits. @param {string} text @returns {number} */
function hashString(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). @param {number} seed @returns {() => number} */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator for one purpose (`key`) under the site's seed. @param {number} seed @param {string} key */
function rngFor(seed, key) {
  return generator((hashString(key) ^ Math.imul(seed | 0, 0x9e3779b1)) >>> 0);
}

/** @template T @param {() => number} r @param {readonly T[]} items @returns {T} */
function pick(r, items) {
  return /** @type {T} */ (items[Math.floor(r() * items.length)]);
}

/** @param {() => number} r @param {number} lo @param {number} hi inclusive */
function between(r, lo, hi) {
  return lo + Math.floor(r() * (hi - lo + 1));
}

/** A shuffled copy (Fisher-Yates). @template T @param {() => number} r @param {readonly T[]} items @returns {T[]} */
function shuffled(r, items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    const t = /** @type {T} */ (out[i]);
    out[i] = /** @type {T} */ (out[j]);
    out[j] = t;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Text helpers

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}

/** @param {string} text */
function slugify(text) {
  return text
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** @param {string} text */
function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAY_MS = 86_400_000;

/** yyyy-mm-dd of a day number (days since 1970-01-01). @param {number} day */
function isoDay(day) {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** "March 5, 2024" of yyyy-mm-dd. @param {string} iso */
function longDate(iso) {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[(m ?? 1) - 1]} ${d}, ${y}`;
}

/** RFC 822 date of yyyy-mm-dd, for RSS. @param {string} iso */
function rfc822(iso) {
  return new Date(`${iso}T09:00:00Z`).toUTCString();
}

const DAY_2023 = Date.UTC(2023, 0, 1) / DAY_MS;
const DAY_2025_06_30 = Date.UTC(2025, 5, 30) / DAY_MS;

// ---------------------------------------------------------------------------------------------
// Vocabulary of the Tallowbrook site. The 50 query pages' distinctive words (QUERY_PAGES) are
// kept out of the generated titles, so each query's page is the one its words point to.

const SITE_NAME = 'Tallowbrook';

/** Documentation chapters: slug, label, and the subjects their pages are about. */
const CHAPTERS = [
  {
    slug: 'getting-started',
    label: 'Getting started',
    nouns: [
      'the quickstart project',
      'local development',
      'the sample application',
      'environment variables',
      'the command-line installer',
      'project templates',
      'your first service',
      'build settings',
      'runtime versions',
      'the web console',
      'service regions',
      'resource naming',
    ],
  },
  {
    slug: 'authentication',
    label: 'Authentication',
    nouns: [
      'session cookies',
      'password policies',
      'login throttling',
      'service accounts',
      'access scopes',
      'OAuth clients',
      'personal access tokens',
      'role bindings',
      'identity providers',
      'magic link login',
      'device authorization',
      'login audit trails',
    ],
  },
  {
    slug: 'security',
    label: 'Security',
    nouns: [
      'firewall rules',
      'IP allowlists',
      'vulnerability scanning',
      'security headers',
      'audit logs',
      'key management',
      'intrusion alerts',
      'permission boundaries',
      'content security policy',
      'penetration test reports',
      'signed requests',
      'sandbox isolation',
    ],
  },
  {
    slug: 'api',
    label: 'API',
    nouns: [
      'error codes',
      'API versioning',
      'batch endpoints',
      'field filtering',
      'response compression',
      'request timeouts',
      'retry headers',
      'expand parameters',
      'sorting parameters',
      'the sandbox environment',
      'client libraries',
      'conditional requests',
    ],
  },
  {
    slug: 'webhooks',
    label: 'Webhooks',
    nouns: [
      'webhook endpoints',
      'event types',
      'signature verification',
      'endpoint health',
      'retry schedules',
      'payload formats',
      'event filtering',
      'test events',
      'endpoint secrets',
      'event logs',
      'ordering semantics',
      'event versioning',
    ],
  },
  {
    slug: 'workers',
    label: 'Workers',
    nouns: [
      'worker pools',
      'background jobs',
      'job priorities',
      'retry policies',
      'concurrency limits',
      'long-running tasks',
      'task dependencies',
      'worker health checks',
      'job payload size',
      'dead-letter handling',
      'task cancellation',
      'worker regions',
    ],
  },
  {
    slug: 'deployments',
    label: 'Deployments',
    nouns: [
      'release channels',
      'deployment previews',
      'rollback procedures',
      'build caching',
      'deploy hooks',
      'environment promotion',
      'release notes',
      'canary releases',
      'immutable builds',
      'build artifacts',
      'deploy approvals',
      'staging environments',
    ],
  },
  {
    slug: 'scaling',
    label: 'Scaling',
    nouns: [
      'instance sizes',
      'horizontal scaling',
      'vertical scaling',
      'scaling limits',
      'load balancing',
      'warm pools',
      'idle instances',
      'regional failover',
      'connection draining',
      'sticky sessions',
      'health probes',
      'scheduled scaling',
    ],
  },
  {
    slug: 'domains',
    label: 'Domains and routing',
    nouns: [
      'apex records',
      'wildcard hostnames',
      'hostname redirects',
      'subdomain routing',
      'hostname aliases',
      'edge caching rules',
      'cache purging',
      'origin shielding',
      'HTTP/3 support',
      'error pages',
      'path rewrites',
      'geo routing',
    ],
  },
  {
    slug: 'storage',
    label: 'Storage',
    nouns: [
      'object versioning',
      'storage classes',
      'presigned links',
      'access policies',
      'replication settings',
      'storage quotas',
      'static asset hosting',
      'object metadata',
      'server-side copy',
      'storage events',
      'retention locks',
      'directory listings',
    ],
  },
  {
    slug: 'databases',
    label: 'Databases',
    nouns: [
      'read replicas',
      'database branching',
      'query performance',
      'index tuning',
      'managed extensions',
      'database users',
      'maintenance windows',
      'storage autogrowth',
      'slow query logs',
      'database migrations',
      'failover replicas',
      'row-level security',
    ],
  },
  {
    slug: 'secrets',
    label: 'Secrets',
    nouns: [
      'secret scopes',
      'secret versioning',
      'environment secrets',
      'secret injection',
      'access reviews',
      'secret sharing',
      'build-time secrets',
      'secret expiry',
      'vault integrations',
      'sealed configuration',
      'secret references',
      'credential hygiene',
    ],
  },
  {
    slug: 'monitoring',
    label: 'Monitoring',
    nouns: [
      'alert policies',
      'uptime checks',
      'metric retention',
      'service-level objectives',
      'error budgets',
      'anomaly alerts',
      'notification channels',
      'status pages',
      'synthetic checks',
      'custom metrics',
      'on-call schedules',
      'incident timelines',
    ],
  },
  {
    slug: 'logging',
    label: 'Logging',
    nouns: [
      'log retention',
      'log search',
      'structured logging',
      'log levels',
      'log sampling',
      'log drains',
      'request logs',
      'build logs',
      'log-based alerts',
      'log redaction',
      'log archives',
      'log parsing rules',
    ],
  },
  {
    slug: 'payments',
    label: 'Payments',
    nouns: [
      'checkout sessions',
      'refunds',
      'disputes',
      'payout schedules',
      'tax calculation',
      'saved cards',
      'payment links',
      'subscription trials',
      'proration',
      'currency conversion',
      'receipts',
      'payment retries',
    ],
  },
  {
    slug: 'networking',
    label: 'Networking',
    nouns: [
      'private networking',
      'static outbound IPs',
      'VPC peering',
      'service mesh',
      'egress rules',
      'internal hostnames',
      'port mappings',
      'TCP proxies',
      'IPv6 support',
      'network policies',
      'load balancer listeners',
      'packet inspection',
    ],
  },
  {
    slug: 'cli',
    label: 'Command-line tool',
    nouns: [
      'CLI installation',
      'CLI profiles',
      'shell completion',
      'CLI output formats',
      'scripting the CLI',
      'CLI plugins',
      'non-interactive mode',
      'CLI updates',
      'command aliases',
      'CLI proxies',
      'CLI telemetry',
      'CLI config files',
    ],
  },
  {
    slug: 'billing',
    label: 'Billing',
    nouns: [
      'usage reports',
      'spending limits',
      'plan changes',
      'billing contacts',
      'credit balances',
      'tax documents',
      'purchase orders',
      'budget alerts',
      'billing periods',
      'annual plans',
      'usage credits',
      'discount codes',
    ],
  },
  {
    slug: 'teams',
    label: 'Teams',
    nouns: [
      'team roles',
      'member invitations',
      'seat management',
      'team settings',
      'guest access',
      'access requests',
      'team activity feeds',
      'approval workflows',
      'team directories',
      'member offboarding',
      'shared environments',
      'team quotas',
    ],
  },
  {
    slug: 'integrations',
    label: 'Integrations',
    nouns: [
      'chat notifications',
      'issue tracker sync',
      'source control connections',
      'CI status checks',
      'email notifications',
      'incident paging',
      'spreadsheet sync',
      'analytics connectors',
      'data warehouse sync',
      'identity sync',
      'ticketing integrations',
      'marketplace listings',
    ],
  },
];

/** Title patterns of documentation pages; `{n}` a subject, `{N}` the subject capitalised. */
const DOC_PATTERNS = [
  'Configuring {n}',
  'Understanding {n}',
  'Troubleshooting {n}',
  'Monitoring {n}',
  'Managing {n}',
  '{N}: an overview',
  '{N} reference',
  'Best practices for {n}',
  'Migrating {n} between projects',
  'Testing {n} locally',
  'Limits and quotas for {n}',
  '{N} in multi-region projects',
  'Automating {n} with the CLI',
  'Debugging {n}',
  'Auditing changes to {n}',
  'Enabling {n}',
  'Disabling {n} safely',
  'Common errors with {n}',
  '{N} on enterprise plans',
  'Planning {n} for production',
];

const ARTICLE_NOUNS = [
  'incident response',
  'code review',
  'technical debt',
  'service ownership',
  'load testing',
  'chaos experiments',
  'observability',
  'release management',
  'API design',
  'internal documentation',
  'developer onboarding',
  'platform teams',
  'infrastructure as code',
  'caching strategies',
  'error handling',
  'data modeling',
  'search indexing',
  'access control',
  'disaster recovery',
  'spend visibility',
  'service discovery',
  'configuration drift',
  'dependency updates',
  'on-call handoffs',
  'API gateways',
  'edge computing',
  'serverless functions',
  'data pipelines',
  'event sourcing',
  'monorepos',
  'build systems',
  'test flakiness',
  'contract testing',
  'database sharding',
  'read-heavy workloads',
  'write-heavy workloads',
  'latency budgets',
  'retry storms',
  'circuit breakers',
  'internal platforms',
  'developer productivity',
  'release trains',
  'trunk-based development',
  'pair programming',
  'architecture reviews',
  'design documents',
  'threat modeling',
  'secrets management',
  'compliance audits',
  'vendor evaluations',
  'performance budgets',
  'offline sync',
  'data retention',
  'privacy reviews',
  'product instrumentation',
  'A/B testing',
  'search relevance',
  'content delivery',
  'background processing',
  'workflow engines',
  'state machines',
  'legacy migrations',
  'cloud spend',
  'energy-efficient computing',
];

const ARTICLE_PATTERNS = [
  'A practical guide to {n}',
  '{N} explained',
  'Five mistakes teams make with {n}',
  'What to know before adopting {n}',
  '{N} at scale',
  'Rethinking {n}',
  'The case for {n}',
  'How small teams approach {n}',
  'Measuring the impact of {n}',
  'Notes on {n}',
  'A checklist for {n}',
  '{N} without the jargon',
  'Common myths about {n}',
  'When {n} goes wrong',
  'Getting buy-in for {n}',
  'Questions to ask about {n}',
  '{N}: a field report',
  'Patterns for {n}',
  'Trade-offs in {n}',
  'Teaching your team about {n}',
];

const ARTICLE_SUFFIXES = [
  '',
  ' in regulated industries',
  ' for small teams',
  ' on a tight budget',
  ' in hybrid clouds',
  ' for mobile backends',
  ' during rapid growth',
  ' in legacy systems',
  ' for data-heavy products',
  ' for internal tools',
];

const SUPPORT_ACTIONS = [
  'change my email address',
  'add a teammate',
  'remove a saved card',
  'update my profile photo',
  'delete an API key',
  'enable email alerts',
  'see older builds',
  'download a receipt',
  'connect a repository',
  'reset my password',
  'leave a team',
  'rename a project',
  'pause a service',
  'view last quarter usage',
  'change my plan',
  'add a second owner',
  'cancel my subscription',
  'update the company address',
  'change the default region',
  'remove a member',
  'unlink a repository',
  'turn off preview deployments',
  'find my project ID',
  'change notification settings',
  'clear the build cache',
  'restart a stuck build',
  'raise a quota',
  'add a tax number',
  'view audit history',
  'change the primary contact',
  'set up email forwarding',
  'delete my account',
  'merge two accounts',
  'change my username',
  'recover a deleted service',
  'move a service between environments',
  'see who changed a setting',
  'stop automatic deploys',
  'update a webhook URL',
  'report a security issue',
];

const SUPPORT_PATTERNS = [
  'How do I {a}',
  'Why can I not {a}',
  'I am unable to {a}',
  'Error when trying to {a}',
  'Can an admin {a} for me',
  'Steps to {a}',
  'Is it possible to {a}',
  'What happens when I {a}',
  'Who can {a}',
  'Fastest way to {a}',
];

const SUPPORT_SUFFIXES = ['', ' from the CLI', ' in the web console', ' through the API', ' on the mobile app'];

const PRODUCT_PREFIXES = [
  'Harbor',
  'Copperline',
  'Northgate',
  'Fernhill',
  'Stonebridge',
  'Bluewater',
  'Ironwood',
  'Silverpine',
  'Marlow',
  'Redcliff',
  'Ashford',
  'Kestrel',
  'Larchmont',
  'Thornbury',
  'Elmstead',
  'Oakhurst',
  'Wrenfield',
  'Brightwater',
  'Cobalt',
  'Granite',
  'Juniper',
  'Meridian',
  'Pembrook',
  'Quarry',
];
const PRODUCT_NOUNS = [
  'Relay',
  'Beacon',
  'Anchor',
  'Lantern',
  'Compass',
  'Ridge',
  'Edge Node',
  'Switch',
  'Vault',
  'Probe',
  'Sensor Hub',
  'Appliance',
  'Bridge',
  'Tower',
  'Monitor',
  'Hub',
  'Console',
  'Link',
  'Array',
  'Station',
];

const BLOG_PATTERNS = [
  'How we rebuilt {s}',
  'Announcing improvements to {s}',
  'Inside {s}',
  'A year of {s}',
  'Notes from the team behind {s}',
  'What changed in {s} this quarter',
  'Behind the scenes of {s}',
  'Lessons from {s}',
  'Rethinking {s} from scratch',
  'Making {s} faster',
];
const BLOG_SUBJECTS = [
  'our status page',
  'the edge network',
  'the metrics backend',
  'preview environments',
  'the web console',
  'team permissions',
  'the command-line tool',
  'log search',
  'build caching',
  'the job scheduler',
  'our incident process',
  'the billing system',
  'regional failover',
  'the documentation site',
  'secret management',
  'the request router',
  'on-call tooling',
  'usage reports',
  'the design system',
  'support tooling',
];

/**
 * The 50 pages written for a query each: the section they sit in (a documentation chapter's
 * slug, or blog, article, support), their title, the subject the prose is about, one sentence
 * written for the page, and the query a user would type to find it.
 */
const QUERY_PAGES = [
  {
    in: 'security',
    title: 'Configuring TLS certificate rotation',
    subject: 'TLS certificate rotation',
    lead: 'Certificates issued for your custom hostnames are renewed thirty days before they expire, and the new certificate is rolled out to every edge location before the old one is withdrawn.',
    query: 'how do I rotate TLS certificates',
  },
  {
    in: 'webhooks',
    title: 'Rate limiting webhook deliveries',
    subject: 'webhook delivery rate limits',
    lead: 'Each endpoint receives at most fifty deliveries per second by default; anything above that waits in a per-endpoint buffer instead of being dropped.',
    query: 'webhook rate limits',
  },
  {
    in: 'webhooks',
    title: 'Replaying failed webhook events',
    subject: 'replaying failed webhook events',
    lead: 'A replay sends the original payload again with a new delivery identifier, so receivers that deduplicate on the event identifier process it only once.',
    query: 'replay webhook events that failed',
  },
  {
    in: 'authentication',
    title: 'Rotating API keys without downtime',
    subject: 'API key rotation',
    lead: 'Create the replacement key first, deploy it to every client, and revoke the old key only after the usage graph shows no traffic on it for a full day.',
    query: 'rotate api keys with zero downtime',
  },
  {
    in: 'authentication',
    title: 'Setting up single sign-on with SAML',
    subject: 'SAML single sign-on',
    lead: 'Upload the metadata file from your identity provider, map the email attribute, and test the login with a second browser profile before enforcing it for everyone.',
    query: 'saml single sign-on setup',
  },
  {
    in: 'databases',
    title: 'Restoring a database from a point-in-time backup',
    subject: 'point-in-time restores',
    lead: 'Write-ahead logs are kept for seven days on standard plans, so you can restore to any second inside that window into a new database.',
    query: 'point in time restore for my database',
  },
  {
    in: 'workers',
    title: 'Scheduling cron jobs in the worker runtime',
    subject: 'cron schedules',
    lead: 'Cron expressions are evaluated in UTC unless the schedule names a zone, and a run that is still going when the next one is due is skipped rather than doubled.',
    query: 'how to schedule cron jobs',
  },
  {
    in: 'logging',
    title: 'Streaming logs to an external syslog server',
    subject: 'syslog forwarding',
    lead: 'Log lines are sent over TLS in RFC 5424 format, with the service name as the application field and the deployment identifier as structured data.',
    query: 'send logs to syslog',
  },
  {
    in: 'domains',
    title: 'Custom domains and DNS verification',
    subject: 'custom domain verification',
    lead: 'Add the TXT record shown in the console to your zone; verification usually completes within a few minutes, although some registrars take up to an hour to publish changes.',
    query: 'verify dns for a custom domain',
  },
  {
    in: 'scaling',
    title: 'Autoscaling containers on queue depth',
    subject: 'queue-based autoscaling',
    lead: 'The autoscaler reads the number of waiting messages every fifteen seconds and adds one instance for every two hundred messages above the target.',
    query: 'autoscale workers based on queue depth',
  },
  {
    in: 'secrets',
    title: 'Encrypting secrets with customer-managed keys',
    subject: 'customer-managed encryption keys',
    lead: 'When you bring your own key, every secret is wrapped with it, and revoking the key makes the secrets unreadable within five minutes.',
    query: 'customer managed encryption keys for secrets',
  },
  {
    in: 'deployments',
    title: 'Blue-green deployments with traffic shifting',
    subject: 'blue-green traffic shifting',
    lead: 'Traffic moves from the blue environment to the green one in steps you define, and any step can be reversed with a single click while both environments keep running.',
    query: 'blue green release traffic shift',
  },
  {
    in: 'api',
    title: 'Pagination cursors in the REST API',
    subject: 'cursor pagination',
    lead: 'List endpoints return a `next_cursor` value; pass it back unchanged to get the following page, and stop when the field is missing.',
    query: 'how does cursor pagination work',
  },
  {
    in: 'payments',
    title: 'Idempotency keys for payment requests',
    subject: 'idempotency keys',
    lead: 'Send the same `Idempotency-Key` header with a retried request and the platform returns the first response instead of charging the customer twice.',
    query: 'idempotent payment requests',
  },
  {
    in: 'monitoring',
    title: 'Exporting metrics to Prometheus',
    subject: 'the Prometheus metrics endpoint',
    lead: 'Every service exposes a scrape endpoint with request counts, latencies and saturation gauges, labelled by region and deployment.',
    query: 'prometheus metrics export',
  },
  {
    in: 'monitoring',
    title: 'Tracing requests with OpenTelemetry',
    subject: 'OpenTelemetry tracing',
    lead: 'The platform propagates the `traceparent` header through its proxies, so spans from your code and from the edge appear in the same trace.',
    query: 'opentelemetry tracing setup',
  },
  {
    in: 'api',
    title: 'Configuring CORS for browser clients',
    subject: 'cross-origin resource sharing',
    lead: 'Allowed origins are matched exactly, including the scheme and port, and preflight responses are cached by browsers for ten minutes.',
    query: 'cors settings for browser requests',
  },
  {
    in: 'storage',
    title: 'Uploading large files with multipart uploads',
    subject: 'multipart uploads',
    lead: 'Files above one hundred megabytes should be sent in parts of at least five megabytes each; parts can be uploaded in parallel and in any order.',
    query: 'multipart upload of large files',
  },
  {
    in: 'storage',
    title: 'Object lifecycle rules for storage buckets',
    subject: 'bucket lifecycle rules',
    lead: 'A lifecycle rule can move objects to a colder class after a number of days and delete them later, matched by prefix or by tag.',
    query: 'bucket lifecycle rules to expire objects',
  },
  {
    in: 'databases',
    title: 'Connection pooling for Postgres databases',
    subject: 'Postgres connection pooling',
    lead: 'The built-in pooler keeps a small number of server connections open and hands them to clients per transaction, which lets hundreds of short-lived functions share a database.',
    query: 'postgres connection pool size',
  },
  {
    in: 'deployments',
    title: 'Feature flags and gradual rollouts',
    subject: 'feature flags',
    lead: 'A flag can be turned on for a percentage of users, for named accounts, or for one region at a time, and every change is recorded next to the deploy history.',
    query: 'gradual rollout with feature flags',
  },
  {
    in: 'workers',
    title: 'Handling timezone conversions in scheduled tasks',
    subject: 'timezone handling',
    lead: 'Store times in UTC, convert at the edges, and remember that a local time can happen twice, or not at all, on the days clocks change.',
    query: 'timezones in scheduled tasks',
  },
  {
    in: 'blog',
    title: 'How we cut cold start times by 60 percent',
    subject: 'cold start times',
    lead: 'Most of the gain came from keeping a snapshot of an initialised runtime and restoring it instead of booting from scratch.',
    query: 'reducing cold start latency',
  },
  {
    in: 'blog',
    title: 'A postmortem of the March storage outage',
    subject: 'the March storage outage',
    lead: 'For forty-seven minutes, writes to one storage region failed because a configuration push removed the last healthy replica from rotation.',
    query: 'storage outage postmortem',
  },
  {
    in: 'blog',
    title: 'Why we moved our build pipeline to ARM runners',
    subject: 'ARM build runners',
    lead: 'Builds on the new runners finish about a third faster and cost noticeably less, once a handful of native dependencies were recompiled.',
    query: 'arm build runners',
  },
  {
    in: 'blog',
    title: 'Introducing regional data residency',
    subject: 'data residency',
    lead: 'Projects can now pin their stored data to a single jurisdiction, and backups stay in the same jurisdiction as the primary copy.',
    query: 'data residency in specific regions',
  },
  {
    in: 'blog',
    title: 'What we learned running a bug bounty program',
    subject: 'our bug bounty program',
    lead: 'In the first year, outside researchers reported just over two hundred issues, of which thirty-one were serious enough to fix the same week.',
    query: 'bug bounty program lessons',
  },
  {
    in: 'blog',
    title: 'Designing accessible dashboards for on-call engineers',
    subject: 'accessible dashboards',
    lead: 'We stopped relying on red and green alone, added text labels to every state, and made every chart readable with a keyboard and a screen reader.',
    query: 'accessible dashboard design',
  },
  {
    in: 'blog',
    title: 'The hidden cost of chatty microservices',
    subject: 'chatty microservices',
    lead: 'One page view fanned out into ninety internal calls, and each extra hop added latency and another way to fail.',
    query: 'microservices that are too chatty',
  },
  {
    in: 'blog',
    title: 'Shipping a new query planner for analytics',
    subject: 'the analytics query planner',
    lead: 'The new planner reorders joins using fresh table statistics and pushes filters down to storage, which made the slowest reports several times faster.',
    query: 'new analytics query planner',
  },
  {
    in: 'article',
    title: 'Choosing between webhooks and polling',
    subject: 'webhooks and polling',
    lead: 'Polling is simple and predictable; webhooks are fast and efficient; most integrations end up using both, with polling as the safety net.',
    query: 'webhooks vs polling',
  },
  {
    in: 'article',
    title: 'A beginner guide to JSON Web Tokens',
    subject: 'JSON Web Tokens',
    lead: 'A token is three base64url parts separated by dots: a header, a set of claims, and a signature that proves who issued it.',
    query: 'what is a json web token',
  },
  {
    in: 'article',
    title: 'Estimating monthly bandwidth costs',
    subject: 'bandwidth costs',
    lead: 'Start from the average response size and the number of requests per day, then add a margin for media, retries and crawlers.',
    query: 'how much will bandwidth cost me',
  },
  {
    in: 'article',
    title: 'Understanding eventual consistency in replicated stores',
    subject: 'eventual consistency',
    lead: 'A write acknowledged by one replica reaches the others a moment later, and during that moment two readers can see different answers.',
    query: 'eventual consistency explained',
  },
  {
    in: 'article',
    title: 'Writing runbooks that people actually follow',
    subject: 'runbooks',
    lead: 'A good runbook starts with the symptom the reader sees, not with the architecture, and every step says how to tell whether it worked.',
    query: 'how to write a good runbook',
  },
  {
    in: 'article',
    title: 'Backpressure in streaming pipelines',
    subject: 'backpressure',
    lead: 'When a consumer falls behind, the producer must slow down, buffer within a bound, or drop data on purpose; anything else eventually runs out of memory.',
    query: 'handling backpressure in stream processing',
  },
  {
    in: 'article',
    title: 'Comparing message queue delivery guarantees',
    subject: 'delivery guarantees',
    lead: 'At-most-once delivery can lose messages, at-least-once can repeat them, and exactly-once usually means at-least-once plus careful deduplication.',
    query: 'at least once vs exactly once message delivery',
  },
  {
    in: 'article',
    title: 'Reducing container image size',
    subject: 'container image size',
    lead: 'Multi-stage builds, a slim base layer and a strict ignore file usually shrink an image by more than half without changing the application.',
    query: 'shrink container image size',
  },
  {
    in: 'article',
    title: 'Capacity planning for seasonal traffic peaks',
    subject: 'seasonal capacity planning',
    lead: 'Look at last year’s peak, add the growth since then, and rehearse the peak with a load test a month before it arrives.',
    query: 'plan capacity for holiday traffic spikes',
  },
  {
    in: 'article',
    title: 'Securing CI pipelines against supply chain attacks',
    subject: 'supply chain security',
    lead: 'Pin dependencies by digest, give each pipeline the narrowest credentials it needs, and sign what the pipeline produces.',
    query: 'supply chain security for ci',
  },
  {
    in: 'article',
    title: 'Zero-trust networking for internal services',
    subject: 'zero-trust networking',
    lead: 'Every request between services is authenticated and authorised on its own merits, whether or not it comes from inside the private network.',
    query: 'what does zero trust mean for internal services',
  },
  {
    in: 'article',
    title: 'Debugging memory leaks in long-running processes',
    subject: 'memory leaks',
    lead: 'Take two heap snapshots an hour apart under steady load and compare the objects whose count only ever grows.',
    query: 'find a memory leak in a node process',
  },
  {
    in: 'article',
    title: 'Structuring multi-tenant database schemas',
    subject: 'multi-tenant schemas',
    lead: 'A tenant column on shared tables is cheapest to run; a schema per tenant isolates better; a database per tenant costs the most and scales the least.',
    query: 'multi tenant schema design',
  },
  {
    in: 'article',
    title: 'Graceful shutdown for HTTP servers',
    subject: 'graceful shutdown',
    lead: 'On a termination signal, stop accepting new connections, finish the requests in flight within a deadline, then close idle keep-alive sockets.',
    query: 'shutdown an http server gracefully',
  },
  {
    in: 'support',
    title: 'Resetting two-factor authentication on a locked account',
    subject: 'two-factor recovery',
    lead: 'If you lost the device that generates your codes, use a recovery code, or ask another owner of the team to reset the second factor for you.',
    query: 'locked out need to reset two factor',
  },
  {
    in: 'support',
    title: 'Why was my invoice charged twice',
    subject: 'duplicate invoice charges',
    lead: 'A second charge is usually a pending authorisation that your bank releases within a few days; the invoice page shows which charge actually settled.',
    query: 'duplicate invoice charge',
  },
  {
    in: 'support',
    title: 'Transferring a project to another organization',
    subject: 'project transfers',
    lead: 'An owner of the project starts the transfer, an owner of the receiving organization accepts it, and billing moves at the start of the next period.',
    query: 'move project to a different organization',
  },
  {
    in: 'support',
    title: 'Recovering a deleted workspace',
    subject: 'deleted workspace recovery',
    lead: 'Deleted workspaces are kept for thirty days; during that time an owner can restore everything from the account settings page.',
    query: 'restore deleted workspace',
  },
  {
    in: 'support',
    title: 'Changing the billing currency',
    subject: 'the billing currency',
    lead: 'The currency can be changed once per billing period, and only when the account has no open invoices or unused credit in the old currency.',
    query: 'switch billing currency',
  },
  {
    in: 'support',
    title: 'Requesting a data export under GDPR',
    subject: 'GDPR data exports',
    lead: 'An owner can request an archive of every record about the account; it is prepared within seventy-two hours and the download link stays valid for a week.',
    query: 'gdpr data export request',
  },
];

/** The topic only a hub page leads to (crawlTargets). */
const TOPIC = {
  slug: 'ledger-reconciliation',
  label: 'Ledger reconciliation',
  query: 'ledger reconciliation',
  pages: [
    'Matching bank statements to ledger entries',
    'Handling unmatched ledger transactions',
    'Reconciling multi-currency ledgers',
    'Month-end close and ledger reconciliation',
    'Tolerance rules for reconciliation matching',
    'Audit trails for reconciled ledger periods',
    'Automating daily ledger reconciliation',
    'Resolving reconciliation breaks between ledgers',
    'Reconciling payouts against the general ledger',
    'Reconciliation reports for finance teams',
  ],
};
const TOPIC_ON_HUB = 6;

// ---------------------------------------------------------------------------------------------
// Prose

const FILLS = {
  comp: [
    'the control plane',
    'the edge proxy',
    'the scheduler',
    'the build service',
    'the metadata store',
    'the event router',
    'the regional gateway',
    'the job runner',
    'the configuration service',
  ],
  metric: [
    'p95 latency',
    'error rate',
    'retry count',
    'CPU saturation',
    'request volume',
    'cache hit ratio',
    'time to first byte',
    'memory headroom',
  ],
  place: [
    'the project settings page',
    'the web console',
    'the command-line tool',
    'the REST API',
    'the team overview page',
  ],
  role: ['project owners', 'administrators', 'on-call engineers', 'developers', 'billing admins', 'team leads'],
  dur: ['thirty seconds', 'two minutes', 'five minutes', 'an hour', 'a day', 'two weeks'],
  period: ['six months', 'year', 'two quarters', 'eighteen months'],
  cause: [
    'the session has expired',
    'the project belongs to a different team',
    'a recent plan change has not finished processing',
    'the request was made with an outdated credential',
    'two people edited the same setting at once',
  ],
};

/** Sentence templates per kind of page: `{s}` the subject, `{S}` capitalised, others from FILLS. */
const SENTENCES = {
  docs: [
    'This page covers {s}: how the feature works, which settings you can change, and what happens when something goes wrong.',
    'Settings for {s} control how {comp} behaves when a request arrives for your project.',
    'You can change {s} from {place}; the change takes effect within {dur}.',
    'Only {role} can edit {s}; everyone else sees the current values as read-only.',
    'If you manage several environments, keep {s} consistent between staging and production so that tests reflect what users will see.',
    'Each change to {s} is recorded with the name of the person who made it and the time it was applied.',
    'When {comp} cannot apply a new value, it keeps the previous one and reports the error on {place}.',
    'Watch the {metric} after the change: a sudden jump usually means a value was mistyped.',
    'The default limit is {n} per project, and you can ask support to raise it for production workloads.',
    'Values are stored per environment, so a preview deployment never inherits production values by accident.',
    'Run the command with `--dry-run` first to see what would change without touching live traffic.',
    'Most teams review {s} once a quarter, or whenever a new service joins the project.',
    'The API returns a `409` status when two updates to {s} race; retry the request with the latest version number.',
    'Values are validated before they are saved, and the console highlights the first field that fails.',
    'For larger projects, split {s} into smaller groups so that each team owns the part it depends on.',
    'The {metric} chart on {place} shows the effect of the last {n} changes.',
    'If the page shows a warning badge, {comp} has detected a setting that conflicts with another one.',
    'Changes made through the command-line tool and through the console end up in the same history, so you can compare them side by side.',
    'Older projects may still use the previous format; they are converted automatically the first time you save.',
    'Keep in mind that changes to {s} apply to new requests only; work that is already running finishes with the old settings.',
    'Write a short note with every change, because the history is the first place people look during an incident.',
    'There is no extra charge for {s} on paid plans; the free plan includes a reduced version with a limit of {n}.',
    'To go back, open the history, pick an earlier version, and select Revert.',
    'Internally, {comp} caches the current value for {dur} to avoid reading it on every request.',
    'The examples below use a project called `demo`; replace it with the name of your own project.',
    'Errors are reported with a stable code, so scripts can match on the code rather than on the message.',
    'The behaviour of {s} is the same in every region, although propagation can take a few seconds longer far from the primary region.',
    'If you are unsure whether a change is safe, apply it to a preview environment and watch it for {dur}.',

    'Every setting described here can also be read through the REST API, which is handy for audits.',
    'The console groups related options together, and the advanced ones stay hidden until you expand them.',
    'Limits are counted per project, not per team, so a new project starts with a fresh allowance.',
    'If you use infrastructure as code, declare {s} in the same file as the service it belongs to.',
    'A change that fails validation is never partially applied: either every value is saved or none is.',
    'The reference section at the end of this page lists every field, its type, and its default value.',
    'Alerts about {s} are sent to the notification channels of the project, if any are configured.',
    'Preview environments copy {s} from the environment they branch from, and you can override values afterwards.',
    'Support engineers can see the current values but cannot change them without your permission.',
    'When you delete a service, its settings are kept for {dur} in case you need to restore it.',
    'The command-line tool prints a short diff before it applies anything, and asks for confirmation unless you pass `--yes`.',
    'Regions added after you configured {s} inherit the project defaults until you change them explicitly.',
    'Most changes are safe to make during business hours, but schedule larger ones for a quiet period.',
    'You will find the same options under the Advanced tab when you create a new service.',
  ],
  blog: [
    'Over the past {period}, our team spent a lot of time thinking about {s}.',
    'It started with a question from a customer who had noticed that {s} looked different in two of their regions.',
    'Our first attempt was simple, and it worked well until traffic grew by a factor of {n}.',
    'We learned more from the failures than from the successes, and this post tries to capture both.',
    'The numbers surprised us: the {metric} dropped by {pct} percent in the first week.',
    'None of this would have been possible without the people who answered pages at odd hours while we experimented.',
    'If you run a similar system, the most useful lesson is probably the least glamorous one: measure before you change anything.',
    'We wrote a small tool to replay production traffic against the new design, and it caught problems that no unit test had found.',
    'Some of the ideas here came from conversations at meetups, others from reading our own incident reports a second time.',
    'The work took {k} weeks, one region at a time, with a switch to undo each step.',
    'Looking back, we would have started with better charts of {s}.',
    'There is still work to do, and we will share more as it lands.',
    'We are hiring engineers who enjoy problems like this one.',
    'The change is live for every project today, and there is nothing you need to do to benefit from it.',
    'Several customers helped us test early builds, and their feedback shaped the final design.',
    'In hindsight the problem was obvious, but at the time it hid behind three other symptoms.',
    'Few people would name {s} as their favourite topic, which is exactly why it deserves a careful look.',
    'Our notes from that quarter read like a detective story with too many suspects.',
    'We measured everything twice: once with synthetic load and once with real traffic from volunteers.',
    'The final design is smaller than the first one, which is usually a good sign.',
    'A whiteboard photo from the first planning meeting still hangs next to the coffee machine.',
    'We also changed how {comp} reports its own health, so the next surprise will be easier to spot.',

    'The old design had served us for years, so replacing it felt a little like moving house.',
    'Our first prototype was written in a week and thrown away in a day, which was exactly the point.',
    'We kept a shared document of every surprise, and it grew to forty pages before the project ended.',
    'Customers noticed the difference before we announced anything, which we took as a good sign.',
    'The hardest part was not the code but agreeing on what "done" meant for every team involved.',
    'We ran the old and the new system side by side for {k} weeks and compared every answer.',
    'A few edge cases only appeared on the last day of the month, so the test period had to span one.',
    'Every step of the migration could be undone with one command, and we needed that twice.',
    'The graphs from that week are still pinned in our team channel as a reminder.',
    'If you want to dig deeper, the documentation has been updated with the details.',
    'We want to thank everyone who filed a ticket, sent a log, or simply told us what confused them.',
    'Some of the gains came from deleting code rather than writing it.',
    'What looked like a single problem turned out to be four small ones stacked on top of each other.',
    'Our support team read every reply to the beta announcement and sorted them into themes.',
    'We also published the internal checklist we used, in case it helps other teams.',
    'The next step is to bring the same approach to the rest of the platform.',
    'Expect another post when the follow-up work ships later this year.',
    'The first version shipped to a single region on a quiet Tuesday morning.',
  ],
  article: [
    'Ask ten engineers about {s} and you will hear at least eleven opinions.',
    'From a distance, {s} looks simple; up close, it rarely is.',
    'The first step is to agree on what problem you are actually trying to solve.',
    'Teams that succeed with {s} usually start small, with one service and one owner.',
    'A useful rule of thumb is to write down the decision, the alternatives, and the reason you chose one of them.',
    'Tooling helps, but it cannot replace a shared understanding of why the work matters.',
    'Money is often the deciding factor, yet it is the hardest one to estimate up front.',
    'It is worth revisiting the choice every year, because the constraints that shaped it change.',
    'The failure modes are rarely dramatic; they are slow drifts that nobody notices until a busy week.',
    'Written explanations matter more than people expect, especially for the parts that change rarely.',
    'When in doubt, prefer the option that is easier to undo.',
    'Numbers such as the {metric} make the discussion concrete and keep it from turning into a matter of taste.',
    'Experienced practitioners tend to ask about ownership before they ask about technology.',
    'Most of the benefits arrive in the first few months; the rest come from steady, unexciting maintenance.',
    'Smaller companies can borrow the same ideas without copying the heavy process.',
    'A good review asks what would happen if the assumption behind the design turned out to be wrong.',
    'Treat {s} as a product with users, not as a one-off project with an end date.',
    'The trade-off is between speed today and flexibility tomorrow, and there is no universal answer.',
    'Write the simplest version first, observe it under real load, then improve the part that hurts.',
    'Many teams underestimate how much communication across departments good work on {s} requires.',
    'One engineering manager we spoke to keeps a single page that lists every open question about {s}.',
    'The literature on {s} is large, but a few well-chosen experiments teach more than a month of reading.',

    'There is no shortage of advice on {s}, and much of it contradicts the rest.',
    'In our conversations with practitioners, the same handful of lessons came up again and again.',
    'Start by listing who is affected when things go well and who is affected when they do not.',
    'Small, reversible steps beat large, irreversible ones almost every time.',
    'The vocabulary matters: if two teams use the same word for different things, every meeting gets longer.',
    'A short written summary after each decision saves hours of archaeology a year later.',
    'The right level of investment depends on how often the problem actually occurs.',
    'It helps to separate the questions that need an answer this week from the ones that can wait a quarter.',
    'People new to {s} often focus on tools; people with experience focus on habits.',
    'Budget a little time every month for the unglamorous work, or it will never happen.',
    'Be wary of any approach that only works when everyone follows it perfectly.',
    'Successful teams share their mistakes openly, which makes the next mistake cheaper.',
    'The simplest metric that captures progress is usually better than a perfect one nobody updates.',
    'Sooner or later, any discussion of {s} becomes a conversation about priorities rather than technology.',
    'If you only remember one thing from this piece, make it this: decide who owns the outcome.',
    'Every organisation has a few people who understand the history; involve them early.',
    'Automation is valuable once the manual process is understood, and harmful before that.',
    'Expect the first attempt to be wrong in some way, and plan time to correct it.',
  ],
  support: [
    'This usually happens when {cause}.',
    'First, sign in to the web console and open {place}.',
    'Check that your account has the right role: {role} can make this change, other members cannot.',
    'If the option is greyed out, your plan may not include it yet.',
    'Changes can take up to {dur} to appear everywhere.',
    'Reload the page and try again if it still shows the old value.',
    'If none of these steps help, contact support with your project ID and the time the problem started.',
    'We reply to most requests within one business day, and faster on paid plans.',
    'You can also make this change with the command-line tool; run it with `--help` to see the options.',
    'For security reasons, support staff cannot make this change on your behalf without written confirmation from an owner.',
    'Include a screenshot of any error message, because the exact wording helps us find the cause quickly.',
    'Members who were invited recently may need to accept the invitation before they see the project.',
    'Make sure you are looking at the right project; the switcher in the top-left corner shows which one is active.',
    'The audit history records who made the change and when, which is useful if several people share the account.',
    'If your team signs in through an identity provider, the change may need to be made there instead.',
    'This article applies to every plan, including the free one.',
    'When you are done, you will receive a confirmation email at the address on the account.',

    'Open the menu in the top-right corner and choose Settings to get started.',
    'The option is only visible to members with the owner or admin role.',
    'If you see an error message, note the code shown next to it; it tells us exactly what failed.',
    'Browser extensions that block scripts can hide some of the buttons mentioned in this article.',
    'After the change, sign out and back in so that your session picks up the new settings.',
    'Accounts created through an invitation inherit the plan of the team that invited them.',
    'The change is recorded in the activity feed of the project, visible to every member.',
    'You can undo this within {dur} from the same page, after which it becomes permanent.',
    'Some settings are locked while a deploy is in progress; wait for it to finish and try again.',
    'Our status page shows whether there is an ongoing incident that could explain the behaviour.',
    'On the free plan, only one person can hold the owner role at a time.',
    'For questions about invoices, the billing team is the fastest route, and they can see your payment history.',
    'If you manage many projects, the command-line tool can apply the same change to all of them in one go.',
    'Please do not share passwords or keys in a support ticket; we will never ask for them.',
    'Mobile apps show a simplified version of the settings; some options are only in the web console.',
    'Requests sent outside business hours are answered the next working day, except for urgent outages.',
    'When the change completes, the banner at the top of the page turns green.',
    'Teams on the enterprise plan can also reach their dedicated support engineer directly.',
  ],
  product: [
    'The {P} is a compact appliance for teams that run services close to their users.',
    'It ships with {n} network ports, a redundant power supply, and a management interface that speaks the same API as the web console.',
    'Setup takes about {dur}: connect it, claim it from the console, and pick a region to pair it with.',
    'Firmware updates are delivered automatically during the maintenance window you choose.',
    'The {P} supports up to {n} concurrent sessions and draws less than {w} watts under typical load.',
    'Every unit is covered by a {years}-year warranty with advance replacement.',
    'Customers use it for branch offices, retail stores, and small factories where a full rack would be overkill.',
    'Pricing depends on the term, and volume discounts start at {n} units.',
    'Compared with the previous generation, it boots faster and runs cooler.',
    'The chassis is fanless, so it can sit on a shelf in a quiet office.',
    'Spare parts are stocked in every region where the product is sold.',
    'Detailed specifications are listed below, followed by answers to common questions.',
    'An optional rack kit holds two units side by side in a single rack unit.',
    'Status lights on the front panel show power, uplink and pairing at a glance.',

    'The {P} pairs with the cloud console in a few clicks, without any command-line work.',
    'It runs the same software as our regional points of presence, scaled down for a single site.',
    'Two units can be paired for failover, with the standby taking over in under a second.',
    'A built-in cellular modem keeps the unit reachable even when the primary uplink fails.',
    'Configuration is stored in the cloud, so a replacement unit picks up where the old one left off.',
    'Diagnostics can be run remotely from the console, including cable tests and throughput checks.',
    'The unit is certified for use in offices, shops and light industrial settings.',
    'Each order includes mounting brackets, a power cable and a printed quick start card.',
    'Lead times are usually one to two weeks, depending on the region.',
    'Leasing options are available for customers who prefer monthly payments.',
    'Older units can be traded in for credit toward the {P}.',
    'Our field team can install the unit on site for customers who prefer not to do it themselves.',
    'Local caching keeps frequently requested content close to users, even during an uplink outage.',
    'The management interface is disabled on public ports by default.',
    'Event logs from the unit stream to the same log search as your cloud services.',
    'Every shipment is tracked, and units are tested before they leave the warehouse.',
    'The {P} is designed to run unattended for years in places without an IT team.',
    'Customers can order a demo unit for a thirty-day evaluation.',
    'Power consumption is reported in the console, so facilities teams can track it.',
    'A sealed enclosure variant is available for dusty environments.',
    'Hardware support tickets are answered by the same team that handles the cloud platform.',
  ],
  topic: [
    'Reconciliation compares two records of the same money and explains every difference between them.',
    'In a typical month-end close, finance teams match bank statement lines against entries in the general ledger.',
    'In practice, most of the manual effort in a ledger reconciliation goes into {s}.',
    'Matching rules look at the amount, the value date, and the reference text, in that order.',
    'A variance that stays open for more than {n} days should be escalated to the controller.',
    'Automated matching handles the bulk of transactions, leaving a short list of exceptions for people to review.',
    'Each reconciled period is locked, and later corrections are posted as adjusting journal entries.',
    'Auditors ask for evidence that every reconciliation break was investigated and resolved.',
    'Exchange differences are booked to a separate account so they do not hide real discrepancies in the ledger.',
    'The ledger export includes the account, the posting date, and the reconciliation status of each entry.',
    'Small timing differences, such as a payout that clears a day late, are the most common cause of breaks.',
    'A clear owner for each ledger account keeps the reconciliation from stalling at the end of the month.',
    'Reconciliation rules are versioned, so a change to a tolerance never rewrites the history of closed periods.',
    'The reconciliation workspace shows matched, suggested and unmatched items in three columns.',

    'Bank feeds arrive daily, and each line is matched against the ledger as soon as it lands.',
    'Partial matches, where one payout covers several invoices, need a rule that allows many-to-one matching.',
    'A reconciliation is only as good as the reference data both sides carry, so agree on references early.',
    'Unmatched items older than the tolerance window appear at the top of the exception queue.',
    'Finance teams usually sign off each ledger account separately, then the controller signs off the period.',
    'Fees deducted by the bank before settlement are a frequent reason why amounts differ slightly.',
    'The reconciliation history keeps every match, every manual override, and the person who made it.',
    'Suggested matches come with a confidence score, and anything below the threshold waits for a person.',
    'Reversals and refunds create pairs of entries that should cancel out within the same period.',
    'Good reconciliation practice keeps the reasons for each adjustment next to the adjustment itself.',
    'Reports group open items by age, so the oldest breaks get attention first.',
    'A ledger that reconciles every day makes month-end close a formality rather than a scramble.',
    'Intercompany balances are reconciled on both sides, and the difference should always be zero.',
    'Export the reconciliation summary at the end of each period for the audit file.',
    'Clearing accounts should be empty after every reconciliation run; any balance left is a break to explain.',
    'When the rules change, rerun the reconciliation for the open period only, never for closed ones.',
    'Statement imports are checked for gaps, so a missing day is noticed before matching starts.',
    'Teams that reconcile payouts daily catch fee changes and failed transfers within a day.',
  ],
};

/**
 * Paragraphs of made-up prose about `subject`: sentences of `kind`, 300-700 words in 3-8
 * paragraphs, `lead` first when given.
 * @param {() => number} r
 * @param {keyof typeof SENTENCES} kind
 * @param {string} subject
 * @param {{ lead?: string; product?: string }} [extra]
 * @returns {string[]}
 */
function prose(r, kind, subject, extra = {}) {
  const templates = SENTENCES[kind];
  const target = between(r, 310, 660);
  const sentences = [];
  let words = 0;
  if (extra.lead) {
    sentences.push(extra.lead);
    words += extra.lead.split(' ').length;
  }
  const deck = shuffled(r, templates);
  while (words < target && deck.length > 0) {
    const template = /** @type {string} */ (deck.pop());
    const sentence = template.replace(/\{(\w+)\}/g, (_, key) => {
      switch (key) {
        case 's':
          return subject;
        case 'S':
          return capitalize(subject);
        case 'n':
          return String(pick(r, [3, 4, 5, 8, 10, 12, 20, 25, 50, 100]));
        case 'k':
          return String(pick(r, [3, 4, 5, 6, 8, 10, 12]));
        case 'pct':
          return String(between(r, 12, 64));
        case 'w':
          return String(between(r, 9, 45));
        case 'years':
          return String(between(r, 2, 5));
        case 'P':
          return extra.product ?? subject;
        default: {
          const list = FILLS[/** @type {keyof typeof FILLS} */ (key)];
          return list ? pick(r, list) : key;
        }
      }
    });
    sentences.push(sentence);
    words += sentence.split(' ').length;
  }
  const count = Math.min(8, Math.max(3, Math.round(sentences.length / between(r, 4, 6))));
  const paragraphs = [];
  const per = sentences.length / count;
  for (let i = 0; i < count; i++)
    paragraphs.push(sentences.slice(Math.round(i * per), Math.round((i + 1) * per)).join(' '));
  return paragraphs.filter((p) => p !== '');
}

const DOC_HEADINGS = ['Before you begin', 'How it works', 'Configuration', 'Examples', 'Limits', 'Troubleshooting'];
const ARTICLE_HEADINGS = ['Where to start', 'What goes wrong', 'A closer look', 'In practice', 'What we recommend'];

// ---------------------------------------------------------------------------------------------
// The site model: every page's path, title and place, built once at startup.

/**
 * @typedef {object} Page
 * @property {string} path
 * @property {string} kind home | static | docs-index | chapter | doc | blog-index | post | section-index | product | article | support | hub | topic
 * @property {string} title
 * @property {string} subject
 * @property {string} date yyyy-mm-dd (shown as "last updated" or the post's date)
 * @property {string} [lead]
 * @property {number} [chapter] index in CHAPTERS
 * @property {number} [position] index in its list (chapter, section, blog, topic)
 * @property {string} [section] articles | products | support (section-index, product, article, support)
 * @property {Page[]} [members] the pages an index lists
 */

const PAGE_SIZE = 50;
const STATIC_PAGES = [
  { path: '/about/', title: 'About Tallowbrook', subject: 'the company' },
  { path: '/contact/', title: 'Contact us', subject: 'getting in touch' },
  { path: '/pricing/', title: 'Pricing', subject: 'plans and pricing' },
  { path: '/legal/privacy', title: 'Privacy notice', subject: 'privacy' },
  { path: '/legal/terms', title: 'Terms of service', subject: 'the terms of service' },
];
const STATIC_TEXT = {
  '/about/': [
    'Tallowbrook started in a shared office above a bicycle shop, with four engineers who were tired of assembling the same deployment scripts for every new project.',
    'Today the platform runs services for teams of every size, from weekend projects to companies with thousands of developers, in eleven regions.',
    'We care about boring reliability, clear documentation, and prices that a finance team can predict.',
  ],
  '/contact/': [
    'The quickest way to reach us is the support form in the web console, which attaches your project details automatically.',
    'For sales questions, write to the sales team and mention the size of your team and the regions you need.',
    'Press enquiries are answered by the communications team within two business days.',
  ],
  '/pricing/': [
    'Every plan includes unlimited projects, automatic certificates, and access to the full documentation and community forum.',
    'The Team plan adds shared environments, audit history, and priority support, billed per seat each month.',
    'Enterprise agreements include a dedicated support engineer, custom contracts, and volume discounts on usage.',
  ],
  '/legal/privacy': [
    'This notice describes what information we collect when you use the platform, why we collect it, and how long we keep it.',
    'We collect account details you give us, usage data needed to bill and operate the service, and logs kept for security.',
    'You can ask for a copy of your data, or for its deletion, at any time from the account settings page.',
  ],
  '/legal/terms': [
    'These terms govern your use of the platform and form an agreement between you and Tallowbrook.',
    'You are responsible for the content you deploy and for keeping your credentials safe.',
    'We may change these terms with thirty days notice; continued use after that date means you accept the new terms.',
  ],
};

/**
 * Titles for `count` pages from patterns crossed with subjects, shuffled; once they run out,
 * repeated with "(part N)". Titles in `avoid` are skipped.
 * @param {() => number} r
 * @param {string[]} patterns
 * @param {string[]} nouns
 * @param {string[]} suffixes
 * @param {number} count
 * @returns {{ title: string; subject: string }[]}
 */
function combinedTitles(r, patterns, nouns, suffixes, count) {
  /** @type {{ title: string; subject: string }[]} */
  const all = [];
  for (const noun of nouns)
    for (const pattern of patterns)
      for (const suffix of suffixes) {
        const key = pattern.includes('{a}') ? '{a}' : pattern.includes('{s}') ? '{s}' : '{n}';
        const title =
          (pattern.startsWith('{N}') ? pattern.replace('{N}', capitalize(noun)) : pattern.replace(key, noun)) + suffix;
        all.push({ title, subject: noun });
      }
  const order = shuffled(r, all);
  const out = [];
  for (let i = 0; i < count; i++) {
    const base = /** @type {{ title: string; subject: string }} */ (order[i % order.length]);
    const round = Math.floor(i / order.length);
    out.push(round === 0 ? base : { title: `${base.title} (part ${round + 1})`, subject: base.subject });
  }
  return out;
}

/**
 * @param {{ pages: number; docsPages: number; blogPosts: number; seed: number }} options
 */
function buildModel({ pages, docsPages, blogPosts, seed }) {
  const chapterCount = CHAPTERS.length;
  const fixed = 1 + STATIC_PAGES.length + 1 + chapterCount + 1 + 3 + 1 + TOPIC.pages.length;
  const rest = pages - fixed - docsPages - blogPosts;
  const queryIn = (/** @type {string} */ where) => QUERY_PAGES.filter((q) => q.in === where);
  if (docsPages < chapterCount * 3) throw new RangeError(`docsPages must be at least ${chapterCount * 3}`);
  if (blogPosts < queryIn('blog').length) throw new RangeError(`blogPosts must be at least ${queryIn('blog').length}`);
  if (rest < 80) throw new RangeError(`pages must be at least ${fixed + docsPages + blogPosts + 80}`);

  /** @type {Map<string, Page>} */
  const byPath = new Map();
  /** @type {Page[]} */
  const list = [];
  const usedSlugs = new Set();
  /** A slug not used before in its scope. @param {string} scope @param {string} title */
  const uniqueSlug = (scope, title) => {
    const base = slugify(title);
    let slug = base;
    for (let k = 2; usedSlugs.has(`${scope}/${slug}`); k++) slug = `${base}-${k}`;
    usedSlugs.add(`${scope}/${slug}`);
    return slug;
  };
  const dateFor = (/** @type {string} */ key) =>
    isoDay(DAY_2023 + Math.floor(rngFor(seed, `date:${key}`)() * (DAY_2025_06_30 - DAY_2023)));
  /** @param {Page} page */
  const add = (page) => {
    list.push(page);
    byPath.set(page.path, page);
    return page;
  };
  /** Places `targets` among `items` at spread, deterministic positions. @template T @param {T[]} items @param {T[]} targets @param {string} key */
  const place = (items, targets, key) => {
    const taken = new Set();
    targets.forEach((t, k) => {
      let at = Math.floor(((k + 0.5) * items.length) / targets.length + (rngFor(seed, `${key}:${k}`)() - 0.5) * 3);
      at = Math.max(0, Math.min(items.length - 1, at));
      while (taken.has(at)) at = (at + 1) % items.length;
      taken.add(at);
      items[at] = t;
    });
  };

  const home = add({
    path: '/',
    kind: 'home',
    title: `${SITE_NAME}: build, deploy and run services`,
    subject: SITE_NAME,
    date: '2025-06-30',
  });
  for (const s of STATIC_PAGES)
    add({ path: s.path, kind: 'static', title: s.title, subject: s.subject, date: dateFor(s.path) });

  // Documentation: chapters of (nearly) equal size, each page's title from its chapter's subjects.
  const docsIndex = add({
    path: '/docs/',
    kind: 'docs-index',
    title: 'Documentation',
    subject: 'the documentation',
    date: '2025-06-30',
    members: [],
  });
  /** @type {Page[]} */
  const chapterIndexes = [];
  /** @type {Page[][]} */
  const chapterPages = [];
  CHAPTERS.forEach((chapter, c) => {
    chapterIndexes.push(
      add({
        path: `/docs/${chapter.slug}/`,
        kind: 'chapter',
        title: chapter.label,
        subject: chapter.label.toLowerCase(),
        date: dateFor(`chapter:${chapter.slug}`),
        chapter: c,
        members: [],
      }),
    );
  });
  /** @type {Page[]} */
  const docs = [];
  CHAPTERS.forEach((chapter, c) => {
    const size = Math.floor(docsPages / chapterCount) + (c < docsPages % chapterCount ? 1 : 0);
    const r = rngFor(seed, `chapter:${chapter.slug}`);
    const targets = queryIn(chapter.slug);
    /** @type {{ title: string; subject: string; lead?: string }[]} */
    const entries = combinedTitles(r, DOC_PATTERNS, chapter.nouns, [''], size);
    place(entries, targets, `docs:${chapter.slug}`);
    /** @type {Page[]} */
    const pagesOfChapter = [];
    entries.forEach((entry, i) => {
      const slug = uniqueSlug('docs', entry.title);
      const page = add({
        path: `/docs/${chapter.slug}/${slug}`,
        kind: 'doc',
        title: entry.title,
        subject: entry.subject,
        date: dateFor(`docs/${slug}`),
        chapter: c,
        position: i,
        ...(entry.lead ? { lead: entry.lead } : {}),
      });
      pagesOfChapter.push(page);
      docs.push(page);
    });
    chapterPages.push(pagesOfChapter);
    /** @type {Page[]} */ (/** @type {Page} */ (chapterIndexes[c]).members).push(...pagesOfChapter);
  });
  /** @type {Page[]} */ (docsIndex.members).push(...chapterIndexes);

  // Blog: newest first, one post every few weeks back from June 2025.
  const blogIndex = add({
    path: '/blog/',
    kind: 'blog-index',
    title: 'Blog',
    subject: 'the blog',
    date: '2025-06-30',
    members: [],
  });
  /** @type {{ title: string; subject: string; lead?: string }[]} */
  const blogEntries = combinedTitles(rngFor(seed, 'blog'), BLOG_PATTERNS, BLOG_SUBJECTS, [''], blogPosts);
  place(blogEntries, queryIn('blog'), 'blog');
  const step = Math.max(1, Math.floor(1600 / blogPosts));
  const rBlog = rngFor(seed, 'blog-dates');
  /** @type {Page[]} */
  const posts = blogEntries.map((entry, i) => {
    const date = isoDay(Date.UTC(2025, 5, 24) / DAY_MS - i * step - between(rBlog, 0, Math.min(3, step - 1)));
    const slug = uniqueSlug('blog', entry.title);
    return add({
      path: `/blog/${date.slice(0, 4)}/${slug}`,
      kind: 'post',
      title: entry.title,
      subject: entry.subject,
      date,
      position: i,
      ...(entry.lead ? { lead: entry.lead } : {}),
    });
  });
  /** @type {Page[]} */ (blogIndex.members).push(...posts);

  // Products, articles and support share what is left: 30%, 55%, 15%.
  const productCount = Math.floor(rest * 0.3);
  const supportCount = Math.floor(rest * 0.15);
  const articleCount = rest - productCount - supportCount;

  const productsIndex = add({
    path: '/products/',
    kind: 'section-index',
    section: 'products',
    title: 'Products',
    subject: 'products',
    date: '2025-06-30',
    members: [],
  });
  const rProducts = rngFor(seed, 'products');
  const products = [];
  for (let i = 0; i < productCount; i++) {
    const name = `${pick(rProducts, PRODUCT_PREFIXES)} ${pick(rProducts, PRODUCT_NOUNS)} ${between(rProducts, 100, 9899) + i}`;
    const slug = uniqueSlug('products', name);
    products.push(
      add({
        path: `/products/${slug}`,
        kind: 'product',
        section: 'products',
        title: name,
        subject: name,
        date: dateFor(`p/${slug}`),
        position: i,
      }),
    );
  }
  /** @type {Page[]} */ (productsIndex.members).push(...products);

  const articlesIndex = add({
    path: '/articles/',
    kind: 'section-index',
    section: 'articles',
    title: 'Articles',
    subject: 'articles',
    date: '2025-06-30',
    members: [],
  });
  /** @type {{ title: string; subject: string; lead?: string }[]} */
  const articleEntries = combinedTitles(
    rngFor(seed, 'articles'),
    ARTICLE_PATTERNS,
    ARTICLE_NOUNS,
    ARTICLE_SUFFIXES,
    articleCount,
  );
  place(articleEntries, queryIn('article'), 'articles');
  const articles = articleEntries.map((entry, i) => {
    const slug = uniqueSlug('articles', entry.title);
    return add({
      path: `/articles/${slug}`,
      kind: 'article',
      section: 'articles',
      title: entry.title,
      subject: entry.subject,
      date: dateFor(`a/${slug}`),
      position: i,
      ...(entry.lead ? { lead: entry.lead } : {}),
    });
  });
  /** @type {Page[]} */ (articlesIndex.members).push(...articles);

  const supportIndex = add({
    path: '/support/',
    kind: 'section-index',
    section: 'support',
    title: 'Support',
    subject: 'support',
    date: '2025-06-30',
    members: [],
  });
  /** @type {{ title: string; subject: string; lead?: string }[]} */
  const supportEntries = combinedTitles(
    rngFor(seed, 'support'),
    SUPPORT_PATTERNS,
    SUPPORT_ACTIONS,
    SUPPORT_SUFFIXES,
    supportCount,
  );
  place(supportEntries, queryIn('support'), 'support');
  const supportPages = supportEntries.map((entry, i) => {
    const slug = uniqueSlug('support', entry.title);
    return add({
      path: `/support/${slug}`,
      kind: 'support',
      section: 'support',
      title: entry.title,
      subject: entry.subject,
      date: dateFor(`s/${slug}`),
      position: i,
      ...(entry.lead ? { lead: entry.lead } : {}),
    });
  });
  /** @type {Page[]} */ (supportIndex.members).push(...supportPages);

  // The topic: a hub listing six of its ten pages; the other four only linked from those.
  const hub = add({
    path: `/topics/${TOPIC.slug}/`,
    kind: 'hub',
    title: TOPIC.label,
    subject: 'ledger reconciliation',
    date: '2025-05-02',
    members: [],
  });
  const topicPages = TOPIC.pages.map((title, i) =>
    add({
      path: `/topics/${TOPIC.slug}/${slugify(title)}`,
      kind: 'topic',
      title,
      subject: title.toLowerCase(),
      date: dateFor(`t/${title}`),
      position: i,
    }),
  );
  /** @type {Page[]} */ (hub.members).push(...topicPages.slice(0, TOPIC_ON_HUB));

  if (list.length !== pages) throw new Error(`internal: ${list.length} pages instead of ${pages}`);
  const docsBySlug = new Map(docs.map((p) => [/** @type {string} */ (p.path.split('/').pop()), p]));
  return {
    home,
    list,
    byPath,
    docs,
    chapterPages,
    chapterIndexes,
    posts,
    products,
    articles,
    supportPages,
    topicPages,
    hub,
    docsBySlug,
    sections: { articles, products, support: supportPages },
  };
}

// ---------------------------------------------------------------------------------------------
// Rendering

const DISALLOWED_PREFIX = '/private/';
const CALENDAR_START = '/calendar/2025/06';
const BROKEN_LINKS = [
  { href: '/careers/openings', text: 'Careers' },
  { href: '/press/kit', text: 'Press kit' },
];

/**
 * @param {{ model: ReturnType<typeof buildModel>; seed: number; origin: string; offsiteOrigin: string }} site
 */
function createRenderer(site) {
  const { model, seed, origin, offsiteOrigin } = site;

  /** A session id for the links on the page at `path`: the same page always gets the same one. @param {string} path */
  const sessionId = (path) => hashString(`session:${seed}:${path}`).toString(36) + hashString(path).toString(16);

  /** @param {string} href @param {string} text @param {string} [attrs] */
  const a = (href, text, attrs = '') => `<a href="${escapeHtml(href)}"${attrs}>${escapeHtml(text)}</a>`;

  /** @param {string} path */
  const header = (path) => {
    const sid = sessionId(path);
    const nav = [
      a('/', 'Home'),
      a('/docs/', 'Documentation'),
      a('/docs/getting-started/', 'Get started'),
      a('/blog/', 'Blog'),
      a('/products/', 'Products'),
      a('/articles/', 'Articles'),
      a(`/support/?sessionid=${sid}`, 'Support'),
      a('/pricing/', 'Pricing'),
      a(CALENDAR_START, 'Events'),
      a('/about/', 'About'),
      a(`/contact/?sessionid=${sid}`, 'Contact'),
      a(`/topics/${TOPIC.slug}/`, TOPIC.label),
    ];
    return `<header class="site-header"><a class="logo" href="/">${SITE_NAME}</a><nav class="site-nav" aria-label="Main"><ul>${nav
      .map((l) => `<li>${l}</li>`)
      .join('')}</ul></nav></header>`;
  };

  const footer = () =>
    `<footer class="site-footer"><ul>${[
      a('/about/', 'About us'),
      a('/legal/privacy', 'Privacy'),
      a('/legal/terms', 'Terms'),
      a('/blog/feed.xml', 'RSS feed'),
      a(`${offsiteOrigin}/community`, 'Community forum'),
      a(`${offsiteOrigin}/status`, 'System status'),
      a(`${DISALLOWED_PREFIX}staff-directory`, 'Staff directory'),
      ...BROKEN_LINKS.map((l) => a(l.href, l.text)),
    ]
      .map((l) => `<li>${l}</li>`)
      .join('')}</ul><p>© 2025 ${SITE_NAME} Ltd. Made-up company, generated content.</p></footer>`;

  /**
   * @param {{ path: string; title: string; main: string; head?: string; sidebar?: string; description?: string }} parts
   */
  const layout = ({ path, title, main, head = '', sidebar = '', description }) =>
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} | ${SITE_NAME}</title>
<meta name="description" content="${escapeHtml(description ?? title)}">
<link rel="stylesheet" href="/assets/site.css">${head}
</head>
<body>
${header(path)}
<div class="page">${sidebar}
${main}
</div>
${footer()}
</body>
</html>
`;

  /** @param {string[]} paragraphs @param {string[]} headings @param {() => number} r */
  const articleBody = (paragraphs, headings, r) => {
    const out = [];
    const hs = shuffled(r, headings);
    paragraphs.forEach((p, i) => {
      if (i > 0 && i % 2 === 0 && hs.length > 0) out.push(`<h2>${hs.pop()}</h2>`);
      out.push(`<p>${escapeHtml(p).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`);
    });
    return out.join('\n');
  };

  /** @param {Page[]} pages */
  const related = (pages) =>
    `<aside class="related" aria-label="Related"><h2>Related</h2><ul>${pages
      .map((p) => `<li>${a(p.path, p.title)}</li>`)
      .join('')}</ul></aside>`;

  /** Five pages of `pool` other than `self`, chosen by `key`. @param {Page[]} pool @param {Page} self @param {string} key */
  const relatedFrom = (pool, self, key) => {
    const r = rngFor(seed, `related:${key}`);
    const out = [];
    const seen = new Set([self.path]);
    for (let tries = 0; out.length < 5 && tries < 50; tries++) {
      const p = pick(r, pool);
      if (seen.has(p.path)) continue;
      seen.add(p.path);
      out.push(p);
    }
    return out;
  };

  /** Pagination links of an index at `path` showing `page` of `pages`. @param {string} path @param {number} page @param {number} pages */
  const pagination = (path, page, pages) => {
    if (pages <= 1) return '';
    const href = (/** @type {number} */ n) => (n === 1 ? path : `${path}?page=${n}`);
    const items = [];
    if (page > 1) items.push(a(href(page - 1), '« Previous', ' rel="prev"'));
    // The neighbours, the ends, and every tenth page: no page far from the first.
    const tens = Array.from({ length: Math.floor(pages / 10) }, (_, k) => (k + 1) * 10);
    const shown = new Set(
      [1, pages, page - 2, page - 1, page, page + 1, page + 2, ...tens].filter((n) => n >= 1 && n <= pages),
    );
    for (const n of [...shown].sort((x, y) => x - y))
      items.push(n === page ? `<span aria-current="page">${n}</span>` : a(href(n), String(n)));
    if (page < pages) items.push(a(href(page + 1), 'Next »', ' rel="next"'));
    return `<nav class="pagination" aria-label="Pages">${items.join(' ')}</nav>`;
  };

  /** An index page listing `members`, PAGE_SIZE at a time; undefined past the last page. @param {Page} index @param {number} page @param {string} intro */
  const indexPage = (index, page, intro, head = '') => {
    const members = index.members ?? [];
    const pages = Math.max(1, Math.ceil(members.length / PAGE_SIZE));
    if (page < 1 || page > pages) return undefined;
    const slice = members.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const items = slice
      .map((p) => `<li>${a(p.path, p.title)} <time datetime="${p.date}">${longDate(p.date)}</time></li>`)
      .join('\n');
    const title = page > 1 ? `${index.title} (page ${page})` : index.title;
    return layout({
      path: index.path,
      title,
      head,
      main: `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(intro)}</p>\n<ul class="listing">\n${items}\n</ul>\n${pagination(index.path, page, pages)}</main>`,
    });
  };

  const feedLinks =
    '\n<link rel="alternate" type="application/rss+xml" title="Tallowbrook blog" href="/blog/feed.xml">\n<link rel="alternate" type="application/atom+xml" title="Tallowbrook blog (Atom)" href="/blog/atom.xml">';

  const homePage = () => {
    const chapters = model.chapterIndexes.map((c) => `<li>${a(c.path, c.title)}</li>`).join('');
    const latest = model.posts
      .slice(0, 5)
      .map((p) => `<li>${a(p.path, p.title)} <time datetime="${p.date}">${longDate(p.date)}</time></li>`)
      .join('');
    const featured = model.articles
      .filter((_, i) => i % Math.max(1, Math.floor(model.articles.length / 6)) === 0)
      .slice(0, 6);
    const products = model.products
      .slice(0, 4)
      .map((p) => `<li>${a(p.path, p.title)}</li>`)
      .join('');
    return layout({
      path: '/',
      title: model.home.title,
      head: feedLinks,
      description: 'Tallowbrook is a made-up platform to build, deploy and run web services.',
      main: `<main><h1>Build, deploy and run services without the busywork</h1>
<p>${SITE_NAME} runs your web services, workers and databases in eleven regions, with deploy previews, metrics and logs built in.</p>
<section><h2>Explore</h2><ul class="sections">
<li>${a('/docs/', 'Documentation')}: guides and references for every part of the platform.</li>
<li>${a('/blog/', 'Blog')}: product news and engineering stories.</li>
<li>${a('/articles/', 'Articles')}: longer pieces on running software in production.</li>
<li>${a('/products/', 'Products')}: edge appliances and add-ons.</li>
<li>${a('/support/', 'Support')}: answers to common account and billing questions.</li>
</ul></section>
<section><h2>Documentation chapters</h2><ul>${chapters}</ul></section>
<section><h2>From the blog</h2><ul>${latest}</ul></section>
<section><h2>Popular articles</h2><ul>${featured.map((p) => `<li>${a(p.path, p.title)}</li>`).join('')}</ul></section>
<section><h2>Featured products</h2><ul>${products}</ul></section></main>`,
    });
  };

  /** @param {Page} page @param {'normal' | 'print' | 'mirror'} variant */
  const docPage = (page, variant) => {
    const c = /** @type {number} */ (page.chapter);
    const chapter = /** @type {(typeof CHAPTERS)[number]} */ (CHAPTERS[c]);
    const siblings = /** @type {Page[]} */ (model.chapterPages[c]);
    const i = /** @type {number} */ (page.position);
    const r = rngFor(seed, `body:${page.path}`);
    const start = Math.max(0, Math.min(i - 15, siblings.length - 30));
    const sidebar = `\n<nav class="sidebar" aria-label="${escapeHtml(chapter.label)}"><h2>${a(`/docs/${chapter.slug}/`, chapter.label)}</h2><ul>${siblings
      .slice(start, start + 30)
      .map((p) =>
        p === page ? `<li aria-current="page">${escapeHtml(p.title)}</li>` : `<li>${a(p.path, p.title)}</li>`,
      )
      .join('')}</ul></nav>`;
    const paragraphs = prose(r, 'docs', page.subject, page.lead ? { lead: page.lead } : {});
    const noun = slugify(page.subject).split('-').slice(0, 2).join('-');
    const code = `<pre><code class="language-shell">tallow ${chapter.slug} ${noun} show --project demo\ntallow ${chapter.slug} ${noun} update --project demo --dry-run</code></pre>`;
    const prev = siblings[i - 1];
    const next = siblings[i + 1];
    const pager = `<nav class="pager" aria-label="Chapter pages">${prev ? a(prev.path, `← ${prev.title}`, ' rel="prev"') : ''} ${next ? a(next.path, `${next.title} →`, ' rel="next"') : ''}</nav>`;
    const updated =
      variant === 'mirror' ? isoDay(Date.UTC(2025, 6, 1) / DAY_MS + (hashString(page.path) % 60)) : page.date;
    const printHref = i % 3 === 0 ? `${page.path}?view=print` : `${page.path}/print`;
    const extras = [];
    if (variant === 'normal') extras.push(`<p class="print-link">${a(printHref, 'Print this page')}</p>`);
    if ((chapter.slug === 'billing' || chapter.slug === 'payments') && i % 5 === 2)
      extras.push(
        `<p>Finance teams closing their books each month should read the guides on ${a(`/topics/${TOPIC.slug}/`, 'ledger reconciliation')}.</p>`,
      );
    if (variant === 'normal' && i % 7 === 3)
      extras.push(
        `<p class="mirror-link">Also available on our ${a(`/mirror${page.path}`, 'documentation mirror')}.</p>`,
      );
    const pool = model.docs;
    const head =
      variant === 'print'
        ? `\n<link rel="canonical" href="${origin}${page.path}">\n<meta name="robots" content="noindex">`
        : '';
    const banner =
      variant === 'mirror'
        ? `<p class="mirror-banner">You are reading a mirror of the ${SITE_NAME} documentation.</p>`
        : '';
    const body = articleBody(paragraphs, DOC_HEADINGS, r);
    const split = body.indexOf('</p>') + 4;
    return layout({
      path: page.path,
      title: page.title,
      head,
      sidebar: variant === 'print' ? '' : sidebar,
      description: `${page.title}: ${chapter.label} documentation.`,
      main: `<main><article>${banner}
<nav class="breadcrumbs" aria-label="Breadcrumb">${a('/docs/', 'Docs')} › ${a(`/docs/${chapter.slug}/`, chapter.label)}</nav>
<h1>${escapeHtml(page.title)}</h1>
<p class="meta">Last updated <time datetime="${updated}">${longDate(updated)}</time></p>
${body.slice(0, split)}
${code}
${body.slice(split)}
${extras.join('\n')}
${pager}
</article>
${related(relatedFrom(pool, page, page.path))}</main>`,
    });
  };

  /** Articles, support pages, products, blog posts, static pages, topic pages. @param {Page} page @param {'normal' | 'mirror'} variant */
  const contentPage = (page, variant = 'normal') => {
    const r = rngFor(seed, `body:${page.path}`);
    /** @type {keyof typeof SENTENCES} */
    let kind = 'article';
    /** @type {Page[]} */
    let pool = model.articles;
    let crumbs = a('/articles/', 'Articles');
    let headings = ARTICLE_HEADINGS;
    let extra = '';
    if (page.kind === 'post') {
      kind = 'blog';
      pool = model.posts;
      crumbs = a('/blog/', 'Blog');
      const i = /** @type {number} */ (page.position);
      const doc = /** @type {Page} */ (model.docs[(i * 37) % model.docs.length]);
      const slug = /** @type {string} */ (doc.path.split('/').pop());
      const links = [`<li>${a(`/old/${slug}`, doc.title)}</li>`];
      if (i % 3 === 0) {
        const other = /** @type {Page} */ (model.docs[(i * 53 + 11) % model.docs.length]);
        links.push(`<li>${a(`/legacy/${other.path.split('/').pop()}`, other.title)}</li>`);
      }
      extra = `<h2>Further reading</h2><ul>${links.join('')}</ul>`;
    } else if (page.kind === 'support') {
      kind = 'support';
      pool = model.supportPages;
      crumbs = a('/support/', 'Support');
      headings = ['Before you start', 'Steps', 'Still stuck?'];
    } else if (page.kind === 'product') {
      kind = 'product';
      pool = model.products;
      crumbs = a('/products/', 'Products');
      headings = ['Overview', 'In the box', 'Deployment'];
      const rs = rngFor(seed, `specs:${page.path}`);
      extra = `<h2>Specifications</h2><table class="specs"><tbody>
<tr><th>Ports</th><td>${pick(rs, [2, 4, 8, 12])} × 10 GbE</td></tr>
<tr><th>Power</th><td>${between(rs, 9, 45)} W typical</td></tr>
<tr><th>Weight</th><td>${(between(rs, 8, 40) / 10).toFixed(1)} kg</td></tr>
<tr><th>Warranty</th><td>${between(rs, 2, 5)} years</td></tr>
</tbody></table>`;
    } else if (page.kind === 'topic') {
      kind = 'topic';
      const i = /** @type {number} */ (page.position);
      pool = [1, 2, 3, 4, 5].map((k) => /** @type {Page} */ (model.topicPages[(i + k) % model.topicPages.length]));
      crumbs = a(`/topics/${TOPIC.slug}/`, TOPIC.label);
      headings = ['Overview', 'Matching', 'Exceptions', 'Closing the period'];
    } else if (page.kind === 'static') {
      pool = model.articles;
      crumbs = '';
    } else {
      const i = /** @type {number} */ (page.position);
      if (i % 10 === 4) {
        const doc = /** @type {Page} */ (model.docs[(i * 29 + 5) % model.docs.length]);
        extra = `<p>See also ${a(`/legacy/${doc.path.split('/').pop()}`, doc.title)} and the ${a(`/mirror${doc.path}`, 'mirrored copy of that guide')}.</p>`;
      }
    }
    const paragraphs =
      page.kind === 'static'
        ? /** @type {string[]} */ (STATIC_TEXT[/** @type {keyof typeof STATIC_TEXT} */ (page.path)])
        : prose(r, kind, page.subject, { ...(page.lead ? { lead: page.lead } : {}), product: page.title });
    const updated =
      variant === 'mirror' ? isoDay(Date.UTC(2025, 6, 1) / DAY_MS + (hashString(page.path) % 60)) : page.date;
    const dateLine =
      page.kind === 'post'
        ? `<p class="meta">Posted <time datetime="${page.date}">${longDate(page.date)}</time> by the ${SITE_NAME} team</p>`
        : `<p class="meta">Last updated <time datetime="${updated}">${longDate(updated)}</time></p>`;
    const rel = page.kind === 'topic' ? pool : relatedFrom(pool, page, page.path);
    return layout({
      path: page.path,
      title: page.title,
      head: page.kind === 'post' ? feedLinks : '',
      main: `<main><article>${variant === 'mirror' ? `<p class="mirror-banner">Mirrored copy.</p>` : ''}
${crumbs ? `<nav class="breadcrumbs" aria-label="Breadcrumb">${crumbs}</nav>` : ''}
<h1>${escapeHtml(page.title)}</h1>
${dateLine}
${articleBody(paragraphs, headings, r)}
${extra}
</article>
${related(rel)}</main>`,
    });
  };

  const hubPage = () => {
    const hub = model.hub;
    const items = (hub.members ?? []).map((p) => `<li>${a(p.path, p.title)}</li>`).join('\n');
    return layout({
      path: hub.path,
      title: hub.title,
      main: `<main><h1>${escapeHtml(hub.title)}</h1>
<p>Guides for finance teams who reconcile payouts, bank statements and the general ledger with ${SITE_NAME} reports.</p>
<p>Reconciliation is the routine of proving that two records of the same money agree. These guides walk through matching, exceptions, month-end close and audit evidence.</p>
<ul class="listing">
${items}
</ul></main>`,
    });
  };

  /** @param {number} year @param {number} month 1-12 */
  const calendarPage = (year, month) => {
    const r = rngFor(seed, `calendar:${year}-${month}`);
    const label = `${MONTHS[month - 1]} ${year}`;
    const path = `/calendar/${year}/${String(month).padStart(2, '0')}`;
    const prev = month === 1 ? [year - 1, 12] : [year, month - 1];
    const next = month === 12 ? [year + 1, 1] : [year, month + 1];
    const href = (/** @type {number[]} */ [y, m]) => `/calendar/${y}/${String(m).padStart(2, '0')}`;
    const events = Array.from({ length: between(r, 2, 4) }, () => {
      const chapter = pick(r, CHAPTERS);
      const day = between(r, 1, 28);
      return `<li><time datetime="${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}">${label.split(' ')[0]} ${day}</time>: ${pick(r, ['Office hours', 'Live workshop', 'Webinar', 'Community call'])} on ${a(`/docs/${chapter.slug}/`, chapter.label.toLowerCase())}</li>`;
    }).join('\n');
    return layout({
      path,
      title: `Events in ${label}`,
      main: `<main><h1>Events in ${escapeHtml(label)}</h1><ul class="events">\n${events}\n</ul>
<nav class="calendar-nav" aria-label="Months">${prev[0] >= 1 ? a(href(prev), '← Previous month', ' rel="prev"') : ''} ${a(href(next), 'Next month →', ' rel="next"')}</nav></main>`,
    });
  };

  const privatePage = () =>
    layout({
      path: `${DISALLOWED_PREFIX}staff-directory`,
      title: 'Staff directory',
      main: `<main><h1>Staff directory</h1><p>Internal only. This page lists desk numbers and extension numbers for every team; crawlers are asked not to fetch it.</p><ul><li>Platform team: extension 2101</li><li>Billing team: extension 2140</li><li>Support team: extension 2188</li></ul></main>`,
    });

  const notFoundPage = () =>
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Page not found | ${SITE_NAME}</title></head><body><h1>Page not found</h1><p>The page you asked for does not exist. ${a('/', 'Go to the home page')}.</p></body></html>\n`;

  return { homePage, indexPage, docPage, contentPage, hubPage, calendarPage, privatePage, notFoundPage, feedLinks };
}

// ---------------------------------------------------------------------------------------------
// Sitemaps and feeds

/** @param {string} text */
function escapeXml(text) {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/** @param {{ loc: string; lastmod: string }[]} entries */
function urlset(entries) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries.map((e) => `<url><loc>${escapeXml(e.loc)}</loc><lastmod>${e.lastmod}</lastmod></url>`).join('\n')}
</urlset>
`;
}

/** @param {{ loc: string; lastmod: string }[]} entries */
function sitemapIndex(entries) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries.map((e) => `<sitemap><loc>${escapeXml(e.loc)}</loc><lastmod>${e.lastmod}</lastmod></sitemap>`).join('\n')}
</sitemapindex>
`;
}

/**
 * The sitemap documents of the site: `/sitemap-index.xml`, its gzipped children (the second
 * a nested index of two), and the small `/sitemap.xml`. A few URLs are listed with a tracking
 * parameter or a fragment instead of plain, a few again at the end with one.
 * @param {ReturnType<typeof buildModel>} model @param {string} origin @param {number} seed
 */
function buildSitemaps(model, origin, seed) {
  /** @type {{ loc: string; lastmod: string }[]} */
  const entries = [];
  /** @type {{ loc: string; lastmod: string }[]} */
  const again = [];
  for (const page of model.list) {
    const url = origin + page.path;
    const h = page.path === '/' ? 0 : hashString(`sitemap:${seed}:${page.path}`) % 100;
    const lastmod = h % 2 === 0 ? page.date : `${page.date}T${String(h % 24).padStart(2, '0')}:30:00+00:00`;
    const loc =
      h === 3
        ? `${url}?utm_source=sitemap`
        : h === 4
          ? `${url}?utm_source=sitemap&utm_medium=xml`
          : h === 5
            ? `${url}#overview`
            : url;
    entries.push({ loc, lastmod });
    if (h === 6) again.push({ loc: url, lastmod });
    if (h === 7) again.push({ loc: `${url}?utm_campaign=spring`, lastmod });
  }
  entries.push(...again);
  const size = Math.min(2000, Math.max(50, Math.ceil(entries.length / 5)));
  /** @type {Map<string, Buffer>} */
  const files = new Map();
  /** @type {string[]} */
  const fileUrls = [`${origin}/sitemap-index.xml`];
  /** @type {string[]} */
  const rawLocs = [];
  /** @type {{ loc: string; lastmod: string }[]} */
  const children = [];
  for (let k = 0, n = 1; k < entries.length; k += size, n++) {
    const chunk = entries.slice(k, k + size);
    const name = `/sitemaps/part-${n}.xml.gz`;
    const lastmod = chunk.reduce((m, e) => (e.lastmod.slice(0, 10) > m ? e.lastmod.slice(0, 10) : m), '2000-01-01');
    children.push({ loc: origin + name, lastmod });
    fileUrls.push(origin + name);
    if (n === 2) {
      // A nested index: a sitemap index listed as a child of the sitemap index.
      const half = Math.ceil(chunk.length / 2);
      const parts = [chunk.slice(0, half), chunk.slice(half)];
      const grand = parts.map((part, j) => ({ loc: `${origin}/sitemaps/part-${n}-${j + 1}.xml.gz`, lastmod }));
      files.set(name, zlib.gzipSync(sitemapIndex(grand)));
      parts.forEach((part, j) => {
        files.set(`/sitemaps/part-${n}-${j + 1}.xml.gz`, zlib.gzipSync(urlset(part)));
        fileUrls.push(`${origin}/sitemaps/part-${n}-${j + 1}.xml.gz`);
      });
    } else files.set(name, zlib.gzipSync(urlset(chunk)));
    rawLocs.push(...chunk.map((e) => e.loc));
  }
  const index = Buffer.from(sitemapIndex(children));
  // /sitemap.xml: a few of the same URLs again (home, sections, the first docs and posts).
  const small = [
    model.home,
    ...model.list.filter((p) => p.kind.endsWith('index')),
    ...model.docs.slice(0, 15),
    ...model.posts.slice(0, 10),
  ].map((p, i) => ({ loc: i === 3 ? `${origin}${p.path}?utm_source=sitemap` : origin + p.path, lastmod: p.date }));
  const plain = Buffer.from(urlset(small));
  return { index, files, plain, fileUrls, rawLocs, plainLocs: small.map((e) => e.loc) };
}

/** @param {ReturnType<typeof buildModel>} model @param {string} origin */
function buildFeeds(model, origin) {
  const describe = (/** @type {Page} */ p) => p.lead ?? `Notes from the ${SITE_NAME} team on ${p.subject}.`;
  const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${SITE_NAME} blog</title>
<link>${origin}/blog/</link>
<description>Product news and engineering stories from ${SITE_NAME}.</description>
<language>en</language>
<atom:link href="${origin}/blog/feed.xml" rel="self" type="application/rss+xml"/>
${model.posts
  .map(
    (p) => `<item>
<title>${escapeXml(p.title)}</title>
<link>${origin}${p.path}</link>
<guid isPermaLink="true">${origin}${p.path}</guid>
<pubDate>${rfc822(p.date)}</pubDate>
<description>${escapeXml(describe(p))}</description>
</item>`,
  )
  .join('\n')}
</channel>
</rss>
`;
  const recent = model.posts.slice(0, 20);
  const atom = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>${SITE_NAME} blog</title>
<id>${origin}/blog/</id>
<link rel="self" href="${origin}/blog/atom.xml"/>
<link rel="alternate" href="${origin}/blog/"/>
<updated>${recent[0]?.date ?? '2025-06-30'}T09:00:00Z</updated>
${recent
  .map(
    (p) => `<entry>
<title>${escapeXml(p.title)}</title>
<link href="${origin}${p.path}"/>
<id>${origin}${p.path}</id>
<updated>${p.date}T09:00:00Z</updated>
<summary>${escapeXml(describe(p))}</summary>
</entry>`,
  )
  .join('\n')}
</feed>
`;
  return { rss: Buffer.from(rss), atom: Buffer.from(atom) };
}

// ---------------------------------------------------------------------------------------------
// Serving

/**
 * @typedef {object} Reply
 * @property {number} status
 * @property {string} [type]
 * @property {string | Buffer} [body]
 * @property {Record<string, string>} [headers]
 */

/** @returns {import('./generated-site.d.mts').GeneratedSiteStats} */
function emptyStats() {
  return {
    requests: 0,
    byPath: new Map(),
    maxConcurrent: 0,
    currentConcurrent: 0,
    disallowedHits: 0,
    offsiteHits: 0,
    notFound: 0,
  };
}

/**
 * An HTTP server on `host` answering with `route`, counting into `stats`; resolves with its origin.
 * @param {string} host
 * @param {(req: http.IncomingMessage, url: URL) => Reply} route
 * @param {{ stats: () => import('./generated-site.d.mts').GeneratedSiteStats; latencyMs: number; counted: (path: string, reply: Reply) => void }} options
 * @returns {Promise<{ server: http.Server; origin: string }>}
 */
function serve(host, route, { stats, latencyMs, counted }) {
  const server = http.createServer((req, res) => {
    const s = stats();
    s.requests += 1;
    s.currentConcurrent += 1;
    if (s.currentConcurrent > s.maxConcurrent) s.maxConcurrent = s.currentConcurrent;
    const target = req.url ?? '/';
    s.byPath.set(target, (s.byPath.get(target) ?? 0) + 1);
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      // The counters may have been reset meanwhile: never below zero.
      const now = stats();
      now.currentConcurrent = Math.max(0, now.currentConcurrent - 1);
    };
    res.once('finish', finished);
    res.once('close', finished);
    /** @type {Reply} */
    let reply;
    try {
      const url = new URL(target, 'http://site.invalid');
      reply =
        req.method === 'GET' || req.method === 'HEAD'
          ? route(req, url)
          : {
              status: 405,
              type: 'text/plain; charset=utf-8',
              body: 'Method not allowed\n',
              headers: { allow: 'GET, HEAD' },
            };
      counted(url.pathname, reply);
    } catch {
      reply = { status: 400, type: 'text/plain; charset=utf-8', body: 'Bad request\n' };
    }
    const send = () => {
      const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : (reply.body ?? Buffer.alloc(0));
      res.writeHead(reply.status, {
        ...(reply.type ? { 'content-type': reply.type } : {}),
        'content-length': String(body.length),
        ...reply.headers,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    // Never answered within the request's own callback: requests parsed in the same turn of
    // the event loop are in flight together, as they are on a real server.
    if (latencyMs > 0) setTimeout(send, latencyMs);
    else setImmediate(send);
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      const address = /** @type {import('node:net').AddressInfo} */ (server.address());
      const hostPart = host.includes(':') ? `[${host}]` : host;
      resolve({ server, origin: `http://${hostPart}:${address.port}` });
    });
  });
}

/** @param {http.Server} server @returns {Promise<void>} */
function closeServer(server) {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const HTML = 'text/html; charset=utf-8';
const XML = 'application/xml; charset=utf-8';

/**
 * Starts the generated site and its off-site companion on `host` (free ports).
 * @param {import('./generated-site.d.mts').GeneratedSiteOptions} [options]
 * @returns {Promise<import('./generated-site.d.mts').GeneratedSite>}
 */
export async function startGeneratedSite(options = {}) {
  const {
    pages = 10_000,
    docsPages = 2_000,
    blogPosts = 60,
    host = '127.0.0.1',
    crawlDelaySeconds,
    robotsStatus,
    latencyMs = 0,
    seed = 1,
  } = options;
  const model = buildModel({ pages, docsPages, blogPosts, seed });
  let stats = emptyStats();
  let offsiteHits = 0;

  /** @type {{ route: (req: http.IncomingMessage, url: URL) => Reply } | undefined} */
  let site;
  const main = await serve(host, (req, url) => (site ? site.route(req, url) : { status: 503 }), {
    stats: () => stats,
    latencyMs,
    counted: (path, reply) => {
      if (path.startsWith(DISALLOWED_PREFIX)) stats.disallowedHits += 1;
      if (reply.status === 404) stats.notFound += 1;
    },
  });
  let offsiteStats = emptyStats();
  const offsite = await serve(
    host,
    (_req, url) => ({
      status: 200,
      type: HTML,
      body: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${SITE_NAME} community</title></head><body><h1>${SITE_NAME} community</h1><p>You reached ${escapeHtml(url.pathname)} on the community site, a different host from the main site.</p><p><a href="${main.origin}/">Back to ${SITE_NAME}</a></p></body></html>\n`,
    }),
    {
      stats: () => offsiteStats,
      latencyMs: 0,
      counted: () => {
        offsiteHits += 1;
      },
    },
  );
  const origin = main.origin;
  const offsiteOrigin = offsite.origin;
  const render = createRenderer({ model, seed, origin, offsiteOrigin });
  const sitemaps = buildSitemaps(model, origin, seed);
  const feeds = buildFeeds(model, origin);
  const robots = [
    'User-agent: *',
    `Disallow: ${DISALLOWED_PREFIX}`,
    ...(crawlDelaySeconds !== undefined ? [`Crawl-delay: ${crawlDelaySeconds}`] : []),
    '',
    `Sitemap: ${origin}/sitemap-index.xml`,
    '',
  ].join('\n');

  const sectionIntro = {
    '/docs/': 'Every chapter of the documentation, from the first deploy to billing.',
    '/blog/': 'Product news and engineering stories, newest first.',
    '/products/': 'Edge appliances and add-ons, sold with the platform.',
    '/articles/': 'Longer pieces on running software in production.',
    '/support/': 'Answers to common account, billing and project questions.',
  };
  /** @param {string} html @returns {Reply} */
  const page = (html) => ({ status: 200, type: HTML, body: html });
  /** @param {string} location @returns {Reply} */
  const redirect = (location, status = 301) => ({
    status,
    type: HTML,
    body: `<!doctype html><title>Moved</title><p>Moved to <a href="${escapeHtml(location)}">${escapeHtml(location)}</a>.</p>\n`,
    headers: { location },
  });
  /** @type {Reply} */
  const notFound = { status: 404, type: HTML, body: render.notFoundPage() };

  /** @param {Page} p @param {URL} url @returns {Reply} */
  const pageReply = (p, url) => {
    switch (p.kind) {
      case 'home':
        return page(render.homePage());
      case 'docs-index':
      case 'chapter':
      case 'blog-index':
      case 'section-index': {
        const n = url.searchParams.has('page') ? Number(url.searchParams.get('page')) : 1;
        const intro =
          p.kind === 'chapter'
            ? `The ${p.title.toLowerCase()} chapter of the ${SITE_NAME} documentation.`
            : /** @type {string} */ (sectionIntro[/** @type {keyof typeof sectionIntro} */ (p.path)]);
        const html = Number.isInteger(n)
          ? render.indexPage(p, n, intro, p.kind === 'blog-index' ? render.feedLinks : '')
          : undefined;
        return html === undefined ? notFound : page(html);
      }
      case 'doc':
        return page(render.docPage(p, url.searchParams.get('view') === 'print' ? 'print' : 'normal'));
      case 'hub':
        return page(render.hubPage());
      default:
        return page(render.contentPage(p));
    }
  };

  site = {
    route(_req, url) {
      const path = url.pathname;
      if (path === '/robots.txt')
        return robotsStatus !== undefined
          ? { status: robotsStatus, type: 'text/plain; charset=utf-8', body: 'robots.txt is unavailable\n' }
          : { status: 200, type: 'text/plain; charset=utf-8', body: robots };
      if (path === '/sitemap-index.xml') return { status: 200, type: XML, body: sitemaps.index };
      if (path === '/sitemap.xml') return { status: 200, type: XML, body: sitemaps.plain };
      const gz = sitemaps.files.get(path);
      if (gz) return { status: 200, type: 'application/gzip', body: gz };
      if (path === '/blog/feed.xml')
        return { status: 200, type: 'application/rss+xml; charset=utf-8', body: feeds.rss };
      if (path === '/blog/atom.xml')
        return { status: 200, type: 'application/atom+xml; charset=utf-8', body: feeds.atom };
      if (path.startsWith(DISALLOWED_PREFIX))
        return path === `${DISALLOWED_PREFIX}staff-directory` ? page(render.privatePage()) : notFound;
      const found = model.byPath.get(path);
      if (found) return pageReply(found, url);
      let m = /^\/docs\/([a-z0-9-]+)\/([a-z0-9-]+)\/print$/.exec(path);
      if (m) {
        const doc = model.byPath.get(`/docs/${m[1]}/${m[2]}`);
        return doc?.kind === 'doc' ? page(render.docPage(doc, 'print')) : notFound;
      }
      if (path.startsWith('/mirror/')) {
        const original = model.byPath.get(path.slice('/mirror'.length));
        if (original?.kind === 'doc') return page(render.docPage(original, 'mirror'));
        if (original && ['article', 'support', 'post', 'product'].includes(original.kind))
          return page(render.contentPage(original, 'mirror'));
        return notFound;
      }
      m = /^\/(old|legacy)\/([a-z0-9-]+)$/.exec(path);
      if (m) {
        const doc = model.docsBySlug.get(/** @type {string} */ (m[2]));
        if (!doc) return notFound;
        // /legacy/x -> /old/x -> the page: a chain of two.
        return m[1] === 'legacy' ? redirect(`/old/${m[2]}`) : redirect(`${origin}${doc.path}`);
      }
      m = /^\/calendar\/(\d{1,5})\/(\d{2})$/.exec(path);
      if (m) {
        const year = Number(m[1]);
        const month = Number(m[2]);
        return year >= 1 && month >= 1 && month <= 12 ? page(render.calendarPage(year, month)) : notFound;
      }
      if (path === '/calendar' || path === '/calendar/') return redirect(CALENDAR_START, 302);
      if (path === '/assets/site.css')
        return { status: 200, type: 'text/css; charset=utf-8', body: 'body{font-family:sans-serif;margin:0}\n' };
      // A known page spelt with or without its trailing slash: moved to its spelling.
      const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
      if (model.byPath.has(other)) return redirect(other + url.search);
      return notFound;
    },
  };

  const abs = (/** @type {Page} */ p) => origin + p.path;
  return {
    origin,
    offsiteOrigin,
    sitemapUrls: model.list.map(abs),
    rawSitemapLocs: sitemaps.rawLocs,
    sitemapFiles: sitemaps.fileUrls,
    disallowedPrefix: DISALLOWED_PREFIX,
    docsUrls: model.docs.map(abs),
    blogUrls: model.posts.map(abs),
    queries: QUERY_PAGES.map((q) => {
      const target = model.list.find((p) => p.title === q.title);
      if (!target) throw new Error(`internal: no page for "${q.title}"`);
      return { query: q.query, target: abs(target) };
    }),
    crawlTargets: { query: TOPIC.query, hub: abs(model.hub), targets: model.topicPages.map(abs) },
    stats: () => ({ ...stats, byPath: new Map(stats.byPath), offsiteHits }),
    resetStats: () => {
      const inFlight = stats.currentConcurrent;
      stats = emptyStats();
      stats.currentConcurrent = inFlight;
      stats.maxConcurrent = inFlight;
      offsiteHits = 0;
      offsiteStats = emptyStats();
    },
    close: async () => {
      await Promise.all([closeServer(main.server), closeServer(offsite.server)]);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Larkspur: a made-up job queue library's documentation site.
//
// Page bodies are written in a small markup: "## " starts a heading, "- " a list item,
// "```lang" a code block (to the next "```"), "| a | b |" a table row (the first row a header),
// any other line a paragraph; `code` and [text](/href) inline.

const V2_NAV = [
  {
    group: 'Getting started',
    pages: [
      'getting-started/installation',
      'getting-started/quickstart',
      'getting-started/concepts',
      'getting-started/configuration',
    ],
  },
  {
    group: 'Guides',
    pages: [
      'guides/producing-jobs',
      'guides/consuming-jobs',
      'guides/retries-and-backoff',
      'guides/delayed-jobs',
      'guides/repeatable-jobs',
      'guides/priorities',
      'guides/rate-limiting',
      'guides/dead-letter-queues',
      'guides/concurrency',
      'guides/graceful-shutdown',
      'guides/observability',
      'guides/testing',
      'guides/deploying',
      'guides/migrating-from-v1',
    ],
  },
  {
    group: 'API reference',
    pages: [
      'api/queue',
      'api/worker',
      'api/job',
      'api/scheduler',
      'api/queue-events',
      'api/connection',
      'api/backoff',
      'api/errors',
    ],
  },
  { group: 'Project', pages: ['changelog', 'faq'] },
];
const V1_NAV = [
  {
    group: 'Getting started',
    pages: ['getting-started/installation', 'getting-started/quickstart', 'getting-started/concepts'],
  },
  {
    group: 'Guides',
    pages: ['guides/retries-and-backoff', 'guides/delayed-jobs', 'guides/priorities', 'guides/concurrency'],
  },
  { group: 'API reference', pages: ['api/queue', 'api/worker', 'api/job'] },
  { group: 'Project', pages: ['changelog'] },
];
/** v1 pages whose text is the v2 page's: served with a canonical link to v2. */
const V1_SAME_AS_V2 = new Set([
  'getting-started/concepts',
  'guides/retries-and-backoff',
  'guides/delayed-jobs',
  'guides/priorities',
  'api/job',
]);

/** @type {Record<string, { title: string; description: string; body: string }>} */
const LARKSPUR_V2 = {
  '': {
    title: 'Larkspur documentation',
    description: 'Larkspur is a job queue for Node.js backed by Redis.',
    body: `Larkspur is a job queue for Node.js. Producers add jobs to named queues, workers process them, and Redis keeps the state in between, so jobs survive restarts and can be processed by many machines at once.
## Why Larkspur
- Jobs are stored atomically: a job is never lost between being taken and being finished.
- Retries with fixed or exponential backoff, delayed jobs, repeatable jobs and priorities are built in.
- Workers process jobs concurrently, with a rate limiter shared by every worker of a queue.
- Every state change emits an event you can subscribe to from any process.
## Where to go next
Start with [Installation](/v2/getting-started/installation) and the [Quickstart](/v2/getting-started/quickstart), then read [Concepts](/v2/getting-started/concepts) to understand how jobs move between states. The [API reference](/v2/api/queue) documents every class and option.
Larkspur 2 requires Node.js 18 or later and Redis 6.2 or later. If you are upgrading from version 1, read [Migrating from v1](/v2/guides/migrating-from-v1).`,
  },
  'getting-started/installation': {
    title: 'Installation',
    description: 'Install Larkspur and connect it to Redis.',
    body: `Larkspur is published on the npm registry. It has one runtime dependency, a Redis client, which is installed with it.
\`\`\`shell
npm install larkspur
\`\`\`
## Requirements
| Component | Minimum version | Notes |
| Node.js | 18.0 | ES modules and CommonJS are both supported. |
| Redis | 6.2 | Any Redis-compatible server that supports Lua scripts and streams. |
| TypeScript | 5.0 | Optional; types ship with the package. |
## Running Redis locally
For development, a single Redis server is enough. With a container runtime installed, start one with:
\`\`\`shell
docker run --rm -p 6379:6379 redis:7
\`\`\`
Larkspur stores every key under a prefix (\`lark\` by default), so it can share a Redis database with other applications. Use a separate database or a different prefix per environment.
## Checking the installation
Run the following script. It adds a job and prints its state; if it prints \`waiting\`, Larkspur can reach Redis.
\`\`\`js
import { Queue } from 'larkspur';

const queue = new Queue('smoke-test', { connection: { url: 'redis://localhost:6379' } });
const job = await queue.add('ping', {});
console.log(await job.getState());
await queue.close();
\`\`\``,
  },
  'getting-started/quickstart': {
    title: 'Quickstart',
    description: 'Add a job to a queue and process it with a worker.',
    body: `This page walks through the smallest useful program: one queue, one producer, one worker. It takes about five minutes.
## Create a queue and add a job
A queue is identified by its name. Any process that creates a \`Queue\` with the same name and connection works on the same jobs.
\`\`\`js
import { Queue } from 'larkspur';

const connection = { url: 'redis://localhost:6379' };
const emails = new Queue('emails', { connection });

await emails.add('welcome', { to: 'ada@example.com' });
\`\`\`
## Process jobs with a worker
A worker takes jobs from the queue and calls your processor function with each one. Whatever the function returns becomes the job's result; if it throws, the job fails and may be retried.
\`\`\`js
import { Worker } from 'larkspur';

const worker = new Worker(
  'emails',
  async (job) => {
    await sendWelcomeEmail(job.data.to);
    return { sent: true };
  },
  { connection, concurrency: 5 },
);

worker.on('failed', (job, err) => console.error(job.id, err.message));
\`\`\`
## What happens next
The job moves from \`waiting\` to \`active\` when the worker takes it, then to \`completed\` or \`failed\`. Read [Concepts](/v2/getting-started/concepts) for the full life cycle, and [Retries and backoff](/v2/guides/retries-and-backoff) to make failures recoverable.`,
  },
  'getting-started/concepts': {
    title: 'Concepts',
    description: 'Queues, jobs, workers and the states a job goes through.',
    body: `Larkspur has three main concepts: queues hold jobs, producers add them, workers process them. Everything else builds on these.
## Jobs and their states
A job is a name, a JSON-serialisable \`data\` object, and options such as the number of attempts. Each job is in exactly one state at a time:
| State | Meaning |
| waiting | Ready to be processed as soon as a worker is free. |
| delayed | Waiting until a timestamp before it becomes ready. |
| active | Taken by a worker, which holds a lock on it. |
| completed | Finished successfully; the return value is stored. |
| failed | Threw on its last allowed attempt; the error is stored. |
## Locks and stalled jobs
A worker that takes a job holds a lock and renews it while the processor runs. If the worker dies, the lock expires and the job is marked as stalled, then moved back to \`waiting\` so another worker can pick it up. This is why processors should be safe to run more than once.
## Ordering
Jobs are processed in the order they were added, unless they have a priority or a delay. With more than one worker, jobs start in order but can finish in any order.`,
  },
  'getting-started/configuration': {
    title: 'Configuration',
    description: 'Connection settings, key prefixes and default job options.',
    body: `Queues and workers take an options object. The same connection options are accepted everywhere.
\`\`\`js
const queue = new Queue('reports', {
  connection: { url: process.env.REDIS_URL, tls: true },
  prefix: 'lark:prod',
  defaultJobOptions: { attempts: 3, removeOnComplete: 1000 },
});
\`\`\`
## Options
| Option | Type | Default | Description |
| connection | ConnectionOptions | — | Where Redis is; see [Connection](/v2/api/connection). |
| prefix | string | \`lark\` | Prefix of every key Larkspur writes. |
| defaultJobOptions | JobOptions | \`{}\` | Options merged into every job added to this queue. |
## Environment variables
Larkspur reads no environment variables on its own. Pass values explicitly so that tests and production do not depend on the shell they are started from.`,
  },
  'guides/producing-jobs': {
    title: 'Producing jobs',
    description: 'Add jobs one at a time or in bulk, with options.',
    body: `Producers call \`queue.add(name, data, options)\`. The name is free text that helps you tell jobs apart in logs and dashboards; the data must survive \`JSON.stringify\`.
\`\`\`js
await queue.add('resize', { imageId: 42, width: 800 }, { attempts: 5, priority: 2 });
\`\`\`
## Adding many jobs
\`addBulk\` adds several jobs in one round trip, atomically: either every job is added or none.
\`\`\`js
await queue.addBulk(images.map((img) => ({ name: 'resize', data: { imageId: img.id } })));
\`\`\`
## Deduplicating jobs
Pass a \`jobId\` to make adding idempotent: a second \`add\` with the same id returns the existing job instead of creating a new one.`,
  },
  'guides/consuming-jobs': {
    title: 'Consuming jobs',
    description: 'Write processors, report progress and return results.',
    body: `A worker calls its processor once per job. The processor receives the job and returns a promise; the resolved value is stored as the job's result.
\`\`\`js
const worker = new Worker('resize', async (job) => {
  const image = await loadImage(job.data.imageId);
  await job.updateProgress(50);
  const resized = await resize(image, job.data.width);
  return { bytes: resized.length };
}, { connection });
\`\`\`
## Progress and logs
\`job.updateProgress(value)\` stores a number or object that listeners see immediately. \`job.log(line)\` appends a line to the job's log, kept with the job.
## Sandboxed processors
Pass a file path instead of a function to run the processor in a child process. A crash in the processor then takes down only the child, and the job is retried.`,
  },
  'guides/retries-and-backoff': {
    title: 'Retries and backoff',
    description: 'Retry failed jobs with fixed or exponential delays.',
    body: `A job that throws is retried until it has been attempted \`attempts\` times. Between attempts, it waits for the delay its backoff strategy gives.
\`\`\`js
await queue.add('sync', data, {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
});
\`\`\`
## Strategies
| Strategy | Delay before attempt n |
| fixed | \`delay\` every time |
| exponential | \`delay × 2^(n-1)\`, with up to 10% jitter |
| custom | whatever your registered function returns |
## Giving up early
Throw an \`UnrecoverableError\` to fail the job immediately, without further attempts, for errors that a retry cannot fix, such as invalid input.`,
  },
  'guides/delayed-jobs': {
    title: 'Delayed jobs',
    description: 'Run a job after a delay or at a given time.',
    body: `Set \`delay\` (milliseconds) to keep a job in the \`delayed\` state before it becomes ready.
\`\`\`js
await queue.add('reminder', { userId }, { delay: 24 * 60 * 60 * 1000 });
\`\`\`
Delays are measured by the Redis server's clock, not the producer's, so producers with skewed clocks still agree.
## Changing a delay
\`job.changeDelay(ms)\` moves a delayed job's due time. A job that is already waiting or active cannot be delayed again; add a new one instead.`,
  },
  'guides/repeatable-jobs': {
    title: 'Repeatable jobs',
    description: 'Schedule jobs on an interval or a cron pattern.',
    body: `Repeatable jobs are managed by a \`Scheduler\`. Each schedule has an id, a pattern or interval, and a template for the jobs it creates.
\`\`\`js
import { Scheduler } from 'larkspur';

const scheduler = new Scheduler(queue);
await scheduler.upsert('nightly-report', {
  pattern: '0 3 * * *',
  timezone: 'Europe/Lisbon',
  template: { name: 'report', data: { kind: 'daily' } },
});
\`\`\`
Calling \`upsert\` again with the same id replaces the schedule; it never creates a duplicate. Only one job per schedule is waiting at any time.`,
  },
  'guides/priorities': {
    title: 'Priorities',
    description: 'Process some jobs before others.',
    body: `Jobs with a \`priority\` are taken before jobs without one; lower numbers come first, from 1 (highest) to 2,097,152.
\`\`\`js
await queue.add('invoice', data, { priority: 1 });
await queue.add('newsletter', data, { priority: 10 });
\`\`\`
Adding a prioritised job costs O(log n) in the number of prioritised jobs waiting, against O(1) for a plain job. Use a few priority levels rather than a unique priority per job.`,
  },
  'guides/rate-limiting': {
    title: 'Rate limiting',
    description: 'Limit how many jobs a queue processes per time window.',
    body: `A limiter caps the number of jobs started per window across every worker of the queue.
\`\`\`js
const worker = new Worker('api-calls', processor, {
  connection,
  limiter: { max: 100, duration: 60_000 },
});
\`\`\`
When the limit is reached, workers wait until the window ends instead of taking more jobs. Throw a \`RateLimitError\` from a processor to pause the queue for a given time, for example when a remote API answers with status 429.`,
  },
  'guides/dead-letter-queues': {
    title: 'Dead-letter queues',
    description: 'Collect jobs that failed every attempt.',
    body: `Larkspur keeps failed jobs in the \`failed\` state. To move them to a separate queue for inspection, listen for the final failure and add a copy.
\`\`\`js
worker.on('failed', async (job, err) => {
  if (job.attemptsMade >= job.opts.attempts) {
    await deadLetters.add(job.name, { original: job.data, error: err.message });
  }
});
\`\`\`
Keep dead-letter queues small with \`removeOnComplete\` and review them regularly; a growing dead-letter queue is an early warning.`,
  },
  'guides/concurrency': {
    title: 'Concurrency',
    description: 'Process several jobs at once in one worker.',
    body: `The \`concurrency\` option sets how many jobs one worker processes at the same time. It suits jobs that wait on I/O.
\`\`\`js
new Worker('emails', processor, { connection, concurrency: 20 });
\`\`\`
For CPU-bound jobs, run several worker processes with a concurrency of 1 each, or use sandboxed processors. The total concurrency of a queue is the sum over all of its workers.`,
  },
  'guides/graceful-shutdown': {
    title: 'Graceful shutdown',
    description: 'Stop workers without losing jobs.',
    body: `Call \`worker.close()\` when your process receives a termination signal. The worker stops taking new jobs and waits for the active ones to finish.
\`\`\`js
process.on('SIGTERM', async () => {
  await worker.close({ timeoutMs: 30_000 });
  process.exit(0);
});
\`\`\`
Jobs still running when the timeout ends are left locked; when the lock expires they are detected as stalled and retried by another worker.`,
  },
  'guides/observability': {
    title: 'Observability',
    description: 'Metrics, events and logs from your queues.',
    body: `\`queue.getJobCounts()\` returns the number of jobs per state, cheap enough to poll every few seconds for a dashboard.
\`\`\`js
const counts = await queue.getJobCounts('waiting', 'active', 'failed');
\`\`\`
## Metrics
With \`metrics: { maxDataPoints: 1440 }\` set on a worker, Larkspur keeps per-minute counts of completed and failed jobs, read with \`queue.getMetrics('completed')\`.
## Events
[QueueEvents](/v2/api/queue-events) receives every state change of a queue from any process, which makes it the right place for alerts.`,
  },
  'guides/testing': {
    title: 'Testing',
    description: 'Test processors and producers.',
    body: `Processors are plain async functions: test them directly with a fake job object and no Redis at all.
\`\`\`js
const result = await processor({ id: '1', data: { to: 'a@example.com' }, updateProgress: async () => {} });
assert.deepEqual(result, { sent: true });
\`\`\`
For integration tests, give each test run its own \`prefix\` so runs never see each other's jobs, and call \`queue.obliterate({ force: true })\` when the test ends.`,
  },
  'guides/deploying': {
    title: 'Deploying',
    description: 'Run Larkspur workers in production.',
    body: `Run workers as their own processes, separate from the web servers that add jobs, so that slow jobs never delay requests.
- Use a Redis deployment with persistence (append-only file) so jobs survive a Redis restart.
- Set \`maxmemory-policy\` to \`noeviction\`: evicted keys mean lost jobs.
- Handle SIGTERM with a [graceful shutdown](/v2/guides/graceful-shutdown).
- Alert on the number of waiting jobs and on the age of the oldest one.`,
  },
  'guides/migrating-from-v1': {
    title: 'Migrating from v1',
    description: 'Upgrade a Larkspur 1.x application to 2.x.',
    body: `Larkspur 2 changes how queues and workers are created. Jobs created by version 1 are not read by version 2: drain your v1 queues before switching.
| Version 1 | Version 2 |
| \`new Queue(name, redisUrl)\` | \`new Queue(name, { connection: { url } })\` |
| \`queue.push(data)\` | \`queue.add(name, data)\` |
| \`queue.process(n, fn)\` | \`new Worker(name, fn, { concurrency: n })\` |
| \`parallelism\` option | \`concurrency\` option |
| \`queue.every(ms, data)\` | \`new Scheduler(queue).upsert(id, { every: ms, template })\` |
The 1.x documentation stays online at [/v1/](/v1/).`,
  },
  changelog: {
    title: 'Changelog',
    description: 'Changes in each Larkspur 2 release.',
    body: `## 2.4.0
- Scheduler: \`timezone\` option for cron patterns.
- \`queue.getMetrics\` accepts a time range.
## 2.3.1
- Fixed a stalled-job check that could run twice after a Redis failover.
## 2.3.0
- Sandboxed processors can be ES modules.
- \`RateLimitError\` takes the pause duration as an argument.
## 2.2.0
- \`addBulk\` is atomic.
- New \`job.changeDelay(ms)\`.
## 2.0.0
- New \`Worker\` class replaces \`queue.process\`; see [Migrating from v1](/v2/guides/migrating-from-v1).
- Requires Node.js 18 and Redis 6.2.`,
  },
  faq: {
    title: 'Frequently asked questions',
    description: 'Answers to common questions about Larkspur.',
    body: `## Can a job be processed twice?
Yes, if a worker dies after finishing the work but before marking the job completed. Make processors idempotent.
## Does Larkspur work with Redis Cluster?
Yes. Give each queue a prefix in braces, such as \`{lark}\`, so that all of a queue's keys land in one slot.
## How many jobs can a queue hold?
As many as Redis memory allows; each waiting job costs roughly its data size plus 300 bytes.
## Is there a web dashboard?
Not in the library itself. \`getJobCounts\` and \`QueueEvents\` provide what a dashboard needs.`,
  },
};

/** API reference pages, rendered from their members. */
const LARKSPUR_API = {
  'api/queue': {
    title: 'Queue',
    summary: 'A named queue: adds jobs and reads their state.',
    ctor: 'new Queue(name: string, options: QueueOptions)',
    example: "const queue = new Queue('emails', { connection: { url: 'redis://localhost:6379' } });",
    members: [
      ['add(name, data, opts?)', 'Promise<Job>', 'Adds a job; resolves with it once stored.'],
      ['addBulk(jobs)', 'Promise<Job[]>', 'Adds several jobs atomically.'],
      ['getJob(id)', 'Promise<Job | undefined>', 'Reads one job by id.'],
      ['getJobCounts(...states)', 'Promise<Record<string, number>>', 'Counts jobs per state.'],
      ['pause()', 'Promise<void>', 'Stops every worker of the queue from taking new jobs.'],
      ['resume()', 'Promise<void>', 'Undoes pause().'],
      ['drain(delayed?)', 'Promise<void>', 'Removes waiting (and optionally delayed) jobs.'],
      ['obliterate({ force })', 'Promise<void>', 'Deletes the queue and all its jobs.'],
      ['close()', 'Promise<void>', 'Closes the connection.'],
    ],
  },
  'api/worker': {
    title: 'Worker',
    summary: 'Takes jobs from a queue and runs a processor on each.',
    ctor: 'new Worker(name: string, processor: Processor | string, options: WorkerOptions)',
    example: "const worker = new Worker('emails', async (job) => send(job.data), { connection, concurrency: 5 });",
    members: [
      ['run()', 'Promise<void>', 'Starts taking jobs (automatic unless autorun is false).'],
      ['pause(doNotWaitActive?)', 'Promise<void>', 'Stops taking jobs in this worker only.'],
      ['resume()', 'void', 'Undoes pause().'],
      ['close({ timeoutMs })', 'Promise<void>', 'Waits for active jobs, then closes.'],
      ["on('completed', fn)", 'this', 'Called with the job and its result.'],
      ["on('failed', fn)", 'this', 'Called with the job and the error.'],
      ["on('stalled', fn)", 'this', 'Called with the id of a job whose lock expired.'],
    ],
  },
  'api/job': {
    title: 'Job',
    summary: 'One unit of work, with its data, options and state.',
    ctor: 'Returned by queue.add() and passed to processors; not constructed directly.',
    example: "await job.updateProgress({ step: 'upload', percent: 40 });",
    members: [
      ['id', 'string', 'Unique within the queue.'],
      ['data', 'unknown', 'The data given to add().'],
      ['attemptsMade', 'number', 'Attempts started so far.'],
      ['updateProgress(value)', 'Promise<void>', 'Stores progress, visible to listeners.'],
      ['log(line)', 'Promise<number>', "Appends a line to the job's log."],
      ['getState()', 'Promise<JobState>', 'Reads the current state.'],
      ['retry()', 'Promise<void>', 'Moves a failed job back to waiting.'],
      ['remove()', 'Promise<void>', 'Deletes the job.'],
      ['changeDelay(ms)', 'Promise<void>', "Moves a delayed job's due time."],
    ],
  },
  'api/scheduler': {
    title: 'Scheduler',
    summary: 'Creates jobs on intervals or cron patterns.',
    ctor: 'new Scheduler(queue: Queue)',
    example: "await scheduler.upsert('cleanup', { every: 60_000, template: { name: 'cleanup' } });",
    members: [
      ['upsert(id, schedule)', 'Promise<void>', 'Creates or replaces a schedule.'],
      ['remove(id)', 'Promise<boolean>', 'Deletes a schedule; true if it existed.'],
      ['list()', 'Promise<Schedule[]>', 'Every schedule with its next run time.'],
    ],
  },
  'api/queue-events': {
    title: 'QueueEvents',
    summary: 'Receives state changes of a queue from every process.',
    ctor: 'new QueueEvents(name: string, options: { connection: ConnectionOptions })',
    example: "events.on('failed', ({ jobId, failedReason }) => alert(jobId, failedReason));",
    members: [
      ["on('waiting' | 'active' | 'completed' | 'failed', fn)", 'this', 'Called with the job id and details.'],
      ["on('progress', fn)", 'this', 'Called with the job id and its progress.'],
      ['waitUntilReady()', 'Promise<void>', 'Resolves once subscribed.'],
      ['close()', 'Promise<void>', 'Stops listening.'],
    ],
  },
  'api/connection': {
    title: 'Connection',
    summary: 'Options that tell Larkspur where Redis is.',
    ctor: 'ConnectionOptions (an object)',
    example: "{ url: 'rediss://cache.internal:6380', tls: { rejectUnauthorized: true } }",
    members: [
      ['url', 'string', 'A redis:// or rediss:// URL.'],
      ['tls', 'boolean | TlsOptions', 'TLS settings; implied by rediss://.'],
      ['username / password', 'string', 'Credentials, when not in the URL.'],
      ['maxRetriesPerRequest', 'number | null', 'Must stay null for workers.'],
    ],
  },
  'api/backoff': {
    title: 'Backoff',
    summary: 'Delay strategies between attempts.',
    ctor: 'Backoff.register(name: string, fn: (attemptsMade: number, err: Error) => number)',
    example: "Backoff.register('linear', (n) => n * 5_000);",
    members: [
      ["{ type: 'fixed', delay }", 'BackoffOptions', 'The same delay every time.'],
      ["{ type: 'exponential', delay }", 'BackoffOptions', 'Doubles each time, with jitter.'],
      ['{ type: name }', 'BackoffOptions', 'A strategy registered with Backoff.register.'],
    ],
  },
  'api/errors': {
    title: 'Errors',
    summary: 'Errors a processor can throw to change how a failure is handled.',
    ctor: 'import { UnrecoverableError, RateLimitError, DelayedError } from "larkspur"',
    example: "throw new UnrecoverableError('invalid address');",
    members: [
      ['UnrecoverableError', 'Error', 'Fails the job with no further attempts.'],
      ['RateLimitError(ms)', 'Error', 'Pauses the queue for ms, then retries the job.'],
      ['DelayedError', 'Error', 'Leaves the job delayed (after job.changeDelay).'],
      ['LockLostError', 'Error', "Thrown in a processor whose job's lock expired."],
    ],
  },
};

/** The v1 pages that differ from v2. @type {Record<string, { title: string; description: string; body: string }>} */
const LARKSPUR_V1 = {
  '': {
    title: 'Larkspur 1.x documentation',
    description: 'Documentation for Larkspur 1.x, the previous major version.',
    body: `You are reading the documentation of Larkspur 1.x. Version 1 receives security fixes only; new projects should use [version 2](/v2/).
Larkspur 1 offers queues with a built-in processing loop, retries, delays and priorities, on Redis 5 or later.`,
  },
  'getting-started/installation': {
    title: 'Installation',
    description: 'Install Larkspur 1.x.',
    body: `Install the latest 1.x release:
\`\`\`shell
npm install larkspur@1
\`\`\`
Larkspur 1 requires Node.js 14 and Redis 5. It is published as CommonJS only.`,
  },
  'getting-started/quickstart': {
    title: 'Quickstart',
    description: 'Push and process a job with Larkspur 1.x.',
    body: `In version 1, a queue both stores and processes jobs.
\`\`\`js
const { Queue } = require('larkspur');

const emails = new Queue('emails', 'redis://localhost:6379');
emails.push({ to: 'ada@example.com' });

emails.process(5, async (job) => {
  await sendWelcomeEmail(job.data.to);
});
\`\`\``,
  },
  'guides/concurrency': {
    title: 'Concurrency',
    description: 'Process several jobs at once with Larkspur 1.x.',
    body: `Pass the number of parallel jobs as the first argument of \`queue.process\`, or set the \`parallelism\` option.
\`\`\`js
queue.process(10, handler);
\`\`\`
Version 1 runs every handler in the main process; there are no sandboxed processors.`,
  },
  'api/queue': {
    title: 'Queue',
    description: 'The Queue class of Larkspur 1.x.',
    body: `\`new Queue(name, redisUrl, options?)\` creates a queue that can also process its jobs.
| Method | Description |
| \`push(data, opts?)\` | Adds a job. |
| \`process(parallelism, handler)\` | Starts processing jobs. |
| \`every(ms, data)\` | Adds a repeating job. |
| \`count()\` | Number of waiting jobs. |
| \`close()\` | Stops processing and closes the connection. |`,
  },
  'api/worker': {
    title: 'Worker',
    description: 'Larkspur 1.x has no Worker class.',
    body: `Version 1 has no separate worker: call \`queue.process\` in the processes that should run jobs. The \`Worker\` class was introduced in 2.0; see [Migrating from v1](/v2/guides/migrating-from-v1).`,
  },
  changelog: {
    title: 'Changelog',
    description: 'Changes in each Larkspur 1 release.',
    body: `## 1.9.3
- Security fix: job data is no longer logged at debug level.
## 1.9.0
- \`queue.every\` accepts a start time.
## 1.8.0
- Priorities from 1 to 100.
## 1.0.0
- First stable release.`,
  },
};

/** A table row's cells: split at " | " outside `code`. @param {string} row */
function tableCells(row) {
  const cells = [];
  let cell = '';
  let inCode = false;
  for (let i = 0; i < row.length; i++) {
    const c = row[i];
    if (c === '`') inCode = !inCode;
    if (!inCode && row.startsWith(' | ', i)) {
      cells.push(cell);
      cell = '';
      i += 2;
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** HTML of the mini markup. @param {string} text */
function renderMarkup(text) {
  const inline = (/** @type {string} */ s) =>
    escapeHtml(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\[([^\]]+)\]\((\/[^)\s]*)\)/g, '<a href="$2">$1</a>');
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = /** @type {string} */ (lines[i]);
    if (line.startsWith('```')) {
      const lang = line.slice(3) || 'text';
      const code = [];
      for (i++; i < lines.length && !(/** @type {string} */ (lines[i]).startsWith('```')); i++) code.push(lines[i]);
      out.push(`<pre><code class="language-${lang}">${escapeHtml(code.join('\n'))}</code></pre>`);
    } else if (line.startsWith('## ')) {
      const h = line.slice(3);
      out.push(`<h2 id="${slugify(h)}">${inline(h)}</h2>`);
    } else if (line.startsWith('- ')) {
      const items = [];
      for (; i < lines.length && /** @type {string} */ (lines[i]).startsWith('- '); i++)
        items.push(`<li>${inline(/** @type {string} */ (lines[i]).slice(2))}</li>`);
      i--;
      out.push(`<ul>${items.join('')}</ul>`);
    } else if (line.startsWith('| ')) {
      const rows = [];
      for (; i < lines.length && /** @type {string} */ (lines[i]).startsWith('| '); i++)
        rows.push(tableCells(/** @type {string} */ (lines[i]).slice(2, -2)));
      i--;
      const [head, ...body] = rows;
      out.push(
        `<table><thead><tr>${(head ?? []).map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${body
          .map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
    } else if (line.trim() !== '') out.push(`<p>${inline(line)}</p>`);
  }
  return out.join('\n');
}

/** The markup of an API reference page. @param {(typeof LARKSPUR_API)[keyof typeof LARKSPUR_API]} api */
function apiMarkup(api) {
  return [
    api.summary,
    '```ts',
    api.ctor,
    '```',
    '## Example',
    '```js',
    api.example,
    '```',
    '## Members',
    '| Member | Type | Description |',
    ...api.members.map(([name, type, text]) => `| \`${name}\` | \`${type}\` | ${text} |`),
  ].join('\n');
}

/**
 * Starts the Larkspur documentation site on `host` (a free port).
 * @param {{ host?: string; latencyMs?: number }} [options]
 * @returns {Promise<import('./generated-site.d.mts').DocsSite>}
 */
export async function startDocsSite(options = {}) {
  const { host = '127.0.0.1', latencyMs = 0 } = options;
  const disallowedPrefix = '/search';
  let stats = emptyStats();
  /** @type {((url: URL) => Reply) | undefined} */
  let route;
  const served = await serve(host, (_req, url) => (route ? route(url) : { status: 503 }), {
    stats: () => stats,
    latencyMs,
    counted: (path, reply) => {
      if (path.startsWith(disallowedPrefix)) stats.disallowedHits += 1;
      if (reply.status === 404) stats.notFound += 1;
    },
  });
  const origin = served.origin;

  /** @typedef {{ version: 'v1' | 'v2'; key: string; path: string; title: string; description: string; html: string; canonical: string; text: string }} DocPage */
  /** @type {Map<string, DocPage>} */
  const pages = new Map();
  const pathOf = (/** @type {string} */ version, /** @type {string} */ key) => `/${version}/${key}`;
  for (const version of /** @type {const} */ (['v2', 'v1'])) {
    const nav = version === 'v2' ? V2_NAV : V1_NAV;
    const keys = ['', ...nav.flatMap((g) => g.pages)];
    for (const key of keys) {
      const same = version === 'v1' && V1_SAME_AS_V2.has(key);
      const api = /** @type {Record<string, (typeof LARKSPUR_API)[keyof typeof LARKSPUR_API]>} */ (LARKSPUR_API)[key];
      const written = version === 'v1' && !same ? LARKSPUR_V1[key] : LARKSPUR_V2[key];
      const doc = written ?? (api ? { title: api.title, description: api.summary, body: apiMarkup(api) } : undefined);
      if (!doc) throw new Error(`internal: no Larkspur page ${version}/${key}`);
      const path = pathOf(version, key);
      pages.set(path, {
        version,
        key,
        path,
        title: doc.title,
        description: doc.description,
        // A v1 copy of a v2 page links to the v1 pages that exist, to v2 for the others.
        html: renderMarkup(
          same
            ? doc.body.replace(/\]\(\/v2\/([^)]*)\)/g, (link, rest) =>
                V1_NAV.some((g) => g.pages.includes(rest)) ? `](/v1/${rest})` : link,
              )
            : doc.body,
        ),
        canonical: origin + (same ? pathOf('v2', key) : path),
        text: doc.body,
      });
    }
  }

  /** @param {DocPage | undefined} page @param {string} title @param {string} main @param {'v1' | 'v2'} version */
  const layout = (page, title, main, version) => {
    const nav = version === 'v2' ? V2_NAV : V1_NAV;
    const sidebar = nav
      .map(
        (g) =>
          `<li><span class="group">${escapeHtml(g.group)}</span><ul>${g.pages
            .map((k) => {
              const p = pages.get(pathOf(version, k));
              const current = p === page ? ' aria-current="page"' : '';
              return `<li><a href="${pathOf(version, k)}"${current}>${escapeHtml(p?.title ?? k)}</a></li>`;
            })
            .join('')}</ul></li>`,
      )
      .join('');
    const flat = ['', ...nav.flatMap((g) => g.pages)];
    const at = page ? flat.indexOf(page.key) : -1;
    const prev = at > 0 ? pages.get(pathOf(version, /** @type {string} */ (flat[at - 1]))) : undefined;
    const next =
      at >= 0 && at < flat.length - 1 ? pages.get(pathOf(version, /** @type {string} */ (flat[at + 1]))) : undefined;
    const toc = page
      ? [...page.html.matchAll(/<h2 id="([^"]+)">(.*?)<\/h2>/g)]
          .map((m) => `<li><a href="#${m[1]}">${m[2]}</a></li>`)
          .join('')
      : '';
    const other = page && pages.has(pathOf(version === 'v2' ? 'v1' : 'v2', page.key)) ? page.key : '';
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} | Larkspur ${version}</title>
${page ? `<meta name="description" content="${escapeHtml(page.description)}">\n<link rel="canonical" href="${page.canonical}">\n` : ''}<link rel="stylesheet" href="/assets/docs.css">
</head>
<body>
<header class="topbar"><a class="brand" href="/v2/">Larkspur</a>
<nav class="top-nav" aria-label="Top"><a href="/${version}/getting-started/quickstart">Docs</a> <a href="/${version}/api/queue">API</a> <a href="/${version}/changelog">Changelog</a> <a href="/search">Search</a></nav>
<nav class="versions" aria-label="Version"><a href="/v2/${version === 'v1' ? other : (page?.key ?? '')}"${version === 'v2' ? ' aria-current="true"' : ''}>v2 (latest)</a> <a href="/v1/${version === 'v2' ? other : (page?.key ?? '')}"${version === 'v1' ? ' aria-current="true"' : ''}>v1</a></nav>
</header>
${version === 'v1' ? '<p class="banner">This is the documentation of an old version. <a href="/v2/">Go to the latest version</a>.</p>\n' : ''}<div class="layout">
<nav class="sidebar" aria-label="Documentation"><ul><li><a href="/${version}/">Overview</a></li>${sidebar}</ul></nav>
<main>
<article>
<h1>${escapeHtml(title)}</h1>
${main}
</article>
${toc ? `<nav class="toc" aria-label="On this page"><h2>On this page</h2><ul>${toc}</ul></nav>\n` : ''}<nav class="pager" aria-label="Pages">${prev ? `<a rel="prev" href="${prev.path}">← ${escapeHtml(prev.title)}</a>` : ''} ${next ? `<a rel="next" href="${next.path}">${escapeHtml(next.title)} →</a>` : ''}</nav>
</main>
</div>
<footer class="footer"><p>Larkspur is a made-up library; this documentation is generated for tests. Released under the MIT license.</p></footer>
</body>
</html>
`;
  };

  const sitemapPages = [...pages.values()].filter((p) => p.canonical === origin + p.path);
  const sitemapUrls = sitemapPages.map((p) => origin + p.path);
  const sitemap = Buffer.from(urlset(sitemapUrls.map((loc) => ({ loc, lastmod: '2025-05-14' }))));
  const robots = `User-agent: *\nDisallow: ${disallowedPrefix}\n\nSitemap: ${origin}/sitemap.xml\n`;
  /** @type {Reply} */
  const notFound = {
    status: 404,
    type: HTML,
    body: layout(
      undefined,
      'Page not found',
      '<p>This page does not exist. <a href="/v2/">Back to the documentation</a>.</p>',
      'v2',
    ),
  };

  route = (url) => {
    const path = url.pathname;
    if (path === '/robots.txt') return { status: 200, type: 'text/plain; charset=utf-8', body: robots };
    if (path === '/sitemap.xml') return { status: 200, type: XML, body: sitemap };
    if (path === '/' || path === '/v2' || path === '/v1')
      return { status: 301, type: HTML, body: '', headers: { location: path === '/v1' ? '/v1/' : '/v2/' } };
    if (path === '/assets/docs.css')
      return { status: 200, type: 'text/css; charset=utf-8', body: 'body{font-family:sans-serif}\n' };
    if (path === '/search') {
      const q = (url.searchParams.get('q') ?? '').trim().toLowerCase();
      const hits = q
        ? [...pages.values()].filter((p) => p.version === 'v2' && (p.title + ' ' + p.text).toLowerCase().includes(q))
        : [];
      const results = q
        ? `<p>${hits.length} result${hits.length === 1 ? '' : 's'} for “${escapeHtml(q)}”.</p><ul>${hits.map((p) => `<li><a href="${p.path}">${escapeHtml(p.title)}</a> — ${escapeHtml(p.description)}</li>`).join('')}</ul>`
        : '';
      return {
        status: 200,
        type: HTML,
        body: layout(
          undefined,
          'Search',
          `<form action="/search" method="get" role="search"><input type="search" name="q" value="${escapeHtml(q)}" aria-label="Search the documentation"> <button>Search</button></form>\n${results}`,
          'v2',
        ),
      };
    }
    const page = pages.get(path);
    if (page) return { status: 200, type: HTML, body: layout(page, page.title, page.html, page.version) };
    return notFound;
  };

  return {
    origin,
    sitemapUrls,
    disallowedPrefix,
    pages: [...pages.values()].map((p) => ({ url: origin + p.path, title: p.title, canonical: p.canonical })),
    stats: () => ({ ...stats, byPath: new Map(stats.byPath) }),
    resetStats: () => {
      const inFlight = stats.currentConcurrent;
      stats = emptyStats();
      stats.currentConcurrent = inFlight;
      stats.maxConcurrent = inFlight;
    },
    close: () => closeServer(served.server),
  };
}
