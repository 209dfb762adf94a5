/**
 * The playground's files (src/faces/http/playground/, copied beside this module into dist
 * by scripts/copy-assets.mjs): read once on first use, kept with their gzip form and an
 * ETag, served with a strict Content-Security-Policy. The page is plain HTML, CSS and
 * browser JavaScript: no framework, no build step, nothing loaded from another origin.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

/**
 * Scripts and styles only as files of this server (no inline code, no eval), requests only
 * to it, no frames, no plugins, no <base>; images only its own (a previewed page's images
 * are shown as links, so a page never makes the browser call another host).
 */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Every file of the playground and its type; nothing else under /playground/ is served. */
export const PLAYGROUND_FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'playground.css': 'text/css; charset=utf-8',
  'playground.js': 'text/javascript; charset=utf-8',
  'markdown-dom.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
}

const DIR = new URL('./playground/', import.meta.url);
let assets: Map<string, Asset> | undefined;

function load(): Map<string, Asset> {
  assets ??= new Map(
    Object.entries(PLAYGROUND_FILES).map(([name, type]) => {
      const body = new Uint8Array(readFileSync(new URL(name, DIR)));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      return [name, { body, gzip: new Uint8Array(gzipSync(body, { level: 9 })), type, etag }];
    }),
  );
  return assets;
}

/** A playground file as a response (gzip when the client takes it, 304 for its ETag), or undefined for an unknown name. */
export function playgroundFile(c: Context, name: string): Response | undefined {
  const asset = load().get(name);
  if (!asset) return undefined;
  const headers: Record<string, string> = {
    'content-type': asset.type,
    etag: asset.etag,
    // Revalidated on every load: a new version of the server shows at once.
    'cache-control': 'no-cache',
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'content-security-policy': PLAYGROUND_CSP,
  };
  if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304, headers);
  const gzip = /\bgzip\b/i.test(c.req.header('accept-encoding') ?? '');
  if (gzip) headers['content-encoding'] = 'gzip';
  return c.body(gzip ? asset.gzip : asset.body, 200, headers);
}
