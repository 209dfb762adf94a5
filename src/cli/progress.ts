/**
 * The progress line of long CLI work (`extract`, `search --content`): URLs done, failures
 * and time elapsed, on stderr, overwritten in place. Drawn only when stderr is a terminal:
 * a log file or a pipe gets no carriage returns. Output printed while it shows goes through
 * `print`, which clears the line first and draws it again after.
 */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Carriage return and "erase to the end of the line" (ECMA-48 EL, CSI K). */
const CLEAR = '\r\u001b[K';

export class ProgressLine {
  readonly #stream: ProgressStream;
  readonly #what: string;
  readonly #now: () => number;
  readonly #started: number;
  #total: number;
  #done = 0;
  #failed = 0;
  #shown = false;
  #ticker: NodeJS.Timeout | undefined;

  readonly #countsFailures: boolean;

  /** `countsFailures`: whether `step` learns of failures (a search's content pages report only that they finished). */
  constructor(
    stream: ProgressStream,
    total: number,
    options: { what?: string; countsFailures?: boolean; now?: () => number } = {},
  ) {
    this.#stream = stream;
    this.#total = total;
    this.#what = options.what ?? 'URLs';
    this.#countsFailures = options.countsFailures ?? true;
    this.#now = options.now ?? (() => performance.now());
    this.#started = this.#now();
  }

  get active(): boolean {
    return this.#stream.isTTY === true;
  }

  /** The line as drawn: "3/10 URLs done, 1 failed, 2.4 s". */
  text(): string {
    const seconds = ((this.#now() - this.#started) / 1000).toFixed(1);
    const failed = this.#countsFailures ? `, ${this.#failed} failed` : '';
    return `${this.#done}/${this.#total} ${this.#what} done${failed}, ${seconds} s`;
  }

  /** Draws the line, and again each second so that the time elapsed moves while a slow page holds it. */
  start(): void {
    this.#draw();
    if (this.active && this.#ticker === undefined) this.#ticker = setInterval(() => this.#draw(), 1000).unref();
  }

  /** One more finished; `total` as the work now knows it (duplicates share one fetch). */
  step(failed: boolean, total = this.#total): void {
    this.#done += 1;
    if (failed) this.#failed += 1;
    this.#total = total;
    this.#draw();
  }

  /** Writes output (a page, an error line) without tearing the progress line. */
  print(write: () => void): void {
    this.#clear();
    write();
    this.#draw();
  }

  /** Removes the line: the work is done. */
  finish(): void {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    this.#clear();
  }

  #draw(): void {
    if (!this.active) return;
    this.#stream.write(`${CLEAR}${this.text()}`);
    this.#shown = true;
  }

  #clear(): void {
    if (!this.#shown) return;
    this.#stream.write(CLEAR);
    this.#shown = false;
  }
}
