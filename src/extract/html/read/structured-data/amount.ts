/**
 * A declared number as pages write it, beyond schema.org's "1299.00": with a currency sign
 * or code ("$1,299.00", "49,90 €", "EUR 12"), grouped by commas, dots, spaces or
 * apostrophes, with a decimal comma ("1.299,00", "12,5"). Normalised to schema.org's form
 * and read by parseAmount (product-offer.ts), the one reader of amounts.
 */

import { parseAmount } from '../../finish/product-offer.js';

/** A decimal comma: "1.299,00", "1 299,5", "12,50" (one or two decimals, so "1,299" stays a thousand). */
const DECIMAL_COMMA = /^(\d{1,3}(?:[.\s'\u00a0\u202f]\d{3})*|\d+),(\d{1,2})$/;
/** Groups of three by spaces or apostrophes, maybe with a decimal point: "1 299.50", "1'299". */
const SPACED = /^(\d{1,3}(?:[\s'\u00a0\u202f]\d{3})+)(\.\d+)?$/;
/** Two or more dotted groups: "1.299.000" (one, "1.299", is schema.org's decimal point). */
const DOTTED = /^\d{1,3}(?:\.\d{3}){2,}$/;

/** The amount `value` states, else undefined. */
export function readAmount(value: unknown): number | undefined {
  if (typeof value === 'number') return finite(parseAmount(value));
  if (typeof value !== 'string') return undefined;
  // Signs and codes around the number ("US$", "EUR", "€"), not inside it.
  const text = value
    .trim()
    .replace(/^[^\d]{0,8}?(?=\d)/u, '')
    .replace(/(?<=\d)[^\d]{0,8}$/u, '');
  const comma = DECIMAL_COMMA.exec(text);
  if (comma !== null) return finite(parseAmount(`${comma[1]!.replace(/[.\s'\u00a0\u202f]/g, '')}.${comma[2]!}`));
  const spaced = SPACED.exec(text);
  if (spaced !== null) return finite(parseAmount(`${spaced[1]!.replace(/[\s'\u00a0\u202f]/g, '')}${spaced[2] ?? ''}`));
  return finite(parseAmount(DOTTED.test(text) ? text.replaceAll('.', '') : text));
}

function finite(amount: number): number | undefined {
  return Number.isFinite(amount) ? amount : undefined;
}
