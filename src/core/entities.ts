/**
 * Character references, decoded by the HTML Standard's rules with the `entities` package
 * (the decoder linkedom's parser uses): every named reference, and numeric ones repaired
 * as browsers do (&#150; is –; &#0;, surrogates and code points past U+10FFFF are U+FFFD).
 * XML gets its five predefined names and numeric references only: nothing a document
 * defines is ever expanded (billion laughs, external entities).
 */

import { DecodingMode, decodeHTML, decodeXML } from 'entities';

/**
 * Where the text comes from, which decides how a name without its semicolon reads:
 *   text       HTML text (a <title>, a fragment's text): `&amp` and the other legacy names
 *              decode without it, as in a browser;
 *   attribute  an HTML attribute value: `?a=1&copy=2` stays as written;
 *   strict     text that is not HTML source but may carry references (JSON, a feed's
 *              title): only `&name;` with its semicolon;
 *   xml        XML character data.
 */
export type ReferenceContext = 'text' | 'attribute' | 'strict' | 'xml';

const MODES = { text: DecodingMode.Legacy, attribute: DecodingMode.Attribute, strict: DecodingMode.Strict } as const;

export function decodeEntities(text: string, context: ReferenceContext): string {
  if (!text.includes('&')) return text;
  return context === 'xml' ? decodeXML(text) : decodeHTML(text, MODES[context]);
}
