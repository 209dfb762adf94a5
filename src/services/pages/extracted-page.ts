/** What the page journey answers: a page (cached or fresh) or that URL's error, and the step that raised it. */
import type { AppError } from '../../core/errors.js';
import type { Passage } from '../../extract/passages/index.js';
import type { ConvertOutput } from '../../extract/types.js';
import type { PageFailureStep } from './page-step-names.js';

export interface ExtractedPage {
  statusCode: number;
  finalUrl: string;
  output: ConvertOutput;
  /** Whether `output` comes from the page rendered in the headless browser. */
  rendered: boolean;
  /**
   * When the page was fetched (ISO 8601 UTC). Absent in entries cached before it was kept:
   * their age is unknown, so any `max_age` fetches them again.
   */
  cachedAt?: string;
  /** The rendered page as a base64 PNG (`screenshot`; never cached). */
  screenshot?: string;
}

export type PageOutcome =
  | ({ ok: true; fromCache: boolean; passages?: Passage[] } & ExtractedPage)
  | { ok: false; statusCode: number; error: AppError; step?: PageFailureStep };
