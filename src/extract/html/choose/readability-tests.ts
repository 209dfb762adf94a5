/**
 * Five of Readability 0.6's private methods made to skip work whose result they do not
 * need, with the original's answer for every node (as a condition: '' and undefined are
 * false): the byline test measures text only after its cheap part, the emptiness test stops
 * at the first visible character, the visibility test builds no style object without a
 * `style` attribute, the links and pictures are not resolved against a base that is no
 * URL, and elements are gathered by tag in one walk instead of a selector list that
 * linkedom parses again at every call. docs/extraction.md, "Readability".
 * package.json pins Readability's exact version: private methods change without notice.
 */

import type { DomDocument, DomElement, DomNode } from '../dom.js';
import { CDATA_SECTION_NODE, TEXT_NODE, descendants, isElement, nextInTree } from '../dom.js';

interface ReadabilityInternals {
  REGEXPS?: { byline?: RegExp };
  _doc?: DomDocument & { baseURI?: unknown };
  _isValidByline?: (node: DomElement, matchString: string) => boolean;
  _isElementWithoutContent?: (node: DomNode) => boolean;
  _isProbablyVisible?: (node: DomElement) => boolean;
  _fixRelativeUris?: (content: DomElement) => void;
  _getAllNodesWithTag?: (node: DomElement | DomDocument, tagNames: string[]) => ArrayLike<DomElement>;
}

/**
 * What the original `_fixRelativeUris` does when its document's base is no URL (linkedom's
 * is null): each `new URL(address, base)` throws and the address stays as written, so only
 * its `javascript:` links change, to their text.
 */
function unlinkScriptLinks(doc: DomDocument, content: DomElement): void {
  for (const link of Array.from(content.querySelectorAll('a'))) {
    const href = link.getAttribute('href');
    if (!href || !href.startsWith('javascript:')) continue;
    const only = link.childNodes.length === 1 ? link.childNodes[0]! : null;
    if (only !== null && only.nodeType === TEXT_NODE) {
      link.replaceWith(doc.createTextNode(link.textContent ?? ''));
    } else {
      const container = doc.createElement('span');
      while (link.firstChild !== null) container.appendChild(link.firstChild);
      link.replaceWith(container);
    }
  }
}

/** Whether any text (or CDATA) node under `root` holds a character that is not white space. */
export function hasVisibleText(root: DomNode): boolean {
  for (let node = nextInTree(root, root, false); node !== null; node = nextInTree(node, root, false)) {
    const type = node.nodeType;
    if ((type === TEXT_NODE || type === CDATA_SECTION_NODE) && /\S/.test(node.textContent ?? '')) return true;
  }
  return false;
}

const TEMPLATE: ReadonlySet<string> = new Set(['template']);

export function lightenReadability(reader: object): void {
  const internals = reader as ReadabilityInternals;
  const byline = internals.REGEXPS?.byline;
  const { _isValidByline, _isElementWithoutContent, _isProbablyVisible } = internals;
  const { _fixRelativeUris, _getAllNodesWithTag } = internals;
  const methods = [_isValidByline, _isElementWithoutContent, _isProbablyVisible, _fixRelativeUris, _getAllNodesWithTag];
  if (methods.some((method) => typeof method !== 'function') || !(byline instanceof RegExp)) return;
  const probablyVisible = _isProbablyVisible!;
  const fixRelativeUris = _fixRelativeUris!;
  // Else every address of the article is thrown at `new URL` and caught, for nothing.
  internals._fixRelativeUris = (content) => {
    const doc = internals._doc;
    if (doc === undefined || URL.canParse(String(doc.baseURI))) return fixRelativeUris.call(reader, content);
    unlinkScriptLinks(doc, content);
  };
  // The same elements in the same (document) order as linkedom's
  // `querySelectorAll(tagNames.join(','))`, which does not look inside a <template>.
  internals._getAllNodesWithTag = (node, tagNames) =>
    descendants(node, new Set(tagNames.map((tag) => tag.toLowerCase())), TEMPLATE);
  internals._isValidByline = (node, matchString) => {
    const rel = node.getAttribute('rel');
    const itemprop = node.getAttribute('itemprop');
    if (!(rel === 'author' || (itemprop !== null && itemprop.includes('author')) || byline.test(matchString)))
      return false;
    const length = (node.textContent ?? '').trim().length;
    return length > 0 && length < 100;
  };
  internals._isElementWithoutContent = (node) => {
    if (!isElement(node) || hasVisibleText(node)) return false;
    const children = node.children.length;
    return (
      children === 0 || children === node.getElementsByTagName('br').length + node.getElementsByTagName('hr').length
    );
  };
  internals._isProbablyVisible = (node) => {
    // Without a style attribute the style's display and visibility are empty: no need to
    // build (and parse) a style declaration for every element.
    if (!isElement(node) || node.getAttribute('style') !== null) return probablyVisible.call(reader, node);
    return (
      !node.hasAttribute('hidden') &&
      (!node.hasAttribute('aria-hidden') ||
        node.getAttribute('aria-hidden') !== 'true' ||
        // (An SVG or MathML element's className is no string: the original's test is then falsy.)
        (typeof node.className === 'string' && node.className.includes('fallback-image')))
    );
  };
}
