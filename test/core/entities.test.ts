import { describe, expect, it } from 'vitest';
import { decodeEntities } from '../../src/core/entities.js';

describe('decodeEntities', () => {
  it('decodes every HTML named reference, not only HTML 4 ones', () => {
    expect(decodeEntities('&half; &star; &dash;', 'text')).toBe('½ ☆ ‐');
    expect(decodeEntities('&eacute;&Uuml;&nbsp;&mdash;&hellip;&euro;&#150;&#x93;&unknown;', 'text')).toBe(
      'éÜ\u00a0—…€–“&unknown;',
    );
    expect(decodeEntities('a &amp; b&nbsp;&eacute;&#x27;&quot;&lt;&gt;', 'text')).toBe('a & b\u00a0é\'"<>');
  });

  it('reads numeric references as the HTML Standard does', () => {
    // windows-1252 for 128-159; NUL, surrogates and code points past U+10FFFF are U+FFFD.
    expect(decodeEntities('&#128;&#x9F;&#233;&#x1F600;', 'strict')).toBe('€Ÿé😀');
    expect(decodeEntities('&#0; &#xD800; &#xDFFF; &#x110000; &#99999999;', 'text')).toBe(
      '\ufffd \ufffd \ufffd \ufffd \ufffd',
    );
  });

  it('reads a name without its semicolon by where the text comes from', () => {
    expect(decodeEntities('&copy 2025 &amp co', 'text')).toBe('© 2025 & co');
    expect(decodeEntities('Salt&notes', 'text')).toBe('Salt¬es');
    expect(decodeEntities('/a?b=1&copy=2&not;', 'attribute')).toBe('/a?b=1&copy=2¬');
    expect(decodeEntities('&copy 2025, Salt&notes, &copy;', 'strict')).toBe('&copy 2025, Salt&notes, ©');
  });

  it('decodes only predefined and numeric references in XML', () => {
    expect(decodeEntities('&lt;a&gt; &amp;amp; &quot;&apos; &#233;&#x1F600; &nbsp; &custom; &half;', 'xml')).toBe(
      '<a> &amp; "\' é😀 &nbsp; &custom; &half;',
    );
    expect(decodeEntities('&#0; &#xD800; &#99999999; &#150;', 'xml')).toBe('\ufffd \ufffd \ufffd \u0096');
  });

  it('returns text without an ampersand as it is', () => {
    const text = 'no references here; 5 < 6 > 4';
    for (const context of ['text', 'attribute', 'strict', 'xml'] as const)
      expect(decodeEntities(text, context)).toBe(text);
  });
});
