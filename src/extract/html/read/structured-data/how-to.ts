/**
 * HowTo's shape, and the steps it shares with Recipe's instructions: HowToStep, HowToDirection
 * and HowToTip as text; HowToSection and ItemList flattened into their steps (the first
 * named for the section, unless it has a name); a string of several lines or list items as
 * one step each.
 */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Thing, Value } from './thing.js';
import { isThing } from './thing.js';
import type { Step, StructuredItem, StructuredSource } from './types.js';
import type { ShapeContext } from './values.js';
import { imagesOf, plainText, textOf, textsOf, valuesOf } from './values.js';

const { maxArrayEntries, maxDepth } = STRUCTURED_DATA_BOUNDS;

/** Markup and line breaks that part one step from the next in a written list of steps. */
const STEP_BREAK = /\n|<br\s*\/?>|<\/(?:p|li|div)>/i;

export function howToShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  return {
    name: textOf(thing, 'name', 'headline'),
    description: textOf(thing, 'description'),
    image: imagesOf(thing, ctx, 'image'),
    steps: stepsOf(valuesOf(thing, 'step'), ctx, thing.source),
    total_time: textOf(thing, 'totalTime'),
    supplies: textsOf(thing, 'supply', ctx),
    tools: textsOf(thing, 'tool', ctx),
  };
}

/** The steps `values` hold; `source`: their thing's. */
export function stepsOf(values: readonly Value[], ctx: ShapeContext, source: StructuredSource): Step[] {
  const out: Step[] = [];
  addSteps(values, ctx, source, 0, out);
  return out;
}

function addSteps(
  values: readonly Value[],
  ctx: ShapeContext,
  source: StructuredSource,
  depth: number,
  out: Step[],
): void {
  for (const value of values) {
    if (out.length >= maxArrayEntries) return;
    if (!isThing(value)) {
      for (const line of typeof value === 'string' ? value.split(STEP_BREAK) : [String(value)]) {
        const text = plainText(line, source);
        if (text !== '' && out.length < maxArrayEntries) out.push({ text });
      }
      continue;
    }
    const step = ctx.index.resolve(value);
    const name = textOf(step, 'name');
    const text = textOf(step, 'text', 'description');
    const inner = valuesOf(step, 'itemListElement');
    // A section (or a step made of directions): its steps, in order, the first named for it.
    if (text === undefined && inner.length > 0) {
      const first = out.length;
      if (depth < maxDepth) addSteps(inner, ctx, step.source, depth + 1, out);
      const opening = out[first];
      if (name !== undefined && opening !== undefined && opening.name === undefined)
        out[first] = { name, text: opening.text };
    } else if (text !== undefined) out.push(name === undefined || name === text ? { text } : { name, text });
    else if (name !== undefined) out.push({ text: name });
  }
}
