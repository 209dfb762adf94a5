/**
 * Bytes to text, in the WHATWG order: BOM > Content-Type charset > in-document declaration
 * (HTML `<meta>` prescan, XML declaration) > UTF-8, falling back to windows-1252 when the
 * bytes are not valid UTF-8. Labels resolve through TextDecoder, i.e. the WHATWG Encoding
 * Standard: `iso-8859-1`, `latin1` and `us-ascii` mean windows-1252 (so 0x80 is €; decoded
 * by hand, see windows-1252.ts), and an unknown label is skipped rather than trusted. Node's
 * official builds carry full ICU, so every legacy encoding of the standard (Shift_JIS, GBK,
 * Big5, EUC-KR, KOI8-R, …) decodes.
 */

import { parseContentType } from './content-type.js';
import { tagAttributes } from './html-meta.js';
import { decodeWindows1252 } from './windows-1252.js';
import type { ContentKind } from './types.js';

export interface DecodedText {
  /** The text, BOM removed. */
  text: string;
  /** WHATWG name of the encoding used, e.g. `utf-8`, `windows-1252`, `shift_jis`. */
  encoding: string;
}

/** The HTML prescan looks at this many bytes (HTML Standard, "prescan a byte stream"). */
const PRESCAN_BYTES = 1024;

export function decodeText(bytes: Uint8Array, contentTypeHeader: string | null, kind: ContentKind): DecodedText {
  const bom = bomEncoding(bytes);
  if (bom !== null) return { text: decodeWith(bom, bytes), encoding: bom };

  const fromHeader = resolveLabel(parseContentType(contentTypeHeader)?.charset);
  if (fromHeader !== null) return { text: decodeWith(fromHeader, bytes), encoding: fromHeader };

  const declared = kind === 'html' || kind === 'xml' ? declaredEncoding(bytes, kind) : null;
  if (declared !== null) return { text: decodeWith(declared, bytes), encoding: declared };

  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    // Not UTF-8 and nothing declared: legacy pages are overwhelmingly windows-1252, which
    // also maps every byte, so nothing is lost to replacement characters.
    return { text: decodeWith('windows-1252', bytes), encoding: 'windows-1252' };
  }
}

function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** TextDecoder strips a BOM of its own encoding (ignoreBOM defaults to false). */
function decodeWith(encoding: string, bytes: Uint8Array): string {
  // Node 20 decodes windows-1252 as Latin-1 (0x80 → U+0080, not €): see windows-1252.ts.
  if (encoding === 'windows-1252') return decodeWindows1252(bytes);
  return new TextDecoder(encoding).decode(bytes);
}

/**
 * The WHATWG encoding name for a label, or null when the label is unknown or unusable.
 * `replacement` (iso-2022-kr, hz-gb-2312 …) would turn the page into one U+FFFD: skip it.
 */
export function resolveLabel(label: string | undefined): string | null {
  if (label === undefined) return null;
  try {
    const encoding = new TextDecoder(label.trim()).encoding;
    return encoding === 'replacement' ? null : encoding;
  } catch {
    return null;
  }
}

/** In-document declaration from the first 1024 bytes, read as ASCII-compatible bytes. */
function declaredEncoding(bytes: Uint8Array, kind: 'html' | 'xml'): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES)).toString('latin1');
  const first = kind === 'html' ? metaCharset(head) : xmlDeclarationEncoding(head);
  const second = kind === 'html' ? xmlDeclarationEncoding(head) : metaCharset(head);
  const encoding = first ?? second;
  if (encoding === null) return null;
  // A document that could be read as ASCII to find its own declaration is not UTF-16
  // (HTML Standard prescan rule); x-user-defined likewise means windows-1252 there.
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return 'utf-8';
  if (encoding === 'x-user-defined') return 'windows-1252';
  return encoding;
}

const META_TAG = /<meta(?=[\s/])[^>]*>/gi;

/**
 * A simplified HTML prescan: the first `<meta>` with a usable `charset`, or with
 * `http-equiv="content-type"` and a `content` holding `charset=`. Comments are skipped so
 * a commented-out declaration does not count.
 */
function metaCharset(head: string): string | null {
  const text = head.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  for (const [tag] of text.matchAll(META_TAG)) {
    const attributes = tagAttributes(tag);
    const charset = attributes.get('charset');
    if (charset !== undefined) {
      const encoding = resolveLabel(charset);
      if (encoding !== null) return encoding;
      continue;
    }
    if (attributes.get('http-equiv')?.trim().toLowerCase() === 'content-type') {
      const encoding = resolveLabel(charsetFromContent(attributes.get('content') ?? ''));
      if (encoding !== null) return encoding;
    }
  }
  return null;
}

/** HTML Standard, "extracting a character encoding from a meta element". */
function charsetFromContent(content: string): string | undefined {
  const match = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(content);
  if (match === null) return undefined;
  return match[1] ?? match[2] ?? match[3];
}

function xmlDeclarationEncoding(head: string): string | null {
  const match = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(head);
  if (match === null) return null;
  return resolveLabel(match[1] ?? match[2]);
}
