/**
 * Inline links and images as our converter writes them (extract/html/write/markdown.ts):
 * `[text](destination)`, `![alt](destination "title")`, a linked image `[![alt](src)](href)`
 * (and `[text](<destination>)` of a Markdown page);
 * brackets in the text and parentheses in the destination come backslash-escaped
 * (CommonMark 0.31, 6.3 "Links"). Every part stops at the next unescaped bracket,
 * parenthesis or quote, so a page of stray `[a](` costs linear time, never quadratic: the
 * ranking runs on the main thread.
 */

const DESTINATION = String.raw`\((?:<[^<>\n]*>|(?:[^()\\\s]|\\.)*)(?:[ \t]+"(?:[^"\\\n]|\\.)*")?\)`;
// An escaped `\[` opens no link: without the look-behind, each `[` of `[\[\[\[...` would start a scan to the end.
const TEXT = String.raw`(?<!\\)\[((?:[^[\]\\]|\\.|\[(?:[^[\]\\]|\\.)*\])*)\]`;

/** A link or image; group 1 is its text (a linked image's text is the image). */
export const LINK = new RegExp(`!?${TEXT}${DESTINATION}`, 'g');

/** The `](destination)` of a link or image: what a reader never sees. */
export const LINK_TARGET = new RegExp(String.raw`\]${DESTINATION}`, 'g');
