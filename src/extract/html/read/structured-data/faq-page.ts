/** FAQPage's shape: its Questions with their accepted (else first suggested) answer, as plain text. */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Thing } from './thing.js';
import type { Question, StructuredItem } from './types.js';
import type { ShapeContext } from './values.js';
import { textOf, thingOf, thingsOf } from './values.js';

const { maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

export function faqPageShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  const questions: Question[] = [];
  for (const entry of [...thingsOf(thing, 'mainEntity', ctx), ...thingsOf(thing, 'hasPart', ctx)]) {
    const question = textOf(entry, 'name', 'text');
    const answer = thingOf(entry, 'acceptedAnswer', ctx) ?? thingOf(entry, 'suggestedAnswer', ctx);
    const text = answer === undefined ? undefined : textOf(answer, 'text', 'description');
    if (question !== undefined && text !== undefined) questions.push({ question, answer: text });
    if (questions.length >= maxArrayEntries) break;
  }
  return { name: textOf(thing, 'name', 'headline'), questions };
}
