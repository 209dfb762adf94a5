/** Recipe's shape: its instructions as text steps (how-to.ts), times as the ISO 8601 durations given. */

import { partiesOf } from './parties.js';
import { stepsOf } from './how-to.js';
import { ratingOf } from './product.js';
import type { Thing } from './thing.js';
import type { StructuredItem } from './types.js';
import type { ShapeContext } from './values.js';
import { dateOf, firstUrl, imagesOf, textOf, textsOf, valuesOf } from './values.js';

export function recipeShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  const ingredients = textsOf(thing, 'recipeIngredient', ctx, false);
  return {
    name: textOf(thing, 'name', 'headline'),
    description: textOf(thing, 'description'),
    authors: partiesOf(thing, 'author', ctx),
    date_published: dateOf(thing, 'datePublished'),
    image: imagesOf(thing, ctx, 'image'),
    url: firstUrl(thing, ctx, 'url'),
    ingredients: ingredients.length > 0 ? ingredients : textsOf(thing, 'ingredients', ctx, false),
    instructions: stepsOf(valuesOf(thing, 'recipeInstructions'), ctx, thing.source).map((step) => step.text),
    prep_time: textOf(thing, 'prepTime'),
    cook_time: textOf(thing, 'cookTime'),
    total_time: textOf(thing, 'totalTime'),
    yield: longest(textsOf(thing, 'recipeYield', ctx)) ?? textOf(thing, 'yield'),
    rating: ratingOf(thing, ctx),
  };
}

/** Of several yields ("4", "4 bowls"), the one that says most. */
function longest(texts: readonly string[]): string | undefined {
  return texts.reduce<string | undefined>(
    (best, text) => (best === undefined || text.length > best.length ? text : best),
    undefined,
  );
}
