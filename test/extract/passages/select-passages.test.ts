import { describe, expect, it } from 'vitest';
import { selectPassages, splitPassages } from '../../../src/extract/passages/index.js';

// A page as our converter writes it: headings, paragraphs, a list, a table, code.
const PAGE = `# Golden Gate Bridge

The Golden Gate Bridge is a suspension bridge spanning the Golden Gate, the one-mile-wide strait connecting San Francisco Bay and the Pacific Ocean. The structure links the city of San Francisco to Marin County.

## History

### Planning

The idea of a bridge spanning the strait had been proposed as early as 1872 by railroad entrepreneur Charles Crocker. Joseph Strauss, an engineer responsible for more than 400 drawbridges, was the chief engineer for the project.

### Construction

Construction began on January 5, 1933. The project cost more than $35 million and was completed ahead of schedule and under budget. Eleven men were killed in falls during construction.

The bridge was opened to vehicle traffic on May 28, 1937, when President Roosevelt pushed a telegraph key in Washington.

## Design

### Color

The color of the bridge is an orange vermilion called International Orange. The color was selected by consulting architect Irving Morrow because it complements the natural surroundings yet enhances the bridge's visibility in fog.

### Dimensions

| Measure | Value |
| --- | --- |
| Total length | 8,981 ft |
| Main span | 4,200 ft |
| Tower height | 746 ft |

## Traffic

The bridge carries about 112,000 vehicles a day. Tolls are collected only from southbound traffic:

- FasTrak electronic toll collection
- License plate accounts
- One-time payments online

## Access for developers

\`\`\`sh
curl https://example.org/api/bridge-status
\`\`\`
`;

function answerOf(query: string, max = 1): string {
  return selectPassages(PAGE, query, max)
    .map((p) => p.text)
    .join('\n');
}

