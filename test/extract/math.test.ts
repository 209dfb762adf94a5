/**
 * Formulas as TeX (math.ts): each way pages carry them (MediaWiki, MathJax 2 and 3, KaTeX,
 * bare MathML) becomes `$tex$` inline or a `$$tex$$` paragraph, once.
 */

import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { mathmlToTex } from '../../src/extract/html/prepare/math.js';
import type { DomElement } from '../../src/extract/html/dom.js';

const URL_ = 'https://example.com/notes/energy.html';

function prose(seed: string): string {
  return `The ${seed} notes follow one lecture of the course and are written out in full for the reader who missed it. `.repeat(
    4,
  );
}

function md(inner: string): string {
  const html = `<!DOCTYPE html><html><head><title>Notes</title></head><body><main><article><h1>Notes</h1><p>${prose('first')}</p>${inner}<p>${prose('last')}</p></article></main></body></html>`;
  return htmlToMarkdown(html, URL_).markdown;
}

/** The TeX of a MathML fragment (the `<math>` element's content). */
function tex(mathml: string): string {
  const { document } = parseHTML(`<html><body><math>${mathml}</math></body></html>`);
  return mathmlToTex(document.querySelector('math') as unknown as DomElement);
}

describe('formulas as TeX', () => {
  it("takes MediaWiki's TeX once, without its wrapper, hidden MathML or fallback image", () => {
    const formula =
      '<span class="mwe-math-element"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" style="display: none;">' +
      '<math alttext="{\\displaystyle E=mc^{2}}"><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow>' +
      '<annotation encoding="application/x-tex">{\\displaystyle E=mc^{2}}</annotation></semantics></math></span>' +
      '<img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/1a2b" class="mwe-math-fallback-image-inline" aria-hidden="true" alt="{\\displaystyle E=mc^{2}}"></span>';
    const markdown = md(`<p>Mass and energy are related by ${formula}, as stated.</p>`);
    expect(markdown).toContain('Mass and energy are related by $E=mc^{2}$, as stated.');
    expect(markdown).not.toContain('svg');
    expect(markdown).not.toContain('displaystyle');
  });

  it('writes a MediaWiki display formula as a paragraph of its own', () => {
    const formula =
      '<span class="mwe-math-element"><span class="mwe-math-mathml-display mwe-math-mathml-a11y" style="display: none;">' +
      '<math display="block" alttext="{\\displaystyle \\int _{0}^{1}x\\,dx={\\tfrac {1}{2}}}"><mi>x</mi></math></span>' +
      '<img src="https://wikimedia.org/x.svg" class="mwe-math-fallback-image-display" alt="{\\displaystyle \\int _{0}^{1}x\\,dx={\\tfrac {1}{2}}}"></span>';
    const markdown = md(`<dl><dd>${formula}</dd></dl><p>which is half.</p>`);
    expect(markdown).toContain('$$\\int _{0}^{1}x\\,dx={\\tfrac {1}{2}}$$');
    expect(markdown).toContain('\n\nwhich is half.');
  });

  it('reads MathJax 2 source scripts, dropping the previews and rendered copies beside them', () => {
    const markdown = md(
      '<p>The mean <span class="MathJax_Preview">x̄</span><script type="math/tex">\\bar{x} = \\frac{1}{n}\\sum_i x_i</script> is unbiased; so</p>' +
        '<span class="MathJax_Preview"></span><div class="MathJax_Display"><span>rendered glyphs</span></div>' +
        '<script type="math/tex; mode=display">\n  \\mathbb{E}[\\bar{x}] = \\mu\n</script><p>- for any sample size.</p>',
    );
    expect(markdown).toContain('The mean $\\bar{x} = \\frac{1}{n}\\sum_i x_i$ is unbiased; so');
    expect(markdown).toContain('\n\n$$\\mathbb{E}[\\bar{x}] = \\mu$$\n\n');
    expect(markdown).not.toContain('x̄');
    expect(markdown).not.toContain('rendered glyphs');
    // What follows a display formula starts a line: its list marker stays escaped.
    expect(markdown).toContain('\n\\- for any sample size.');
  });

  it('writes a KaTeX formula once, from its TeX annotation, not its visual copy', () => {
    const katex = (texSource: string, glyphs: string): string =>
      `<span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>q</mi></mrow><annotation encoding="application/x-tex">${texSource}</annotation></semantics></math></span>` +
      `<span class="katex-html" aria-hidden="true"><span class="base">${glyphs}</span></span></span>`;
    const markdown = md(
      `<p>For ${katex('a^2+b^2=c^2', 'a2+b2=c2')} and</p><p><span class="katex-display">${katex('\\sqrt{2}', '√2')}</span></p>`,
    );
    expect(markdown).toContain('For $a^2+b^2=c^2$ and');
    expect(markdown).toContain('$$\\sqrt{2}$$');
    expect(markdown).not.toContain('a2+b2');
    expect(markdown).not.toContain('√2');
  });

  it('writes MathJax 3 output from its assistive MathML', () => {
    const markdown = md(
      '<p>Hence <mjx-container class="MathJax" jax="CHTML"><mjx-math class="MJX-TEX"><mjx-mi>glyphs</mjx-mi></mjx-math>' +
        '<mjx-assistive-mml><math><msub><mi>x</mi><mi>n</mi></msub><mo>→</mo><mn>0</mn></math></mjx-assistive-mml></mjx-container> as n grows.</p>',
    );
    expect(markdown).toContain('Hence $x_n→0$ as n grows.');
    expect(markdown).not.toContain('glyphs');
  });

  it("escapes a formula's pipes in a table cell, as any cell text", () => {
    const markdown = md(
      '<table><tr><th>Name</th><th>Formula</th></tr><tr><td>norm</td><td><math><mo>|</mo><mi>x</mi><mo>|</mo></math></td></tr><tr><td>zero</td><td>0</td></tr></table>',
    );
    expect(markdown).toContain('| norm | $\\|x\\|$ |');
  });

  it('drops TeX comments before joining the lines, and a backslash left at the end', () => {
    const markdown = md(
      '<p>Split as</p><script type="math/tex; mode=display">a = b % the first term\n  + c \\% of d</script>' +
        '<p>and <script type="math/tex">x\\ </script> alone.</p>',
    );
    expect(markdown).toContain('$$a = b + c \\% of d$$');
    expect(markdown).toContain('and $x$ alone.');
  });

  it("writes MathJax 2's CommonHTML display formula once", () => {
    const markdown = md(
      '<p>Total:</p><span class="mjx-chtml MJXc-display"><span class="mjx-math"><span class="mjx-mrow">s=∑x</span></span>' +
        '<span class="MJX_Assistive_MathML"><math display="block"><mi>s</mi><mo>=</mo><mo>∑</mo><mi>x</mi></math></span></span>' +
        '<script type="math/tex; mode=display">s = \\sum x</script><p>done.</p>',
    );
    expect(markdown.match(/\$\$/g)).toHaveLength(2);
    expect(markdown).toContain('$$s = \\sum x$$');
  });

  it('escapes the dollar signs of prose on a page with formulas, and keeps two formulas apart', () => {
    const markdown = md(
      '<p>A gauge costs $25 and the error is <math><mi>x</mi></math><math><mi>y</mi></math> at most.</p>',
    );
    expect(markdown).toContain('A gauge costs \\$25 and the error is $x$ $y$ at most.');
  });

  it('keeps formulas apart that meet across elements', () => {
    const markdown = md(
      '<p>Pair <span><math><mi>a</mi></math></span><span><math><mi>b</mi></math></span> end, and <b><math><mi>c</mi></math></b></p>',
    );
    expect(markdown).toContain('Pair $a$ $b$ end, and **$c$**');
  });

  it("takes no formula, language or other mark from the page's own data-md attributes", () => {
    const markdown = md(
      '<p>A <span data-md-tex="x$ ![t](https://evil.example/p.png)\n\n# Injected">word</span> costs $5.</p><pre data-md-lang="js\n# x"><code>a = 1</code></pre>',
    );
    expect(markdown).toContain('A word costs $5.');
    expect(markdown).not.toContain('Injected');
    expect(markdown).not.toContain('evil');
    expect(markdown).toContain('```\na = 1\n```');
  });

  it('writes a long formula in linear time', () => {
    const long = '<mi>x</mi><mo>+</mo>'.repeat(40_000);
    expect(tex(long).length).toBe(40_000 * 2);
  });

  it('walks nested wrappers without MathML once (no formula to read, none lost)', () => {
    const nested = '<span class="katex">'.repeat(20_000) + 'plain words' + '</span>'.repeat(20_000);
    expect(md(`<p>Before ${nested} after.</p>`)).toContain('plain words');
  });

  it('leaves dollar signs of prose alone on a page without formulas', () => {
    expect(md('<p>Tickets cost $5 and $10 at the door.</p>')).toContain('Tickets cost $5 and $10 at the door.');
  });
});

