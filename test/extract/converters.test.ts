import { describe, expect, it } from 'vitest';
import { convertCsv, parseCsv, sniffDelimiter } from '../../src/extract/csv.js';
import { convertJson } from '../../src/extract/json.js';
import { convertMarkdown, convertText, fencedBlock, markdownTitle } from '../../src/extract/text.js';

describe('convertText', () => {
  it('normalises line endings and trims trailing blanks', () => {
    expect(convertText('one  \r\ntwo\t\rthree\r\n')).toBe('one\ntwo\nthree');
  });

  it('keeps indentation and at most two blank lines in a row', () => {
    expect(convertText('\n\n  indented\n\n\n\n\nnext\n\n\nlast\n\n')).toBe('  indented\n\n\nnext\n\n\nlast');
  });

  it('drops control characters but keeps tabs', () => {
    expect(convertText('page one\fpage two\u0000\u0007\tcolumn')).toBe('page onepage two\tcolumn');
  });

  it('leaves Markdown-looking characters alone', () => {
    expect(convertText('# not a heading?\n*stars*')).toBe('# not a heading?\n*stars*');
  });
});

describe('convertMarkdown', () => {
  it('collapses blank-line runs to one and keeps hard breaks', () => {
    expect(convertMarkdown('# Title\r\n\r\n\r\n\r\nLine with break  \r\nnext line   \r\n\r\nend  \r\n')).toBe(
      '# Title\n\nLine with break  \nnext line\n\nend',
    );
  });

  it('leaves fenced code blocks as they are', () => {
    const source = 'Intro\n\n```python\ndef f():   \n\n\n\n    return 1  \n```\n\n\n~~~~\n``` not a close\n~~~~\nafter';
    expect(convertMarkdown(source)).toBe(
      'Intro\n\n```python\ndef f():   \n\n\n\n    return 1  \n```\n\n~~~~\n``` not a close\n~~~~\nafter',
    );
  });

  it('keeps an unclosed fence to the end', () => {
    expect(convertMarkdown('a\n```\ncode  \n\nmore\n\n\n')).toBe('a\n```\ncode  \n\nmore');
  });

  it('finds the title in front matter or the first heading outside code', () => {
    expect(markdownTitle('---\ntitle: "Front matter title"\ndate: 2024-01-01\n---\n# Heading')).toBe(
      'Front matter title',
    );
    expect(markdownTitle('```sh\n# install it\nnpm i\n```\n\n# Real heading #\n')).toBe('Real heading');
    expect(markdownTitle('no heading here\n## second level')).toBeUndefined();
  });
});

describe('fencedBlock', () => {
  it('uses a fence longer than any backtick run inside', () => {
    expect(fencedBlock('a ``` b', 'json')).toBe('````json\na ``` b\n````');
    expect(fencedBlock('\n\nplain\n\n', 'xml')).toBe('```xml\nplain\n```');
  });
});

