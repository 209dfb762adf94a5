/**
 * Near-duplicate pages for a site crawl ("the same article under another URL"): a 64-bit
 * SimHash (Charikar 2002) over word 3-shingles, compared by Hamming distance, as web
 * crawlers detect near-duplicates (Manku, Jain, Das Sarma 2007: 64 bits, distance <= 3).
 * SimHash is a sample: on a ~400-word text, one changed word (three shingles) flips 0 to 6
 * bits, about half the time at most 3; another article of the same template is ~30 away.
 * Numbers stay words: pages that differ only in their numbers are different pages.
 */

import { scanWords } from '../passages/tokenize.js';

/** Fewer words than this get an exact hash: see contentFingerprint. */
const MIN_SIMHASH_WORDS = 20;
const SHINGLE = 3;
const HEX64 = /^[0-9a-f]{16}$/;
const DIGIT = /[0-9]/;

/**
 * The words of `text`, lower-cased and NFKC-folded (passages/tokenize.ts's scan), a run in
 * a script without spaces (Chinese, Japanese, Thai) split into its characters, a number in
 * it kept whole: shingles of characters stand in for words there, without the cost of a
 * dictionary segmenter.
 */
function words(text: string): string[] {
  const out: string[] = [];
  scanWords(text, (word, noSpaces) => {
    if (!noSpaces) {
      out.push(word);
      return;
    }
    let number = '';
    for (const char of word) {
      if (DIGIT.test(char)) {
        number += char;
        continue;
      }
      if (number !== '') out.push(number);
      number = '';
      out.push(char);
    }
    if (number !== '') out.push(number);
  });
  return out;
}

/**
 * A stable 64-bit hash of a string as two 32-bit halves: two multiplicative lanes crossed
 * by a final avalanche (bryc's cyrb53, public domain), on Math.imul: no BigInt in the loop.
 * SimHash needs every bit to flip with half the inputs; FNV-1a's low bits do not.
 */
function hash64(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

function hex(high: number, low: number): string {
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/**
 * The fingerprint of a page's text: its SimHash as 16 hex digits. A text of fewer than 20
 * words gets `x` and an exact hash of its words instead: a handful of shingles says too
 * little for "a few bits apart" to mean "the same text with small changes", and such texts
 * (a stub, an error or login page) are the same page only when they are the same text.
 */
export function contentFingerprint(text: string): string {
  const tokens = words(text);
  if (tokens.length < MIN_SIMHASH_WORDS) {
    const [high, low] = hash64(tokens.join(' '));
    return `x${hex(high, low)}`;
  }
  const weights = new Int32Array(64);
  for (let i = 0; i + SHINGLE <= tokens.length; i++) {
    const [high, low] = hash64(`${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`);
    for (let bit = 0; bit < 32; bit++) {
      weights[bit]! += (low >>> bit) & 1 ? 1 : -1;
      weights[bit + 32]! += (high >>> bit) & 1 ? 1 : -1;
    }
  }
  let low = 0;
  let high = 0;
  for (let bit = 0; bit < 32; bit++) {
    if (weights[bit]! > 0) low |= 1 << bit;
    if (weights[bit + 32]! > 0) high |= 1 << bit;
  }
  return hex(high >>> 0, low >>> 0);
}

/** Bits set in a 32-bit number. */
function popcount(n: number): number {
  let v = n - ((n >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * Whether two fingerprints (contentFingerprint) name the same content: two SimHashes at
 * most `maxDistance` bits apart, else (a short text's exact hash) equal.
 */
export function nearDuplicate(a: string, b: string, maxDistance = 3): boolean {
  if (!HEX64.test(a) || !HEX64.test(b)) return a === b;
  const high = parseInt(a.slice(0, 8), 16) ^ parseInt(b.slice(0, 8), 16);
  const low = parseInt(a.slice(8), 16) ^ parseInt(b.slice(8), 16);
  return popcount(high) + popcount(low) <= maxDistance;
}
