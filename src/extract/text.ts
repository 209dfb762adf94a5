/**
 * Plain text and Markdown pass through as they are, tidied only where it cannot change
 * what the Markdown means: line endings become LF, stray control characters go, trailing
 * blanks are trimmed (a Markdown hard break keeps its two spaces), long runs of blank lines
 * shrink. Inside fenced code blocks whitespace is content, so only control characters go.
 */

/** Control characters other than tab and LF (form feeds of paginated text included). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g; // eslint-disable-line no-control-regex
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
/** Cheap pre-check so most lines skip the fence regex. */
const MAY_OPEN_FENCE = /^ {0,3}[`~]/;

/** Plain text: at most two blank lines in a row (a section gap survives, a page of nothing does not). */
export function convertText(text: string): string {
  return tidy(text, { markdown: false });
}

/** Markdown: one blank line between blocks is all Markdown distinguishes. */
export function convertMarkdown(text: string): string {
  return tidy(text, { markdown: true });
}

function tidy(text: string, options: { markdown: boolean }): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(CONTROL, '').split('\n');
  const maxBlankRun = options.markdown ? 1 : 2;
  const out: string[] = [];
  let fence: string | null = null;
  let blankRun = 0;

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (fence !== null) {
      out.push(line);
      if (isFenceClose(line, fence)) fence = null;
      continue;
    }
    if (options.markdown && MAY_OPEN_FENCE.test(line)) {
      const open = FENCE_OPEN.exec(line);
      // A backtick fence's info string may not contain backticks (CommonMark 4.5).
      if (open !== null && !(open[1]!.startsWith('`') && line.slice(open[0].length).includes('`'))) {
        fence = open[1]!;
        blankRun = 0;
        out.push(line.trimEnd());
        continue;
      }
    }
    const trimmed = line.trimEnd();
    if (trimmed === '') {
      blankRun++;
      if (blankRun <= maxBlankRun && out.length > 0) out.push('');
      continue;
    }
    blankRun = 0;
    const next = lines[index + 1];
    const hardBreak = options.markdown && / {2,}$/.test(line) && next !== undefined && next.trim() !== '';
    out.push(hardBreak ? `${trimmed}  ` : trimmed);
  }
  return out.join('\n').trimEnd();
}

function isFenceClose(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return match !== null && match[1]![0] === fence[0] && match[1]!.length >= fence.length;
}

/**
 * `text` in a fenced code block whose fence is longer than any backtick run inside, so
 * the content can never close it early.
 */
export function fencedBlock(text: string, language: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = text.replace(/\r\n?/g, '\n').replace(/^\n+|\s+$/g, '');
  return `${fence}${language}\n${body}\n${fence}`;
}

/**
 * The title of a Markdown document: front-matter `title:`, else the first ATX `# ` heading
 * outside fenced code (a shell comment in a code block is no heading).
 */
export function markdownTitle(markdown: string): string | undefined {
  const frontMatter = /^---\n([\s\S]*?)\n(?:---|\.\.\.)\n/.exec(markdown);
  if (frontMatter !== null) {
    const title = /^title:\s*(.+)$/m.exec(frontMatter[1]!);
    if (title !== null) {
      const value = title[1]!
        .trim()
        .replace(/^(["'])(.*)\1$/, '$2')
        .trim();
      if (value !== '') return value;
    }
  }
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    if (fence !== null) {
      if (isFenceClose(line, fence)) fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open !== null) {
      fence = open[1]!;
      continue;
    }
    const heading = /^ {0,3}# +(.+?)(?: +#+)? *$/.exec(line);
    if (heading !== null) return heading[1]!.trim();
  }
  return undefined;
}
