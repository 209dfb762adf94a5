/**
 * The types a page declares for itself: Open Graph `og:type` (as `og-article`,
 * `og-website` ...), the `@type` values of its JSON-LD and its microdata `itemtype`s,
 * lower-cased, schema.org's path only (`newsarticle`, not its URL). Read from the source
 * the parser was given, whose scripts of JSON keep their text (input-bounds.ts): a scan
 * for the two attribute names instead of a walk and a parse of every block, which cost a
 * news page more than the rest of the stage selector. The selector's page features
 * (stage-features.ts) read them.
 */

/** A page declaring more types than this is a catalogue; the first ones tell enough. */
const MAX_TYPES = 64;

// `"@type": "NewsArticle"` or `"@type": ["Article", "Thing"]` (JSON-LD), `itemtype="https://schema.org/Product"`.
const LD_TYPE = /"@type"\s*:\s*(?:"([^"\\]{1,200})"|\[([^\]]{1,1000})\])/g;
const ITEMTYPE = /\bitemtype\s*=\s*(?:"([^"]{1,1000})"|'([^']{1,1000})'|([^\s"'>]{1,1000}))/gi;

export function readDeclaredTypes(source: string, metas: Map<string, string>): Set<string> {
  const types = new Set<string>();
  const add = (value: string): void => {
    const name = value
      .trim()
      .replace(/^.*[/#:]/, '')
      .toLowerCase();
    if (name !== '' && types.size < MAX_TYPES) types.add(name);
  };
  // Open Graph's own names, kept apart from schema.org's.
  const ogType = metas.get('og:type')?.trim().toLowerCase();
  if (ogType) types.add(`og-${ogType.replace(/^og:/, '')}`);
  if (source.includes('"@type"')) {
    for (const m of source.matchAll(LD_TYPE)) {
      if (m[1] !== undefined) add(m[1]);
      else for (const item of m[2]!.matchAll(/"([^"\\]{1,200})"/g)) add(item[1]!);
    }
  }
  if (/itemtype/i.test(source)) {
    for (const m of source.matchAll(ITEMTYPE))
      for (const type of (m[1] ?? m[2] ?? m[3]!).split(/\s+/)) if (type !== '') add(type);
  }
  return types;
}
