/**
 * Path globs of a site map or crawl (`include_paths`, `exclude_paths`): matched against a
 * URL's path, segment by segment, never compiled into a regular expression, so no pattern a
 * client writes can make matching backtrack without bound (docs/decisions.md, "Site maps
 * and crawls"). `*` is any run of characters within one segment, `?` one character, `**` as
 * a whole segment any number of segments (none included); a glob without a leading `/` gets
 * one. `/docs/**` is everything under /docs/, `/blog/*\/comments` one level down.
 */

export const MAX_GLOBS = 20;
export const MAX_GLOB_LENGTH = 200;

export interface PathGlob {
  readonly source: string;
  matches(path: string): boolean;
}

/** The glob as a matcher; callers validate length and count (core/site-schemas.ts). */
export function pathGlob(source: string): PathGlob {
  const pattern = (source.startsWith('/') ? source : `/${source}`).split('/');
  return { source, matches: (path) => matchSegments(pattern, path.split('/')) };
}

/** Whether any of the globs matches `path` (none given: false). */
export function anyGlobMatches(globs: readonly PathGlob[], path: string): boolean {
  return globs.some((glob) => glob.matches(path));
}

/** Segments against segments; `**` tried at every split, each (pattern, path) pair at most once. */
function matchSegments(pattern: string[], path: string[]): boolean {
  const failed = new Set<number>();
  const width = path.length + 1;
  const match = (p: number, s: number): boolean => {
    if (failed.has(p * width + s)) return false;
    let ok: boolean;
    if (p === pattern.length) ok = s === path.length;
    else if (pattern[p] === '**') ok = match(p + 1, s) || (s < path.length && match(p, s + 1));
    else ok = s < path.length && matchSegment(pattern[p]!, path[s]!) && match(p + 1, s + 1);
    if (!ok) failed.add(p * width + s);
    return ok;
  };
  return match(0, 0);
}

/** One segment: `*` and `?` wildcards, by the classic two-pointer walk (linear for one star, O(n·m) at worst). */
function matchSegment(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    const c = pattern[p];
    if (c === '*') {
      star = p++;
      mark = t;
    } else if (c !== undefined && (c === '?' || c === text[t])) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
