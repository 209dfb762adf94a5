/**
 * Names of types and properties as the three syntaxes write them (`NewsArticle`,
 * `https://schema.org/NewsArticle`, `schema:NewsArticle`, a term under a JSON-LD `@vocab`
 * or an RDFa `vocab`), read as schema.org's short name, or as a term of another vocabulary,
 * which the reader keeps raw and never mistakes for schema.org's.
 */

/** A vocabulary in scope: its default IRI (undefined: schema.org) and its prefixes. */
export interface Vocabulary {
  readonly base?: string;
  readonly prefixes: ReadonlyMap<string, string>;
}

/** Where no context says otherwise, terms are schema.org's (pages that omit `@context` mean it). */
export const SCHEMA_ORG: Vocabulary = { prefixes: new Map() };

export interface Term {
  name: string;
  /** The vocabulary's IRI (or undeclared prefix) when it is not schema.org. */
  vocab?: string;
}

/** http or https, with or without www, with or without a trailing slash or hash. */
const SCHEMA_NAMESPACE = /^https?:\/\/(?:www\.)?schema\.org\/?#?$/i;
/** A context that names schema.org, its JSON-LD context file included. */
const SCHEMA_CONTEXT = /^https?:\/\/(?:www\.)?schema\.org(?:[/#].*)?$/i;
const ABSOLUTE_IRI = /^[a-z][a-z0-9+.-]*:\/\//i;
const BARE_SCHEMA_IRI = /^(?:www\.)?schema\.org\/([^/#?\s]+)$/i;
const PREFIXED = /^([a-z_][\w.-]*):([^/\s].*)$/i;

export function isSchemaNamespace(iri: string): boolean {
  return SCHEMA_NAMESPACE.test(iri.trim());
}

/** A vocabulary whose default IRI is `iri` (schema.org's when it names schema.org). */
export function withBase(vocabulary: Vocabulary, iri: string): Vocabulary {
  const trimmed = iri.trim();
  if (trimmed === '' || SCHEMA_CONTEXT.test(trimmed)) return { prefixes: vocabulary.prefixes };
  return { base: trimmed, prefixes: vocabulary.prefixes };
}

export function withPrefixes(vocabulary: Vocabulary, prefixes: ReadonlyMap<string, string>): Vocabulary {
  if (prefixes.size === 0) return vocabulary;
  const merged = new Map(vocabulary.prefixes);
  for (const [prefix, iri] of prefixes) merged.set(prefix, iri);
  return { ...vocabulary, prefixes: merged };
}

/** A term as declared, read in `vocabulary`; undefined when there is no name. */
export function termOf(written: string, vocabulary: Vocabulary): Term | undefined {
  const term = written.trim();
  if (term === '') return undefined;
  if (ABSOLUTE_IRI.test(term)) return iriTerm(term);
  const bare = BARE_SCHEMA_IRI.exec(term);
  if (bare !== null) return { name: bare[1]! };
  const prefixed = PREFIXED.exec(term);
  if (prefixed !== null) {
    const [, prefix = '', local = ''] = prefixed;
    const iri = vocabulary.prefixes.get(prefix);
    if (iri !== undefined) return iriTerm(iri + local);
    // RDFa's initial context (and common use) reads `schema:` as schema.org without a declaration.
    if (prefix.toLowerCase() === 'schema') return { name: local };
    return { name: local, vocab: `${prefix}:` };
  }
  return vocabulary.base === undefined ? { name: term } : { name: term, vocab: vocabulary.base };
}

function iriTerm(iri: string): Term | undefined {
  const cut = Math.max(iri.lastIndexOf('/'), iri.lastIndexOf('#'));
  const name = iri.slice(cut + 1);
  if (name === '' || name.includes(':')) return undefined;
  const namespace = iri.slice(0, cut + 1);
  return isSchemaNamespace(namespace) ? { name } : { name, vocab: namespace };
}

/** A property's name: schema.org's short name, else the name as written (another vocabulary's). */
export function propertyName(written: string, vocabulary: Vocabulary): string {
  const term = termOf(written, vocabulary);
  return term !== undefined && term.vocab === undefined ? term.name : written.trim();
}

/**
 * A thing's types from the terms declared: schema.org's when any is, else the other
 * vocabulary's (the first one's).
 */
export function typesOf(terms: readonly Term[]): { types: string[]; vocab?: string } {
  const schema = terms.filter((term) => term.vocab === undefined).map((term) => term.name);
  if (schema.length > 0 || terms.length === 0) return { types: [...new Set(schema)] };
  const vocab = terms[0]!.vocab!;
  return { types: [...new Set(terms.filter((term) => term.vocab === vocab).map((term) => term.name))], vocab };
}
