/**
 * Microdata read into Things, by the HTML Standard's rules (§5.2): a top-level item is an
 * `itemscope` element without `itemprop`; its properties are the `itemprop` elements under
 * it (and under the elements its `itemref` names) that no nested item holds; a property's
 * value is the nested item, else the element's `content`, URL, `datetime`, `value` or text.
 * Also an `itemscope` with an `itemprop` that no item holds, which the Standard leaves out:
 * pages that drop the outer item still mean the inner one.
 */

import type { DomDocument, DomElement } from '../../dom.js';
import { isElement, normalizeSpace, tagOf } from '../../dom.js';
import { absoluteLink } from '../../urls.js';
import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import { absoluteId } from './json-ld.js';
import type { Notes } from './notes.js';
import type { Thing, Value } from './thing.js';
import { addValues, cutString, newThing } from './thing.js';
import type { Term } from './vocabulary.js';
import { SCHEMA_ORG, propertyName, termOf, typesOf } from './vocabulary.js';

const { maxDepth, maxArrayEntries, maxMicrodataVisits, maxDeclarations } = STRUCTURED_DATA_BOUNDS;

/** Elements whose value is a URL, and the attribute that holds it. */
const URL_ATTRIBUTE: Readonly<Record<string, string>> = {
  a: 'href',
  area: 'href',
  link: 'href',
  audio: 'src',
  embed: 'src',
  iframe: 'src',
  img: 'src',
  source: 'src',
  track: 'src',
  video: 'src',
  object: 'data',
};

export function readMicrodata(doc: DomDocument, base: string | null, notes: Notes): Thing[] {
  const scopes = Array.from(doc.querySelectorAll('[itemscope]'));
  if (scopes.length === 0) return [];
  const reader = new MicrodataReader(doc, base, notes);
  const items = new Map<DomElement, Thing>();
  for (const scope of scopes) {
    if (scope.hasAttribute('itemprop')) continue;
    // One past the bound at most: structured-data.ts then notes the rest as left out.
    if (items.size > maxDeclarations) break;
    items.set(scope, reader.item(scope, 0, new Set()));
  }
  // An item with `itemprop` that no item holds, by nesting or by `itemref`.
  for (const scope of scopes) {
    if (items.size > maxDeclarations) break;
    if (items.has(scope) || reader.reached.has(scope)) continue;
    if ((scope.parentElement?.closest('[itemscope]') ?? null) === null)
      items.set(scope, reader.item(scope, 0, new Set()));
  }
  return scopes.flatMap((scope) => items.get(scope) ?? []);
}

class MicrodataReader {
  private ids: Map<string, DomElement> | null = null;
  /** Items met as a property's value. */
  readonly reached = new Set<DomElement>();
  private visits = 0;

  constructor(
    private readonly doc: DomDocument,
    private readonly base: string | null,
    private readonly notes: Notes,
  ) {}

  item(root: DomElement, depth: number, open: Set<DomElement>): Thing {
    const thing = newThing('microdata');
    const terms: Term[] = [];
    for (const type of (root.getAttribute('itemtype') ?? '').split(/\s+/).slice(0, maxArrayEntries)) {
      const term = termOf(type, SCHEMA_ORG);
      if (term !== undefined) terms.push(term);
    }
    const { types, vocab } = typesOf(terms);
    thing.types = types;
    if (vocab !== undefined) thing.vocab = vocab;
    const id = root.getAttribute('itemid');
    if (id !== null && id.trim() !== '') thing.id = absoluteId(id, this.base);
    open.add(root);
    for (const element of this.properties(root)) {
      const values: Value[] = [];
      if (!element.hasAttribute('itemscope')) {
        const value = this.valueOf(element);
        if (value !== '') values.push(value);
      } else {
        this.reached.add(element);
        if (depth >= maxDepth) this.notes.add(`microdata nests deeper than ${maxDepth} levels (deeper items left out)`);
        else if (!open.has(element)) values.push(this.item(element, depth + 1, open));
      }
      for (const name of (element.getAttribute('itemprop') ?? '').split(/\s+/).slice(0, maxArrayEntries))
        addValues(thing, propertyName(name, SCHEMA_ORG), values, this.notes);
    }
    open.delete(root);
    return thing;
  }

  /** The item's property elements: its subtree, then its `itemref`s', not entering nested items. */
  private properties(root: DomElement): DomElement[] {
    const pending: DomElement[] = [];
    const refs = (root.getAttribute('itemref') ?? '').split(/\s+/).filter((ref) => ref !== '');
    for (const ref of refs.slice(0, maxArrayEntries).reverse()) {
      const element = this.byId(ref);
      if (element !== undefined && element !== root) pending.push(element);
    }
    for (let child = lastElementChild(root); child !== null; child = child.previousElementSibling) pending.push(child);
    const found: DomElement[] = [];
    const seen = new Set<DomElement>();
    while (pending.length > 0) {
      if (++this.visits > maxMicrodataVisits) {
        this.notes.add(`microdata read up to ${maxMicrodataVisits} elements (the rest left out)`);
        break;
      }
      const element = pending.pop()!;
      // An `itemref` may name an ancestor: the item never holds itself.
      if (seen.has(element) || element === root) continue;
      seen.add(element);
      if (element.hasAttribute('itemprop')) found.push(element);
      if (element.hasAttribute('itemscope')) continue;
      for (let child = lastElementChild(element); child !== null; child = child.previousElementSibling)
        pending.push(child);
    }
    return found;
  }

  private byId(id: string): DomElement | undefined {
    if (this.ids === null) {
      this.ids = new Map();
      for (const element of Array.from(this.doc.querySelectorAll('[id]'))) {
        const key = element.getAttribute('id') ?? '';
        if (!this.ids.has(key)) this.ids.set(key, element);
      }
    }
    return this.ids.get(id);
  }

  private valueOf(element: DomElement): string {
    const tag = tagOf(element);
    let value: string;
    if (tag === 'meta') value = element.getAttribute('content') ?? '';
    else if (URL_ATTRIBUTE[tag] !== undefined) {
      const raw = element.getAttribute(URL_ATTRIBUTE[tag]!) ?? '';
      value = absoluteLink(raw, this.base) ?? '';
    } else if (tag === 'data' || tag === 'meter') value = element.getAttribute('value') ?? '';
    else if (tag === 'time') value = element.getAttribute('datetime') ?? element.textContent ?? '';
    // Not the Standard's rule, but common: a `content` attribute on any element states the value.
    else value = element.getAttribute('content') ?? element.textContent ?? '';
    return cutString(normalizeSpace(value), this.notes);
  }
}

function lastElementChild(element: DomElement): DomElement | null {
  for (let child = element.lastChild; child !== null; child = child.previousSibling) if (isElement(child)) return child;
  return null;
}
