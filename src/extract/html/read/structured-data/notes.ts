/**
 * The notes of one reading: what was skipped or cut, and why, each said once, the first
 * maxNotes of them kept (a hostile page could otherwise fill the result with notes), and
 * the few that say items were left out always.
 */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';

const { maxStringChars, maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

export const CUT_STRING_NOTE = `string values cut at ${maxStringChars} characters`;
export const CUT_LIST_NOTE = `lists cut at ${maxArrayEntries} entries`;

export class Notes {
  private readonly list: string[] = [];

  /** `always`: past maxNotes too (what the bounds left out is always said). */
  add(text: string, always = false): void {
    if ((always || this.list.length < STRUCTURED_DATA_BOUNDS.maxNotes) && !this.list.includes(text))
      this.list.push(text);
  }

  get all(): readonly string[] {
    return this.list;
  }
}
