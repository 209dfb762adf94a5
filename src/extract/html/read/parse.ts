/**
 * Parsing with linkedom, then the tree construction it skips (content in `<head>` or after
 * `</body>`, headless fragments, attribute names' case), so that every pass can count on
 * one `<head>` and one `<body>` holding all content.
 */

import { parseHTML } from 'linkedom';
import type { DomDocument, DomElement, DomNode } from '../dom.js';
import { COMMENT_NODE, FOREIGN_ROOTS, TEXT_NODE, childElements, isElement, tagOf, walk } from '../dom.js';
import { patchLinkedomClassName, patchLinkedomEventTargets } from './linkedom-patch.js';
import { measureHtml } from './input-bounds.js';

patchLinkedomEventTargets();
patchLinkedomClassName();

/** Elements a browser leaves in `<head>`; the first other element (or text) starts the body. */
const HEAD_ELEMENTS: ReadonlySet<string> = new Set([
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'noscript',
  'script',
  'style',
  'template',
  'title',
]);

/** Leading XML declaration, comments and doctype: dropped when the page must be wrapped. */
const PROLOGUE = /^\uFEFF?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!doctype[^>]*>\s*)?/i;

function rawParse(html: string): DomDocument {
  return parseHTML(html).document as unknown as DomDocument;
}

function wrapped(html: string): DomDocument {
  const inner = html.replace(PROLOGUE, '');
  // A page that starts at <head> or <body> only lacks the <html> around them.
  if (/^<(?:head|body)[\s>]/i.test(inner)) return rawParse(`<!DOCTYPE html><html>${inner}</html>`);
  return rawParse(`<!DOCTYPE html><html><head></head><body>${inner}</body></html>`);
}

/**
 * `capitalNames`: some start tag has an attribute name with a capital, as the pipeline's
 * input bounds found (input-bounds.ts); callers without them have the tags scanned here.
 */
export function parseDocument(html: string, capitalNames: boolean = measureHtml(html).capitalNames): DomDocument {
  let doc: DomDocument;
  try {
    doc = rawParse(html);
    const root = doc.documentElement;
    if (root === null || tagOf(root) !== 'html') doc = wrapped(html);
    normalizeStructure(doc);
    if (capitalNames) lowerCaseAttributeNames(doc);
  } catch {
    // linkedom gave up (it hardly ever does): keep the text, lose the markup.
    doc = rawParse('<!DOCTYPE html><html><head></head><body></body></html>');
    doc.body?.appendChild(doc.createTextNode(html.replace(/<[^>]*>/g, ' ')));
  }
  return doc;
}

function normalizeStructure(doc: DomDocument): void {
  const root = doc.documentElement;
  if (root === null) return;
  let head = childElements(root).find((el) => tagOf(el) === 'head') ?? null;
  let body = childElements(root).find((el) => tagOf(el) === 'body') ?? null;
  if (head === null) {
    head = doc.createElement('head');
    root.insertBefore(head, root.firstChild);
  }
  if (body === null) {
    body = doc.createElement('body');
    root.appendChild(body);
  }

  // Content written inside <head>: from the first non-head node on, it belongs to the body.
  const moved: DomNode[] = [];
  let started = false;
  for (let node = head.firstChild; node !== null; node = node.nextSibling) {
    if (!started) {
      if (isElement(node)) started = !HEAD_ELEMENTS.has(tagOf(node));
      else if (node.nodeType === TEXT_NODE) started = (node.textContent ?? '').trim() !== '';
    }
    if (started) moved.push(node);
  }

  // Stray nodes under <html> (or past it): before the body they open it, after it they close it.
  const before: DomNode[] = [];
  const after: DomNode[] = [];
  let seenBody = false;
  for (let node = root.firstChild; node !== null; node = node.nextSibling) {
    if (node === body) {
      seenBody = true;
      continue;
    }
    if (node === head || node.nodeType === COMMENT_NODE) continue;
    if (node.nodeType === TEXT_NODE && (node.textContent ?? '').trim() === '') continue;
    (seenBody ? after : before).push(node);
  }
  for (let node = root.nextSibling; node !== null; node = node.nextSibling) {
    if (isElement(node) || (node.nodeType === TEXT_NODE && (node.textContent ?? '').trim() !== '')) after.push(node);
  }

  const first = body.firstChild;
  for (const node of [...moved, ...before]) body.insertBefore(node, first);
  for (const node of after) body.appendChild(node);
}

const CAPITAL = /[A-Z]/;

/**
 * Attribute names lowercased, as a browser's parser does (HTML 13.2.5.33): linkedom keeps
 * them as written, so `<A HREF>` had no `href`. Only pages whose tags have such a name are
 * walked (the input bounds' scan of the tags tells).
 */
function lowerCaseAttributeNames(doc: DomDocument): void {
  const root = doc.documentElement;
  if (root === null) return;
  walk(root, (element) => {
    if (element !== root && FOREIGN_ROOTS.has(tagOf(element))) return false;
    if (element.hasAttributes())
      for (const name of element.getAttributeNames()) {
        if (!CAPITAL.test(name)) continue;
        // ASCII only, as the parser does (a name's other letters are left as written).
        const lower = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
        const value = element.getAttribute(name) ?? '';
        element.removeAttribute(name);
        // Of two names that differ only in case, the lowercase one stays.
        if (!element.hasAttribute(lower)) element.setAttribute(lower, value);
      }
    return true;
  });
}

export function bodyOf(doc: DomDocument): DomElement {
  const root = doc.documentElement;
  const body = root === null ? null : childElements(root).find((el) => tagOf(el) === 'body');
  if (body === undefined || body === null) throw new Error('document without body');
  return body;
}
