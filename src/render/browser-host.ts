/**
 * The one browser a renderer uses: opened on first use (a server that never renders never
 * starts or connects to one), shared by every render, forgotten as soon as it disconnects
 * (a crash, a kill, a remote browser's connection lost) and opened again by the next call.
 * Where the browser comes from is its source's business: launched here (local-browser.ts)
 * or connected to (remote-browser.ts).
 */
import type { Browser } from 'playwright-core';
import type { Logger } from '../core/logger.js';

/** What a source hands out: the browser, with whatever it started along with it. */
export interface Opened {
  browser: Browser;
}

export interface BrowserSource<L extends Opened> {
  /** What logs and errors call the browser ("the headless browser", "the remote browser"). */
  readonly name: string;
  /** A new browser: launched, or connected to. Rejects when that fails. */
  open(): Promise<L>;
  /** Ends one (closes or disconnects, with what it started), whatever state it is in; called once per browser. */
  close(opened: L): Promise<void>;
}

export interface BrowserHostOptions<L extends Opened> {
  source: BrowserSource<L>;
  logger: Logger;
}

export class BrowserHost<L extends Opened> {
  readonly #source: BrowserSource<L>;
  readonly #logger: Logger;
  #current: Promise<L> | undefined;
  /** What `#current` resolved to, so that dropping it takes effect at once. */
  #opened: L | undefined;
  #version: string | undefined;
  /** Each open browser's own record, for its shutdown. */
  readonly #records = new WeakMap<Browser, L>();
  /** Browsers this host is closing itself (their disconnection is no crash), and how. */
  readonly #closing = new WeakMap<Browser, Promise<void>>();
  #closed = false;

  constructor(options: BrowserHostOptions<L>) {
    this.#source = options.source;
    this.#logger = options.logger;
  }

  /** What logs and errors call this host's browser. */
  get name(): string {
    return this.#source.name;
  }

  /** The running browser, opened if there is none. Rejects when opening fails (the next call tries again). */
  browser(): Promise<L> {
    if (this.#closed) return Promise.reject(new Error('the renderer is closed'));
    this.#current ??= this.#open();
    return this.#current;
  }

  /** The running browser, if one is up (none while opening). */
  current(): L | undefined {
    return this.#opened;
  }

  /** The browser's version ("156.0.8078.108") once one was opened. */
  version(): string | undefined {
    return this.#version;
  }

  /** Forgets `browser` (crashed, hung, disconnected) and ends it; the next call opens a fresh one. */
  drop(browser: Browser): void {
    if (this.#opened?.browser === browser) {
      this.#current = undefined;
      this.#opened = undefined;
    }
    void this.#shutdown(browser);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    this.#current = undefined;
    this.#opened = undefined;
    const opened = await current?.catch(() => undefined);
    if (opened) await this.#shutdown(opened.browser);
  }

  async #open(): Promise<L> {
    const started = performance.now();
    const name = this.#source.name;
    try {
      const opened = await this.#source.open();
      const { browser } = opened;
      this.#records.set(browser, opened);
      this.#version = browser.version();
      browser.on('disconnected', () => {
        if (this.#closing.has(browser)) return;
        this.#logger.warn({ version: this.#version }, `${name} disconnected; the next render opens a new one`);
        this.drop(browser);
      });
      this.#logger.info({ version: this.#version, ms: Math.round(performance.now() - started) }, `${name} is up`);
      if (this.#closed) {
        await this.#shutdown(browser);
        throw new Error('the renderer is closed');
      }
      this.#opened = opened;
      return opened;
    } catch (error) {
      // A failure is not cached: the next render tries again.
      this.#current = undefined;
      throw error;
    }
  }

  /** Ends the browser through its source, once per browser. */
  #shutdown(browser: Browser): Promise<void> {
    const opened = this.#records.get(browser);
    const closing =
      this.#closing.get(browser) ??
      (opened ? this.#source.close(opened) : browser.close()).catch((error: unknown) =>
        this.#logger.debug({ err: error }, `closing ${this.#source.name} failed`),
      );
    this.#closing.set(browser, closing);
    return closing;
  }
}
