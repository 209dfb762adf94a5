/**
 * The DOM the extraction uses, typed by hand (the project compiles without the `dom` lib),
 * and helpers that walk linkedom's linked lists directly, far cheaper than `childNodes`
 * arrays or selectors.
 */

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const CDATA_SECTION_NODE = 4;
export const COMMENT_NODE = 8;

export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: DomElement | null;
  readonly ownerDocument: DomDocument | null;
  readonly firstChild: DomNode | null;
  readonly lastChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
  readonly childNodes: ArrayLike<DomNode>;
  textContent: string | null;
  cloneNode(deep?: boolean): DomNode;
  remove(): void;
}

export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly localName: string;
  readonly children: ArrayLike<DomElement>;
  readonly firstElementChild: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  readonly previousElementSibling: DomElement | null;
  readonly parentElement: DomElement | null;
  id: string;
  className: string;
  innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  getAttributeNames(): string[];
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  hasAttributes(): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  getElementsByTagName(tagName: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  appendChild(node: DomNode): DomNode;
  insertBefore(node: DomNode, reference: DomNode | null): DomNode;
  replaceWith(...nodes: DomNode[]): void;
}

export interface DomDocument extends DomNode {
  readonly documentElement: DomElement | null;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  createElement(tagName: string): DomElement;
  createTextNode(text: string): DomNode;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  getElementsByTagName(tagName: string): ArrayLike<DomElement>;
}

export function isElement(node: DomNode | null | undefined): node is DomElement {
  return node !== null && node !== undefined && node.nodeType === ELEMENT_NODE;
}

/** Lower-case tag name (linkedom upper-cases HTML names, keeps XML/SVG ones as written). */
export function tagOf(element: DomElement): string {
  return element.localName.toLowerCase();
}

/** Element children, as an array snapshot (safe to remove from while iterating). */
export function childElements(element: DomElement | DomDocument): DomElement[] {
  const out: DomElement[] = [];
  for (let child = element.firstChild; child !== null; child = child.nextSibling) {
    if (isElement(child)) out.push(child);
  }
  return out;
}

/**
 * The node after `node` in document order under `root` (null past its end), skipping its
 * children when `skipChildren`: a walk with no stack that may change the nodes passed.
 */
export function nextInTree(node: DomNode, root: DomNode, skipChildren: boolean): DomNode | null {
  if (!skipChildren && node.firstChild !== null) return node.firstChild;
  for (let at: DomNode | null = node; at !== null && at !== root; at = at.parentNode) {
    if (at.nextSibling !== null) return at.nextSibling;
  }
  return null;
}

/** A new `tag` element in `element`'s place, holding its children (not its attributes). */
export function retag(doc: DomDocument, element: DomElement, tag: string): DomElement {
  const replacement = doc.createElement(tag);
  while (element.firstChild !== null) replacement.appendChild(element.firstChild);
  element.replaceWith(replacement);
  return replacement;
}

/**
 * All descendant elements in document order (of `tags` only, when given), as an array
 * snapshot; the children of a `shut` element are not walked (its own tag still counts).
 */
export function descendants(
  root: DomElement | DomDocument,
  tags?: ReadonlySet<string>,
  shut?: ReadonlySet<string>,
): DomElement[] {
  const out: DomElement[] = [];
  const stack: DomNode[] = [];
  for (let child = root.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    // The name only when asked about (the walk of every element needs none).
    const tag = tags === undefined && shut === undefined ? '' : tagOf(node);
    if (tags === undefined || tags.has(tag)) out.push(node);
    if (shut !== undefined && shut.has(tag)) continue;
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  }
  return out;
}

/**
 * Visits `root` and the elements under it in document order, parents before children;
 * when `visit` returns false, the element's children are not walked. Iterative (pages
 * nest thousands deep). The children are read once their parent's visit returns: a visit
 * may change its own element's children, not those of elements met before it.
 */
export function walk(root: DomElement, visit: (element: DomElement) => boolean | void): void {
  const stack: DomElement[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (visit(element) === false) continue;
    for (let child = element.lastChild; child !== null; child = child.previousSibling)
      if (isElement(child)) stack.push(child);
  }
}

/**
 * An element's class and id as one string for the class/id word patterns; '' when it has
 * neither.
 */
export function classAndId(element: DomElement): string {
  const cls = element.getAttribute('class') ?? '';
  const id = element.getAttribute('id') ?? '';
  return cls === '' && id === '' ? '' : `${cls} ${id}`;
}

/** Roots of foreign content: their elements keep their names as the SVG and MathML specifications spell them. */
export const FOREIGN_ROOTS: ReadonlySet<string> = new Set(['svg', 'math']);

/**
 * Phrasing elements Turndown writes inline (as their content, with delimiters at most):
 * the text around them stays on one line; any other element is taken for a line break.
 */
export const INLINE_TAGS: ReadonlySet<string> = new Set([
  'a',
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'nobr',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);

/** Elements whose text is code or a form value, left as written by the text rewrites. */
export const VERBATIM_TAGS: ReadonlySet<string> = new Set(['pre', 'code', 'kbd', 'samp', 'textarea']);

/** The six heading elements. */
export const HEADING_TAGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** The level (1-6) of a heading element, or 0 for any other element. */
export function headingLevel(element: DomElement): number {
  const tag = tagOf(element);
  return tag.length === 2 && tag[0] === 'h' && tag[1]! >= '1' && tag[1]! <= '6' ? Number(tag[1]) : 0;
}

/** Collapses white space (including NBSP) to single spaces and trims. */
export function normalizeSpace(text: string | null | undefined): string {
  return text ? text.replace(/[\s\u00a0]+/g, ' ').trim() : '';
}

/** Length of the text of a node once white space is collapsed (cheap approximation). */
export function textLength(node: DomNode): number {
  return normalizeSpace(node.textContent).length;
}
