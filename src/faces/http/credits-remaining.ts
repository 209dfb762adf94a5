/**
 * `X-Credits-Remaining` on every metered answer (`/api/search`, `/api/crawl`, `/r/`): the
 * key's balance right after this request's debit, so a client sees its credits without
 * another call. Only for keys with a balance: an unlimited key, and open mode, have no
 * number to give (docs/decisions.md, "A key holder's own usage").
 */
import type { Context } from 'hono';
import type { MeteredCallOptions } from '../../services/operations.js';

export const CREDITS_REMAINING_HEADER = 'X-Credits-Remaining';

/** The metered-call option that puts the balance after the debit on the answer. */
export function creditsRemaining(c: Context): MeteredCallOptions {
  return {
    onCharged: ({ balance }) => {
      if (balance !== null) c.header(CREDITS_REMAINING_HEADER, String(balance));
    },
  };
}
