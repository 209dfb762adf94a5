import { describe, expect, it } from 'vitest';
import { htmlToPlainText } from '../../src/extract/html-to-plain-text.js';

describe('htmlToPlainText', () => {
  it('turns HTML fragments into plain text', () => {
    expect(
      htmlToPlainText(
        '<p>One <a href="#">link</a>.</p><p>Two</p><script>x()</script><style>p{}</style><!-- c -->&amp; three',
      ),
    ).toBe('One link. Two & three');
    expect(htmlToPlainText('<em>Half</em> &half; a &star; &dash; fish &amp chips')).toBe('Half ½ a ☆ ‐ fish & chips');
  });
});