describe('selectPassages', () => {
  it('picks the passage that answers a paraphrased question', () => {
    expect(answerOf('When did they begin constructing it?')).toContain('January 5, 1933');
    expect(answerOf('How many people were killed building it?')).toContain('Eleven men were killed');
    expect(answerOf("Who picked the bridge's color?")).toContain('Irving Morrow');
    expect(answerOf('who was the chief engineer')).toContain('Joseph Strauss');
    expect(answerOf('how many cars cross each day')).toContain('112,000 vehicles');
  });

  it("prefers the passage whose value of the kind asked for shares a sentence with the question's words", () => {
    // The first passage matches better (its heading too) and holds a number, but in another sentence.
    const md = [
      '## The carrier planes',
      '',
      'The carrier repaints its planes every year. Its hub opened in 1985.',
      '',
      '## Food',
      '',
      'Meals on board are served hot, with tea and bread.',
      '',
      '## Staff',
      '',
      'Cabin crews train for six weeks before they fly.',
      '',
      '## Orders',
      '',
      'The carrier counted 270 planes last month, a record.',
    ].join('\n');
    const [best] = selectPassages(md, 'How many planes does the carrier have?', 1);
    expect(best?.text).toContain('270 planes');
    // The same with a link in the sentence: its target is left out of the words, the sentence weighed again.
    const linked = md.replace('counted 270 planes', 'counted [270 planes](https://fleet.example/list.html?a=1)');
    expect(selectPassages(linked, 'How many planes does the carrier have?', 1)[0]?.text).toContain('270 planes');
    // Without a question word asking for a number, the better match stays first.
    expect(selectPassages(md, 'carrier planes', 1)[0]?.heading_path).toEqual(['The carrier planes']);
  });

  it('meets a word whose stem changes its third letter, and a long stem by its first three', () => {
    const md = ['## Shop', '', 'Buying a boat takes a day.', '', '## Lines', '', 'Two connections run at night.'].join(
      '\n',
    );
    expect(selectPassages(md, 'buy', 1)[0]?.text).toBe('Buying a boat takes a day.');
    expect(selectPassages(md, 'connected', 1)[0]?.text).toBe('Two connections run at night.');
  });

  it('uses the heading path: a question about a section finds it through its heading', () => {
    expect(answerOf('what are the dimensions')).toContain('| Main span | 4,200 ft |');
  });

  it('prefers the passage where the query words stand together (phrase, proximity)', () => {
    const md = [
      '## A',
      '',
      'A toll rise came first; years after, the plaza closed.',
      '',
      '## B',
      '',
      'The toll plaza was rebuilt in 2013 with open road tolling, new signs and wider lanes for the trucks.',
    ].join('\n');
    const [best] = selectPassages(md, 'toll plaza', 1);
    expect(best?.heading_path).toEqual(['B']);
  });

  it('returns the best passages in page order with their scores, at most maxPassages', () => {
    const passages = selectPassages(PAGE, 'bridge construction color toll', 3);
    expect(passages).toHaveLength(3);
    for (let i = 1; i < passages.length; i++)
      expect(passages[i]!.start_char).toBeGreaterThan(passages[i - 1]!.start_char);
    for (const p of passages) {
      expect(p.score).toBeGreaterThan(0);
      expect(PAGE.slice(p.start_char, p.end_char)).toBe(p.text);
    }
    // The lowest returned score is at least every score left out.
    const all = splitPassages(PAGE);
    const chosen = new Set(passages.map((p) => p.start_char));
    const floor = Math.min(...passages.map((p) => p.score));
    const rest = selectPassages(PAGE, 'bridge construction color toll', all.length).filter(
      (p) => !chosen.has(p.start_char),
    );
    for (const p of rest) expect(p.score).toBeLessThanOrEqual(floor);
  });

  describe('links and images rank on what a reader sees', () => {
    // Each section of its own: the row of links and the image cannot join a neighbour.
    const page = [
      '## Crossing times',
      '',
      'The island ferry keeps one timetable all year: the first ferry leaves the harbour at 6:40 on weekdays and at 8:10 on Sundays, and the last one leaves the island at 22:15, an hour earlier in January.',
      '',
      '## See also',
      '',
      'Related pages: [Island ferry timetable](https://example.org/ferry/timetable), [Island ferry fares](https://example.org/ferry/fares), [Harbour parking](https://example.org/parking).',
      '',
      '## Gallery',
      '',
      '![The island ferry timetable board at the harbour](https://example.org/img/timetable-board.jpg)',
    ].join('\n');

    it('puts a passage of text above a row of links or an image-only line that match as well', () => {
      const [best] = selectPassages(page, 'island ferry timetable', 1);
      expect(best?.heading_path).toEqual(['Crossing times']);
    });

    it('still finds them when nothing else answers, their offsets truthful', () => {
      const found = selectPassages(page, 'fares', 3);
      expect(found.map((p) => p.heading_path)).toEqual([['See also']]);
      const board = selectPassages(page, 'board', 3);
      expect(board.map((p) => p.heading_path)).toEqual([['Gallery']]);
      for (const p of [...found, ...board]) expect(page.slice(p.start_char, p.end_char)).toBe(p.text);
    });

    it("never counts a link's target: a word only in URLs matches nothing", () => {
      expect(selectPassages(page, 'parking example org', 3).map((p) => p.heading_path)).toEqual([['See also']]);
      expect(selectPassages(page, 'jpg', 3)).toEqual([]);
    });
  });

  describe('a lead-in the passage before already shows is not repeated', () => {
    const plain = 'a plain fare for one crossing of the bay';
    const items = (special: Record<number, string>) =>
      Array.from({ length: 36 }, (_, i) => `- Ticket ${i}: ${special[i] ?? plain}.`).join('\n');
    const leadIn = 'The ferry company sells these tickets:';
    const pageWith = (special: Record<number, string>, after = '') =>
      `## Tickets\n\n${leadIn}\n\n${items(special)}\n\n## Notes\n\nOur crews wave to every boat they meet.${after}`;

    it('leaves lead_in out where the previous passage holds the lead-in itself', () => {
      const md = pageWith({ 2: 'the seaweed pass covers every crossing', 30: 'the seaweed pass is valid all week' });
      // Two: a third would be a neighbour of a match (RANKING.neighbourWeight).
      const found = selectPassages(md, 'seaweed pass', 2);
      expect(found).toHaveLength(2);
      expect(found[0]?.text).toContain(leadIn);
      expect(found[1]?.text).toContain('Ticket 30');
      expect(found[1]).not.toHaveProperty('lead_in');
      // splitPassages still names it: only the answer knows what came before.
      const later = splitPassages(md).find((p) => p.start_char === found[1]?.start_char);
      expect(later?.lead_in).toBe(leadIn);
    });

    it('keeps it once where the previous passage carried the same lead-in, and where it showed another', () => {
      const md = pageWith(
        { 12: 'the seaweed pass covers every crossing', 30: 'the seaweed pass is valid all week' },
        ' The seaweed pass is sold on board.',
      );
      const found = selectPassages(md, 'seaweed pass', 3);
      expect(found.map((p) => p.lead_in)).toEqual([leadIn, undefined, undefined]);
      const alone = selectPassages(pageWith({ 30: 'the seaweed pass is valid all week' }), 'seaweed pass', 1);
      expect(alone.map((p) => p.lead_in)).toEqual([leadIn]);
    });

    it('repeats a header the previous passage holds in another table of the same header', () => {
      const head = '| Route | Minutes |\n| --- | --- |';
      const rows = (from: number) =>
        Array.from({ length: 30 }, (_, i) => `| Route ${from + i} | ${20 + i} minutes across the bay |`).join('\n');
      const md = `## Summer\n\n${head}\n| Lighthouse loop | 45 |\n${rows(0)}\n\n## Winter\n\n${head}\n${rows(100)}\n| Lighthouse loop | 60 |`;
      const found = selectPassages(md, 'lighthouse loop', 2);
      expect(found).toHaveLength(2);
      expect(found[0]?.text).toContain(head);
      expect(found[1]?.lead_in).toBe(head);
    });
  });

  it('is deterministic', () => {
    const first = selectPassages(PAGE, 'Golden Gate bridge history', 5);
    for (let i = 0; i < 5; i++) expect(selectPassages(PAGE, 'Golden Gate bridge history', 5)).toEqual(first);
  });

  it('returns [] for a query of stop words only, an empty query, a query that matches nothing, or maxPassages 0', () => {
    // Nothing: neither the words nor their relatives (wordnet.ts) are on the page.
    expect(selectPassages(PAGE, 'what is the', 3)).toEqual([]);
    expect(selectPassages(PAGE, '   ', 3)).toEqual([]);
    expect(selectPassages(PAGE, 'zyxwv qwertyuiop', 3)).toEqual([]);
    expect(selectPassages(PAGE, 'bridge', 0)).toEqual([]);
    expect(selectPassages('', 'bridge', 3)).toEqual([]);
  });

  it('finds Chinese and Japanese passages through Intl.Segmenter words', () => {
    const zh = '# 城市\n\n## 北京\n\n北京是中国的首都，有很多大学。\n\n## 上海\n\n上海是一个港口城市，人口很多。';
    expect(selectPassages(zh, '中国的首都是哪里', 1)[0]?.text).toContain('北京是中国的首都');
    const ja = '## 東京\n\n東京タワーは高い建物です。\n\n## 大阪\n\n大阪城は有名な城です。';
    expect(selectPassages(ja, '大阪城', 1, { language: 'ja' })[0]?.text).toContain('大阪城は有名');
  });

  it("drops the page language's stop words from the query", () => {
    const md =
      '## Eins\n\nDie Katze und der Hund spielen.\n\n## Zwei\n\nDie Brücke ist und bleibt rot, die Brücke und die Farbe.';
    // "die" and "und" are everywhere: with German stop words only "katze" counts.
    expect(selectPassages(md, 'die Katze und', 1, { language: 'de' })[0]?.heading_path).toEqual(['Eins']);
    expect(selectPassages(md, 'die und', 1, { language: 'de' })).toEqual([]);
    // Without the page's language they are words like any other.
    expect(selectPassages(md, 'die und', 1)[0]?.heading_path).toEqual(['Zwei']);
  });
});
