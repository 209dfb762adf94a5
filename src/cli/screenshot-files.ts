/**
 * `extract --screenshot` in the page text: each page's PNG written to a file named from its
 * URL, its path said on stderr, since text has no place for the base64 the API returns.
 */
import { accessSync, constants, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExtractResult } from '../core/schemas.js';
import { UsageError } from './args.js';

/** Longest file name made from a URL, before `.png` and a number: far below the usual 255-byte limit. */
const MAX_NAME = 120;

/** A file name for a URL's screenshot: its host, path and query, every run of other characters as one dash. */
export function screenshotName(url: string): string {
  let text = url;
  try {
    const u = new URL(url);
    text = `${u.host}${u.pathname}${u.search}`;
  } catch {
    // Only a URL that succeeded has a screenshot; the text as it is otherwise.
  }
  const name = text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .slice(0, MAX_NAME)
    .replace(/^[-.]+|[-.]+$/g, '');
  return name === '' ? 'page' : name;
}

export class ScreenshotFiles {
  readonly #dir: string;
  readonly #taken = new Set<string>();

  /**
   * Creates `dir` when missing (one level: Node 20's recursive mkdir never returns under
   * /proc) and checks that it is a directory this process can write to, or throws a
   * UsageError naming --screenshot-dir.
   */
  constructor(dir: string) {
    try {
      try {
        mkdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      accessSync(dir, constants.W_OK);
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UsageError(
        `--screenshot-dir ${JSON.stringify(dir)} is no directory this process can write to (${why})`,
      );
    }
    this.#dir = dir;
  }

  /**
   * Writes the result's PNG and says where on stderr; false when it could not be written
   * (said too). Two URLs that make one name get `-2`, `-3`: none overwrites another of this run.
   */
  save(result: ExtractResult): boolean {
    if (result.screenshot === undefined) return true;
    const base = screenshotName(result.url);
    let name = `${base}.png`;
    for (let n = 2; this.#taken.has(name); n++) name = `${base}-${n}.png`;
    this.#taken.add(name);
    const path = join(this.#dir, name);
    try {
      writeFileSync(path, Buffer.from(result.screenshot, 'base64'));
    } catch (error) {
      process.stderr.write(`${result.url}: screenshot not saved to ${path}: ${(error as Error).message}\n`);
      return false;
    }
    process.stderr.write(`${result.url}: screenshot ${path}\n`);
    return true;
  }
}