describe('CSV', () => {
  it('renders a GFM table with the first row as header', () => {
    expect(convertCsv('name,age\r\nAda,36\r\nAlan,41\r\n')).toBe(
      '| name | age |\n| --- | --- |\n| Ada | 36 |\n| Alan | 41 |',
    );
  });

  it('handles quoted fields, escaped quotes, delimiters and line breaks inside quotes', () => {
    const csv = 'id,quote,note\n1,"He said ""hi""","a, b"\n2,"line one\nline two","pipe | here"\n';
    expect(convertCsv(csv)).toBe(
      '| id | quote | note |\n| --- | --- | --- |\n| 1 | He said "hi" | a, b |\n| 2 | line one line two | pipe \\| here |',
    );
  });

  it('pads ragged rows and skips blank lines', () => {
    expect(convertCsv('a,b\n1\n\n2,3,4\n')).toBe('| a | b |  |\n| --- | --- | --- |\n| 1 |  |  |\n| 2 | 3 | 4 |');
  });

  it('sniffs semicolon and tab delimiters', () => {
    expect(sniffDelimiter('Name;Preis\nKaffee;2,50\nTee;1,80\n')).toBe(';');
    expect(sniffDelimiter('a\tb\tc\n1\t2\t3\n')).toBe('\t');
    expect(sniffDelimiter('a,b\n1,2\n')).toBe(',');
    expect(sniffDelimiter('single column\nvalue\n')).toBe(',');
    expect(convertCsv('Name;Preis\nKaffee;2,50\n')).toBe('| Name | Preis |\n| --- | --- |\n| Kaffee | 2,50 |');
  });

  it('takes an explicit delimiter (TSV)', () => {
    expect(convertCsv('a,1\tb\nc\td,2\n', { delimiter: '\t' })).toBe('| a,1 | b |\n| --- | --- |\n| c | d,2 |');
  });

  it('is lenient with stray quotes and parses a last line without break', () => {
    expect(parseCsv('a"b,"c"d\ne,f', ',')).toEqual([
      ['a"b', 'cd'],
      ['e', 'f'],
    ]);
    expect(parseCsv('x,\n', ',')).toEqual([['x', '']]);
    expect(convertCsv('')).toBe('');
    expect(convertCsv('\n\n')).toBe('');
  });

  it('pads only the header when padding every row would blow up the output', () => {
    const csv = `${Array.from({ length: 5000 }, (_, i) => `c${i}`).join(',')}\n${'x\n'.repeat(5000)}`;
    const table = convertCsv(csv);
    expect(table.length).toBeLessThan(csv.length * 4);
    expect(table.split('\n')[2]).toBe('| x |');
  });

  it('renders a large file quickly', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => `${i},"name ${i}",${i * 1.5}`).join('\n');
    const started = performance.now();
    const table = convertCsv(`id,name,value\n${rows}`);
    expect(table.split('\n')).toHaveLength(100_002);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('JSON', () => {
  it('pretty-prints with a 2-space indent in a json fence', () => {
    expect(convertJson('{"a":1,"b":[true,null,{"c":"d"}],"e":{},"f":[]}')).toBe(
      '```json\n{\n  "a": 1,\n  "b": [\n    true,\n    null,\n    {\n      "c": "d"\n    }\n  ],\n  "e": {},\n  "f": []\n}\n```',
    );
  });

  it('keeps numbers and string escapes exactly as served', () => {
    expect(convertJson('{"id":12345678901234567890,"x":1.0,"s":"caf\\u00e9 \\"q\\" , : { ["}')).toBe(
      '```json\n{\n  "id": 12345678901234567890,\n  "x": 1.0,\n  "s": "caf\\u00e9 \\"q\\" , : { ["\n}\n```',
    );
  });

  it('handles scalars and a leading BOM', () => {
    expect(convertJson('\ufeff "text" ')).toBe('```json\n"text"\n```');
    expect(convertJson('42')).toBe('```json\n42\n```');
    expect(convertJson('   ')).toBe('');
  });

  it('shows deeply nested JSON as served instead of indenting it into gigabytes', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const started = performance.now();
    expect(convertJson(deep)).toBe(`\`\`\`json\n${deep}\n\`\`\``);
    expect(performance.now() - started).toBeLessThan(1000);
    const nested = `${'{"a":'.repeat(10)}1${'}'.repeat(10)}`;
    expect(convertJson(nested).split('\n')).toHaveLength(23);
  });

  it('copes with a multi-megabyte string value', () => {
    const value = JSON.stringify('ab\\"c'.repeat(1_000_000));
    expect(convertJson(`{"blob":${value}}`)).toBe(`\`\`\`json\n{\n  "blob": ${value}\n}\n\`\`\``);
  });

  it('fences invalid JSON as it is rather than failing', () => {
    expect(convertJson('callback({"a":1})')).toBe('```json\ncallback({"a":1})\n```');
    expect(convertJson('{"a":1}\n{"a":2}\n')).toBe('```json\n{"a":1}\n{"a":2}\n```');
    expect(convertJson('{"code":"```"}')).toBe('````json\n{\n  "code": "```"\n}\n````');
  });
});