describe('MathML to TeX', () => {
  it('writes scripts, fractions, roots and big operators with their limits', () => {
    expect(
      tex(
        '<msubsup><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></msubsup><mfrac><mn>1</mn><msup><mi>i</mi><mn>2</mn></msup></mfrac>',
      ),
    ).toBe('\\sum_{i=1}^n\\frac{1}{i^2}');
    expect(tex('<munderover><mo>∫</mo><mn>0</mn><mi>π</mi></munderover><mi>sin</mi><mo>&#x2061;</mo><mi>θ</mi>')).toBe(
      '\\int_0^π\\sin θ',
    );
    expect(tex('<msqrt><mi>x</mi><mo>+</mo><mn>1</mn></msqrt><mroot><mi>y</mi><mn>3</mn></mroot>')).toBe(
      '\\sqrt{x+1}\\sqrt[3]{y}',
    );
    expect(tex('<munder><mi>lim</mi><mrow><mi>x</mi><mo>→</mo><mn>0</mn></mrow></munder><mi>f</mi>')).toBe(
      '\\lim_{x→0}f',
    );
    expect(
      tex(
        '<mover accent="true"><mi>x</mi><mo>^</mo></mover><mover><mi>v</mi><mo>→</mo></mover><munder><mi>y</mi><mo>_</mo></munder>',
      ),
    ).toBe('\\hat{x}\\vec{v}\\underline{y}');
    expect(tex('<mover><mi>X</mi><mtext>def</mtext></mover>')).toBe('\\overset{\\text{def}}{X}');
  });

  it('escapes the characters TeX reads as syntax, in tokens and in text', () => {
    expect(tex('<mo>{</mo><mi>x</mi><mo>|</mo><mi>x</mi><mo>&gt;</mo><mn>0</mn><mo>}</mo>')).toBe('\\{x|x>0\\}');
    expect(tex('<mn>50</mn><mo>%</mo><mo>+</mo><mi>y</mi>')).toBe('50\\%+y');
    expect(tex('<mi>a</mi><mo>&amp;</mo><mi>#</mi><mo>~</mo><mi>b</mi>')).toBe('a\\&\\#\\sim b');
    expect(tex('<mtext>costs $5 &amp; 10%</mtext>')).toBe('\\text{costs \\$5 \\& 10\\%}');
    expect(tex('<mfenced open="{" close="}"><mi>a</mi><mi>b</mi></mfenced>')).toBe('\\{a,b\\}');
  });

  it('writes binomials, font variants, labelled rows and spaces as TeX does', () => {
    expect(tex('<mrow><mo>(</mo><mfrac linethickness="0"><mi>n</mi><mi>k</mi></mfrac><mo>)</mo></mrow>')).toBe(
      '(\\genfrac{}{}{0pt}{}{n}{k})',
    );
    expect(
      tex(
        '<mi mathvariant="double-struck">R</mi><mi mathvariant="bold">v</mi><mi mathvariant="normal">d</mi><mi mathvariant="normal">sin</mi>',
      ),
    ).toBe('\\mathbb{R}\\mathbf{v}\\mathrm{d}\\sin');
    expect(tex('<mtable><mlabeledtr><mtd><mtext>(1)</mtext></mtd><mtd><mi>a</mi></mtd></mlabeledtr></mtable>')).toBe(
      '\\begin{matrix} a \\end{matrix}',
    );
    expect(tex('<mi>a</mi><mspace width="1em"></mspace><mi>b</mi>')).toBe('a\\,b');
  });

  it('writes fences, matrices and text', () => {
    expect(tex('<mfenced><mi>a</mi><mi>b</mi></mfenced>')).toBe('(a,b)');
    expect(tex('<mfenced open="[" close="]" separators=";"><mi>a</mi><mi>b</mi></mfenced>')).toBe('[a;b]');
    expect(
      tex(
        '<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable>',
      ),
    ).toBe('\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}');
    expect(tex('<mi>x</mi><mtext> if {a} </mtext><mi>y</mi>')).toBe('x\\text{ if \\{a\\} }y');
  });

  it('converts each part once, however deep scripts and limits nest', () => {
    // Converting a base twice at every level took 2^depth steps: 40 levels would be days.
    const nested = '<munder>'.repeat(40) + '<mi>x</mi>' + '<mi>y</mi></munder>'.repeat(40);
    expect(tex(nested)).toBe('\\underset{y}{'.repeat(39) + '\\underset{y}{x}' + '}'.repeat(39));
    const tables = '<mtable><mtr><mtd>'.repeat(30) + '<mn>1</mn>' + '</mtd></mtr></mtable>'.repeat(30);
    expect(tex(tables)).toContain('1');
  });

  it("writes MathML nested past any formula's depth as its text, without overflowing the stack", () => {
    const deep = '<mrow>'.repeat(20_000) + '<mi>z</mi>' + '</mrow>'.repeat(20_000);
    expect(tex(deep)).toBe('z');
  });
});
