/**
 * Query parameters that only record where a click came from (ad click ids, newsletter and
 * campaign tags): the page they point to is the same without them. Shared by the search
 * results' de-duplication keys (engines/normalize-url.ts) and the links and images of the
 * Markdown (extract/html/urls.ts).
 */

/**
 * Names that track whatever their value (case-insensitive; any `utm_` name too). Only names
 * no site uses for anything else: a link keeps every other parameter.
 */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  // Ad click ids: Google, Microsoft, Meta, Yandex, Twitter, TikTok, LinkedIn, Pinterest, Adobe.
  'gclid',
  'gclsrc',
  'gad_source',
  'gad_campaignid',
  'dclid',
  'gbraid',
  'wbraid',
  'srsltid',
  'msclkid',
  'fbclid',
  'yclid',
  'ysclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'epik',
  's_kwcid',
  'rb_clickid',
  'wickedid',
  // Google Analytics' cross-domain linker, Instagram's share id.
  '_ga',
  '_gl',
  'igshid',
  // Mail campaigns: Mailchimp, HubSpot, Marketo, Omeda, Vero, Drip.
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  '__hstc',
  '__hssc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'vero_conv',
  '__s',
]);

/**
 * Whether a parameter only tracks. `ref_src` does when its value is Twitter's (`twsrc^tfw`,
 * which an embedded tweet puts on every link); elsewhere the name is a site's own.
 */
export function isTrackingParam(name: string, value?: string): boolean {
  const n = name.toLowerCase();
  if (n.startsWith('utm_') || TRACKING_PARAMS.has(n)) return true;
  return n === 'ref_src' && value !== undefined && value.toLowerCase().startsWith('twsrc');
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/**
 * `url` without its tracking parameters (isTrackingParam), the others in their order and
 * spelling, the fragment kept; an http(s) URL only. A URL that does not parse, or has none,
 * comes back as written.
 */
export function dropTrackingParams(url: string): string {
  const hash = url.indexOf('#');
  const head = hash === -1 ? url : url.slice(0, hash);
  const mark = head.indexOf('?');
  if (mark === -1) return url;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return url;
  }
  if (protocol !== 'http:' && protocol !== 'https:') return url;
  const parts = head.slice(mark + 1).split('&');
  const kept = parts.filter((part) => {
    const equals = part.indexOf('=');
    return equals === -1
      ? !isTrackingParam(decoded(part))
      : !isTrackingParam(decoded(part.slice(0, equals)), decoded(part.slice(equals + 1)));
  });
  if (kept.length === parts.length) return url;
  const query = kept.join('&');
  return `${head.slice(0, mark)}${query === '' ? '' : `?${query}`}${hash === -1 ? '' : url.slice(hash)}`;
}
