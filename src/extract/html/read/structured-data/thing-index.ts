/**
 * The page's things by `@id` (and by `url`), across blocks and syntaxes, so that a reference
 * (`"author": {"@id": "#/schema/person/1"}`, a Yoast graph's way) reads as the node it names.
 * Declarations of one id are merged, the first's values first. A reference is resolved one
 * step at a time, by the shapes that read it: a cycle of references costs nothing.
 */

import type { Thing } from './thing.js';
import { isReference, isThing, mergedThings } from './thing.js';

export class ThingIndex {
  private readonly byId = new Map<string, Thing>();
  private readonly byUrl = new Map<string, Thing>();

  /** Registers `thing` and the things nested in it (their depth is bounded where they are read). */
  add(thing: Thing): void {
    const stack: Thing[] = [thing];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (at.id !== undefined && !isReference(at)) {
        const known = this.byId.get(at.id);
        this.byId.set(at.id, known === undefined ? at : mergedThings(known, at));
      }
      const url = at.props.get('url')?.[0];
      if (typeof url === 'string' && at.types.length > 0 && !this.byUrl.has(url)) this.byUrl.set(url, at);
      for (const values of at.props.values()) for (const value of values) if (isThing(value)) stack.push(value);
    }
  }

  /** `thing` with what the page declares elsewhere under its id added (its own values first). */
  resolve(thing: Thing): Thing {
    if (thing.id === undefined) return thing;
    const declared = this.byId.get(thing.id);
    if (declared === undefined || declared === thing) return thing;
    return isReference(thing) ? declared : mergedThings(thing, declared);
  }

  /** The thing whose id or url is `iri` (an author given as a URL). */
  named(iri: string): Thing | undefined {
    return this.byId.get(iri) ?? this.byUrl.get(iri);
  }
}
