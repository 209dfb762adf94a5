/**
 * A page's journey as data: the steps in the order the decisions are taken (docs/interface.md
 * 4.2: every gate, cheapest first), each named, each run only when its condition holds, and
 * the first that fails ends the journey with that URL's error, recorded under the step's
 * name. Read top to bottom, this list is what happens to a URL.
 */
import type { Journey, PageStep } from './journey-state.js';
import {
  checkAddress,
  checkReadable,
  checkRobots,
  convertFetched,
  fetchPage,
  rankPassages,
  readCache,
  renderPage,
  shouldRender,
  storePage,
} from './page-steps.js';

const unanswered = (j: Journey): boolean => j.page === undefined;

export const PAGE_STEPS = [
  // A fresh enough copy answers at once (free); max_age 0 always fetches.
  { name: 'cache', when: (j) => j.cacheable && j.request.options.maxAge !== 0, run: readCache },
  // Before any request: a binary extension, a browser asked for but missing, a refused literal address.
  { name: 'address', when: unanswered, run: checkAddress },
  { name: 'robots', when: unanswered, run: checkRobots },
  // The download, with the type checks on its head (status, Content-Type, declared size) and
  // its first bytes (binary sniff) as they arrive, so a refused body is never read whole.
  { name: 'fetch', when: unanswered, run: fetchPage },
  { name: 'convert', when: (j) => j.response !== undefined && j.blocked === undefined, run: convertFetched },
  // A page that needs the browser (script-built, format html, wait_for_selector, screenshot),
  // or a stealth request's bot wall.
  { name: 'render', when: (j) => unanswered(j) && (j.blocked !== undefined || shouldRender(j)), run: renderPage },
  { name: 'readable', when: unanswered, run: checkReadable },
  // A fresh page is stamped with its fetch time, and cached where it may be.
  { name: 'store', when: (j) => !j.fromCache, run: storePage },
  { name: 'passages', when: (j) => j.request.options.passages !== undefined, run: rankPassages },
] as const satisfies readonly PageStep[];
