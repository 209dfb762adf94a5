/**
 * Character references, decoded by hand so that no parser ever expands a document-defined
 * entity (billion laughs, external entities): only the XML predefined five, numeric
 * references and, for HTML fragments, the HTML 4 named set (which covers what feeds and
 * page heads use in practice). Anything else is left as written.
 */

import { windows1252Char } from './windows-1252.js';

const XML_PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** nbsp (160) … yuml (255), in code point order. */
const LATIN1_NAMES =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 ' +
  'acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde ' +
  'Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute ' +
  'Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde ' +
  'auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ' +
  'ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

/** The rest of HTML 4's named references worth knowing (typography, arrows, a few symbols). */
const OTHER_NAMES: Readonly<Record<string, number>> = {
  OElig: 338, oelig: 339, Scaron: 352, scaron: 353, Yuml: 376, fnof: 402, circ: 710, tilde: 732,
  ensp: 8194, emsp: 8195, thinsp: 8201, zwnj: 8204, zwj: 8205, lrm: 8206, rlm: 8207, ndash: 8211,
  mdash: 8212, lsquo: 8216, rsquo: 8217, sbquo: 8218, ldquo: 8220, rdquo: 8221, bdquo: 8222,
  dagger: 8224, Dagger: 8225, bull: 8226, hellip: 8230, permil: 8240, prime: 8242, Prime: 8243,
  lsaquo: 8249, rsaquo: 8250, oline: 8254, frasl: 8260, euro: 8364, trade: 8482, larr: 8592,
  uarr: 8593, rarr: 8594, darr: 8595, harr: 8596, minus: 8722, infin: 8734, ne: 8800, le: 8804,
  ge: 8805, asymp: 8776, alpha: 945, beta: 946, gamma: 947, delta: 948, pi: 960, mu: 956,
  sigma: 963, Omega: 937, omega: 969, hearts: 9829, check: 10003,
};

const HTML_NAMED: ReadonlyMap<string, string> = (() => {
  const table = new Map<string, string>(Object.entries(XML_PREDEFINED));
  LATIN1_NAMES.split(' ').forEach((name, index) => table.set(name, String.fromCodePoint(160 + index)));
  for (const [name, codePoint] of Object.entries(OTHER_NAMES)) table.set(name, String.fromCodePoint(codePoint));
  return table;
})();

const REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{0,31}));/g;

function numeric(codePoint: number, html: boolean): string {
  // Browsers read &#128;–&#159; as the windows-1252 characters of those bytes (&#150; is –).
  if (html && codePoint >= 0x80 && codePoint <= 0x9f) return windows1252Char(codePoint);
  if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(codePoint);
}

function decode(text: string, named: (name: string) => string | undefined, html: boolean): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined) return numeric(Number.parseInt(decimal, 10), html);
    if (hex !== undefined) return numeric(Number.parseInt(hex, 16), html);
    return named(name!) ?? whole;
  });
}

/** XML text: the five predefined entities and numeric references; `&custom;` stays as is. */
export function decodeXmlEntities(text: string): string {
  return decode(text, (name) => XML_PREDEFINED[name], false);
}

/** HTML text: the HTML 4 named set and numeric references. */
export function decodeHtmlEntities(text: string): string {
  return decode(text, (name) => HTML_NAMED.get(name), true);
}

const INLINE_TAG =
  /<\/?(?:a|abbr|b|bdi|bdo|cite|code|data|dfn|em|font|i|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var)(?=[\s/>])[^>]*>/gi;

/**
 * Plain text of an HTML fragment (a feed summary, a title): scripts and styles dropped,
 * block boundaries kept as spaces, references decoded, whitespace collapsed.
 */
export function htmlToPlainText(html: string): string {
  const stripped = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    // Inline tags join their text ("<em>x</em>." stays "x."), any other tag separates words.
    .replace(INLINE_TAG, '')
    .replace(/<\/?[A-Za-z][^>]*>|<![^>]*>/g, ' ');
  return decodeHtmlEntities(stripped).replace(/\s+/g, ' ').trim();
}
