/**
 * RDFa Lite read into Things: `typeof` opens an item (its `resource` the id), `property`
 * adds a value to the nearest item above it (the item itself, when the element also opens
 * one; else its `content`, its `resource`, `href` or `src` as a URL, its `datetime` or its
 * text), `vocab` and `prefix` say whose terms they are (vocabulary.ts). An item that is no
 * property of another is a top-level one. `property` outside every item (Open Graph's
 * `<meta property>`) is not read here (open-graph.ts reads those).
 */

import type { DomDocument, DomElement } from '../../dom.js';
import { isElement, normalizeSpace, tagOf } from '../../dom.js';
import { absoluteLink } from '../../urls.js';
import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import { absoluteId } from './json-ld.js';
import type { Notes } from './notes.js';
import type { Thing, Value } from './thing.js';
import { addValues, cutString, newThing } from './thing.js';
import type { Term, Vocabulary } from './vocabulary.js';
import { SCHEMA_ORG, propertyName, termOf, typesOf, withBase, withPrefixes } from './vocabulary.js';

const { maxDepth, maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

/** Where the walk is: the vocabulary in scope and the item that properties go to. */
interface Scope {
  vocabulary: Vocabulary;
  item: Thing | null;
  depth: number;
}

export function readRdfa(doc: DomDocument, base: string | null, notes: Notes): Thing[] {
  const root = doc.documentElement;
  if (root === null || doc.querySelector('[typeof]') === null) return [];
  const items: Thing[] = [];
  // An explicit stack: pages nest hundreds deep.
  const stack: [DomElement, Scope][] = [[root, { vocabulary: SCHEMA_ORG, item: null, depth: 0 }]];
  while (stack.length > 0) {
    const [element, outer] = stack.pop()!;
    const scope = { ...outer, vocabulary: vocabularyAt(element, outer.vocabulary) };
    const properties = (element.getAttribute('property') ?? '').split(/\s+/).filter((name) => name !== '');
    let value: Value | null = null;
    if (element.hasAttribute('typeof')) {
      const thing = itemOf(element, scope.vocabulary, base);
      scope.depth = outer.item === null ? 0 : outer.depth + 1;
      // Too deep: read (its properties must not fall to the item above) but left out.
      if (scope.depth > maxDepth) notes.add(`RDFa nests deeper than ${maxDepth} levels (deeper items left out)`);
      else if (properties.length > 0 && outer.item !== null) value = thing;
      else items.push(thing);
      scope.item = thing;
    } else if (properties.length > 0 && scope.item !== null) {
      const literal = literalOf(element, base, notes);
      if (literal !== '') value = literal;
    }
    if (value !== null && outer.item !== null)
      for (const name of properties.slice(0, maxArrayEntries))
        addValues(outer.item, propertyName(name, scope.vocabulary), [value], notes);
    for (let child = element.lastChild; child !== null; child = child.previousSibling)
      if (isElement(child)) stack.push([child, scope]);
  }
  return items;
}

function vocabularyAt(element: DomElement, outer: Vocabulary): Vocabulary {
  let vocabulary = outer;
  const vocab = element.getAttribute('vocab');
  if (vocab !== null) vocabulary = withBase(vocabulary, vocab);
  const prefix = element.getAttribute('prefix');
  if (prefix !== null) {
    // "og: https://ogp.me/ns# schema: https://schema.org/"
    const prefixes = new Map<string, string>();
    for (const m of prefix.matchAll(/([\w.-]+):\s+(\S+)/g)) prefixes.set(m[1]!, m[2]!);
    vocabulary = withPrefixes(vocabulary, prefixes);
  }
  return vocabulary;
}

function itemOf(element: DomElement, vocabulary: Vocabulary, base: string | null): Thing {
  const thing = newThing('rdfa');
  const terms: Term[] = [];
  for (const type of (element.getAttribute('typeof') ?? '').split(/\s+/).slice(0, maxArrayEntries)) {
    const term = termOf(type, vocabulary);
    if (term !== undefined) terms.push(term);
  }
  const { types, vocab } = typesOf(terms);
  thing.types = types;
  if (vocab !== undefined) thing.vocab = vocab;
  const id = element.getAttribute('resource') ?? element.getAttribute('about');
  if (id !== null && id.trim() !== '') thing.id = absoluteId(id, base);
  return thing;
}

function literalOf(element: DomElement, base: string | null, notes: Notes): string {
  const content = element.getAttribute('content');
  if (content !== null) return cutString(normalizeSpace(content), notes);
  const iri = element.getAttribute('resource') ?? element.getAttribute('href') ?? element.getAttribute('src');
  if (iri !== null) return absoluteLink(iri, base) ?? '';
  const datetime = tagOf(element) === 'time' ? element.getAttribute('datetime') : null;
  return cutString(normalizeSpace(datetime ?? element.textContent), notes);
}
