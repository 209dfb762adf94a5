/**
 * JSON-LD read into Things: each block's top-level object, each entry of a top-level list
 * and of an `@graph` is a node; nested objects are values (an Article's author), `{"@id"}`
 * objects references the reader resolves later (thing-index.ts). Every `@context` in scope
 * decides whether the terms are schema.org's (vocabulary.ts). A block identical to an
 * earlier one is read once; a broken one is a note.
 */

import type { DomDocument } from '../../dom.js';
import { absoluteLink } from '../../urls.js';
import { jsonLdBlocks } from '../json-ld-blocks.js';
import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Notes } from './notes.js';
import { CUT_LIST_NOTE } from './notes.js';
import type { Thing, Value } from './thing.js';
import { addValues, cutString, newThing } from './thing.js';
import type { Term, Vocabulary } from './vocabulary.js';
import { SCHEMA_ORG, propertyName, termOf, typesOf, withBase, withPrefixes } from './vocabulary.js';

const { maxDepth, maxArrayEntries, maxJsonLdChars } = STRUCTURED_DATA_BOUNDS;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The top-level nodes of every JSON-LD block, typed or not (untyped ones are only referred to). */
export function readJsonLd(doc: DomDocument, base: string | null, notes: Notes): Thing[] {
  const nodes: Thing[] = [];
  const seen = new Set<string>();
  for (const block of jsonLdBlocks(doc)) {
    if (block.problem === 'too-long')
      notes.add(`JSON-LD block ${block.index} is longer than ${maxJsonLdChars} characters (skipped)`);
    else if (block.problem === 'invalid') notes.add(`JSON-LD block ${block.index} is not valid JSON (skipped)`);
    else if (block.problem === 'empty') notes.add(`JSON-LD block ${block.index} is empty (skipped)`);
    if (block.problem !== undefined || seen.has(block.text)) continue;
    seen.add(block.text);
    new BlockReader(block.index, base, notes).top(block.value, SCHEMA_ORG, 0, nodes);
  }
  return nodes;
}

/** A JSON-LD `@id` made absolute against the page (blank nodes and URNs as written). */
export function absoluteId(id: string, base: string | null): string {
  const trimmed = id.trim();
  if (trimmed.startsWith('_:')) return trimmed;
  return absoluteLink(trimmed, base) ?? trimmed;
}

/** `@context` (a URL, an object with `@vocab` and prefixes, or a list of them) over `vocabulary`. */
function contextOf(context: unknown, vocabulary: Vocabulary): Vocabulary {
  if (typeof context === 'string') return withBase(vocabulary, context);
  if (Array.isArray(context)) {
    let out = vocabulary;
    for (const entry of context.slice(0, maxArrayEntries)) if (!Array.isArray(entry)) out = contextOf(entry, out);
    return out;
  }
  if (!isObject(context)) return vocabulary;
  let out = vocabulary;
  const vocab = context['@vocab'];
  if (typeof vocab === 'string') out = withBase(out, vocab);
  const prefixes = new Map<string, string>();
  for (const key of Object.keys(context).slice(0, maxArrayEntries)) {
    const iri = context[key];
    // Prefix definitions only ("dc": "http://purl.org/dc/terms/"); term definitions are not read.
    if (!key.startsWith('@') && typeof iri === 'string' && /[/#]$/.test(iri)) prefixes.set(key, iri);
  }
  return withPrefixes(out, prefixes);
}

class BlockReader {
  constructor(
    private readonly index: number,
    private readonly base: string | null,
    private readonly notes: Notes,
  ) {}

  private tooDeep(): void {
    this.notes.add(`JSON-LD block ${this.index} nests deeper than ${maxDepth} levels (deeper values left out)`);
  }

  /** The nodes of a block's value: an object, a list of them, an `@graph`. */
  top(value: unknown, vocabulary: Vocabulary, nesting: number, out: Thing[]): void {
    if (nesting > maxDepth) return this.tooDeep();
    if (Array.isArray(value)) {
      for (const entry of value) this.top(entry, vocabulary, nesting + 1, out);
      return;
    }
    if (!isObject(value)) return;
    const inner = contextOf(value['@context'], vocabulary);
    if (Object.keys(value).some((key) => key !== '@context' && key !== '@graph')) out.push(this.thing(value, inner, 0));
    if (value['@graph'] !== undefined) this.top(value['@graph'], inner, nesting + 1, out);
  }

  private thing(node: JsonObject, outer: Vocabulary, depth: number): Thing {
    const vocabulary = contextOf(node['@context'], outer);
    const thing = newThing('json-ld');
    const terms: Term[] = [];
    for (const type of ([] as unknown[]).concat(node['@type']).slice(0, maxArrayEntries)) {
      const term = typeof type === 'string' ? termOf(type, vocabulary) : undefined;
      if (term !== undefined) terms.push(term);
    }
    const { types, vocab } = typesOf(terms);
    thing.types = types;
    if (vocab !== undefined) thing.vocab = vocab;
    const id = node['@id'];
    if (typeof id === 'string' && id.trim() !== '') thing.id = absoluteId(id, this.base);
    for (const key of Object.keys(node)) {
      if (key.startsWith('@')) continue;
      const values: Value[] = [];
      this.values(node[key], vocabulary, depth + 1, values);
      addValues(thing, propertyName(key, vocabulary), values, this.notes);
    }
    return thing;
  }

  /** A property's value as a list: scalars, nodes, references; lists flattened, value objects read. */
  private values(value: unknown, vocabulary: Vocabulary, depth: number, out: Value[]): void {
    if (typeof value === 'string') out.push(cutString(value, this.notes));
    else if (typeof value === 'number') {
      if (Number.isFinite(value)) out.push(value);
    } else if (typeof value === 'boolean') out.push(value);
    else if (depth > maxDepth) {
      if (value !== null && typeof value === 'object') this.tooDeep();
    } else if (Array.isArray(value)) {
      for (const entry of value) {
        if (out.length >= maxArrayEntries) {
          this.notes.add(CUT_LIST_NOTE);
          break;
        }
        this.values(entry, vocabulary, Array.isArray(entry) ? depth + 1 : depth, out);
      }
    } else if (isObject(value)) {
      if ('@value' in value) this.values(value['@value'], vocabulary, depth + 1, out);
      else if ('@list' in value) this.values(value['@list'], vocabulary, depth + 1, out);
      else if ('@set' in value) this.values(value['@set'], vocabulary, depth + 1, out);
      else out.push(this.thing(value, vocabulary, depth));
    }
  }
}
