/**
 * Plain text of an HTML fragment (a feed summary, a title): scripts and styles dropped,
 * block boundaries kept as spaces, references decoded, whitespace collapsed.
 */

import { decodeEntities } from '../core/entities.js';

const INLINE_TAG =
  /<\/?(?:a|abbr|b|bdi|bdo|cite|code|data|dfn|em|font|i|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var)(?=[\s/>])[^>]*>/gi;

export function htmlToPlainText(html: string): string {
  const stripped = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    // Inline tags join their text ("<em>x</em>." stays "x."), any other tag separates words.
    .replace(INLINE_TAG, '')
    .replace(/<\/?[A-Za-z][^>]*>|<![^>]*>/g, ' ');
  // What is left is the fragment's text, so references read as a browser reads them there.
  return decodeEntities(stripped, 'text').replace(/\s+/g, ' ').trim();
}
