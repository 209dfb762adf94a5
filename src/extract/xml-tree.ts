/**
 * The one fast-xml-parser setup of extract/ (feeds and sitemaps as Markdown in xml.ts, feed
 * items for a site map in site/feed-items.ts), and the helpers that read its tree.
 *
 * Entities are never expanded by the parser: the DOCTYPE (whose internal subset is where
 * billion-laughs and external entities live) is cut from the prolog before parsing, the
 * parser runs with `processEntities: false`, and text values are decoded here for the five
 * predefined entities and numeric references only (core/entities.ts). Nothing is ever fetched.
 */

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeEntities } from '../core/entities.js';
import { escapeBareAmpersands, readProlog, stripDoctype } from './xml-prolog.js';

const CDATA_KEY = '__cdata';
const ATTRIBUTE_PREFIX = '@_';

const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  cdataPropName: CDATA_KEY,
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Bodies that hold markup (Atom xhtml, unescaped HTML) stay raw so their text keeps its
  // order; textOf unwraps CDATA and decodes the rest.
  stopNodes: ['*.description', '*.summary', '*.content', '*.content:encoded'],
});

export type XmlNode = string | XmlObject | XmlNode[];
export interface XmlObject {
  [key: string]: XmlNode;
}

/** A parsed document's root element: its name as written (prefix included) and its node. */
export interface XmlRoot {
  name: string;
  node: XmlObject;
}

/**
 * The root element of `text` when its local name is one of `roots` and the document is
 * well-formed (bare `&` repaired, the DOCTYPE cut); null otherwise. Other roots are
 * refused before any parse, so a caller pays nothing for documents it does not read.
 */
export function parseXmlRoot(text: string, roots: ReadonlySet<string>): XmlRoot | null {
  const prolog = readProlog(text);
  const rootTag = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(prolog.root, prolog.root + 256));
  if (rootTag === null || !roots.has(localName(rootTag[1]!))) return null;
  const prepared = escapeBareAmpersands(stripDoctype(text, prolog));
  let document: XmlObject;
  try {
    if (XMLValidator.validate(prepared) !== true) return null;
    document = parser.parse(prepared) as XmlObject;
  } catch {
    // Nesting deep enough to exhaust the stack, or a parser bug: not read.
    return null;
  }
  const name = Object.keys(document).find((key) => !key.startsWith('?') && !key.startsWith('#'));
  if (name === undefined) return null;
  const node = first(document[name]);
  return isObject(node) ? { name, node } : null;
}

export function isObject(node: XmlNode | undefined): node is XmlObject {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

export function asArray(node: XmlNode | undefined): XmlNode[] {
  if (node === undefined) return [];
  return Array.isArray(node) ? node : [node];
}

export function first(node: XmlNode | undefined): XmlNode | undefined {
  return Array.isArray(node) ? node[0] : node;
}

/** `atom:feed` is `feed`. */
export function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** An attribute's value, decoded (XML's own references only) and trimmed; '' when absent. */
export function attribute(node: XmlObject, name: string): string {
  const value = node[ATTRIBUTE_PREFIX + name];
  return typeof value === 'string' ? decodeEntities(value, 'xml').trim() : '';
}

/**
 * All character data of a node: text decoded (predefined and numeric references only),
 * CDATA verbatim, child elements included, attributes skipped.
 */
export function textOf(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return characterData(node);
  if (Array.isArray(node)) return node.map(textOf).join(' ').trim();
  const parts: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith(ATTRIBUTE_PREFIX)) continue;
    if (key === CDATA_KEY) parts.push(...asArray(value).map((part) => (typeof part === 'string' ? part : '')));
    else parts.push(textOf(value));
  }
  return parts.join(' ').trim();
}

/**
 * Raw text as the parser left it: CDATA sections (only found in stop nodes; elsewhere the
 * parser splits them out) are taken verbatim, everything between them is entity-decoded.
 */
function characterData(raw: string): string {
  if (!raw.includes('<![CDATA[')) return decodeEntities(raw, 'xml');
  return raw
    .split(/<!\[CDATA\[([\s\S]*?)\]\]>/)
    .map((part, index) => (index % 2 === 1 ? part : decodeEntities(part, 'xml')))
    .join('');
}
