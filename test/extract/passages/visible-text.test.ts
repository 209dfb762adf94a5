import { describe, expect, it } from 'vitest';
import { countWords, isMostlyLinked, linkedWords } from '../../../src/extract/passages/visible-text.js';

describe('visible text', () => {
  it("counts a link's text and an image's alt as linked words, never a target", () => {
    const row =
      'Further reading: [tide tables](https://example.org/tides/2025/tables), [harbour map](https://example.org/map).';
    expect([countWords(row), linkedWords(row)]).toEqual([6, 4]);
    expect(linkedWords('![A heron on the jetty](https://example.org/heron.jpg "Morning (early)")')).toBe(5);
    // A linked image is its alt text once.
    expect(linkedWords('[![Ferry timetable](https://example.org/t.png)](https://example.org/timetable)')).toBe(2);
    expect(linkedWords('No links, only [brackets] and (parentheses).')).toBe(0);
    // A run without spaces counts as its characters over two, as the ranker counts it.
    expect(linkedWords('[北京大学](https://example.org/pku) 在北京')).toBe(2);
  });

  it('calls a stretch mostly linked when its own words are no more than its link and alt words', () => {
    const mostlyLinked = (text: string) => isMostlyLinked(text, countWords(text));
    expect(mostlyLinked('Related reports: [Harbour survey](/a), [Dredging plan](/b).')).toBe(true);
    expect(mostlyLinked('- [All routes](https://example.org/routes)\n- Timetables')).toBe(true);
    expect(mostlyLinked('![Cranes at dusk](/cranes.jpg)')).toBe(true);
    expect(mostlyLinked('The [survey](/a) counted every boat moored in the harbour.')).toBe(false);
    expect(mostlyLinked('A line with no link at all.')).toBe(false);
  });

  it('stays linear on a page of stray brackets and unclosed targets', () => {
    for (const hostile of ['[a]('.repeat(40_000), '[\\['.repeat(40_000), `${'[a ['.repeat(30_000)}](x`]) {
      const started = performance.now();
      expect(linkedWords(hostile)).toBe(0);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});

describe('code', () => {
  it('holds no links: a fenced block is read as code, to its closing fence or the end', () => {
    const fenced = '```md\n[a](https://example.org/a) [b](https://example.org/b)\n```';
    expect(linkedWords(fenced)).toBe(0);
    expect(linkedWords(`${fenced}\n\nThen [c](https://example.org/c).`)).toBe(1);
    expect(linkedWords('~~~~\n[a](/a)\n~~~\n[b](/b)\n~~~~\n[c](/c)')).toBe(1);
    expect(linkedWords('```\n[a](/a)\n[b](/b)')).toBe(0);
    expect(isMostlyLinked(fenced, countWords(fenced))).toBe(false);
  });
});
