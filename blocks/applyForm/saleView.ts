/**
 * What the borrower sees while the lead is sold: a pure function of the last status answer and
 * the time waited, so the rules (the bound, the safe continue link) are table-tested.
 */
import type { SaleStatusAnswer } from '../../schemas/api.types';

/** How long the borrower waits at most before "no lender right now". */
export const SALE_WAIT_MS = 45_000;
export const SALE_POLL_MS = 1_500;
/** The automatic redirect waits this long after the match is shown (announced, and can be stopped). */
export const REDIRECT_DELAY_S = 10;
/**
 * A request held for a check waits on a person (minutes, sometimes hours), so the page asks less
 * often, and stops asking after a while rather than polling all day from a forgotten tab.
 */
export const REVIEW_POLL_MS = 15_000;
export const REVIEW_WAIT_MS = 30 * 60_000;

export type SaleView =
  | { kind: 'finding'; progress: number }
  | { kind: 'matched'; lender: string; continueUrl?: string; demo: boolean }
  /** stopped: the page no longer asks by itself (the borrower may ask again) */
  | { kind: 'review'; stopped?: true }
  | { kind: 'none' };

/** A continue link the page may follow: https anywhere (the server checked the lender's hosts), or a path of this site. */
export function safeContinueUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (/^\/(?![/\\])/.test(url)) return url;
  try {
    return new URL(url).protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

export function saleView(answer: SaleStatusAnswer | undefined, waitedMs: number): SaleView {
  if (answer?.state === 'matched') {
    const continueUrl = safeContinueUrl(answer.continueUrl);
    return { kind: 'matched', lender: answer.lender ?? 'a lender', ...(continueUrl ? { continueUrl } : {}), demo: answer.demo === true };
  }
  // held for a check by our team: it may still go to lenders, so never "not sold", however long the wait
  if (answer?.state === 'review') return { kind: 'review' };
  if (answer?.state === 'none' || waitedMs >= SALE_WAIT_MS) return { kind: 'none' };
  return { kind: 'finding', progress: Math.min(0.95, waitedMs / SALE_WAIT_MS) };
}

/** The wait the page is in: for a lender (finding) or for the check (review), and since when (ms). */
export interface SaleWait {
  phase: 'finding' | 'review';
  since: number;
}

/**
 * One answer to the page's poll: what to show, the wait it is now in, and when to ask again
 * (undefined: never, the sale has ended or the wait is over). A released request is sold as any
 * other, so the finding that follows a review is bounded from when the page saw it start, not
 * from the submit minutes or hours before. An answer that did not arrive (a network blip) leaves
 * the page in the wait it was in.
 */
export function salePoll(answer: SaleStatusAnswer | undefined, wait: SaleWait, now: number): { view: SaleView; wait: SaleWait; nextMs?: number } {
  const state = answer?.state ?? wait.phase;
  if (state === 'review') {
    const w: SaleWait = wait.phase === 'review' ? wait : { phase: 'review', since: now };
    return now - w.since >= REVIEW_WAIT_MS
      ? { view: { kind: 'review', stopped: true }, wait: w }
      : { view: { kind: 'review' }, wait: w, nextMs: REVIEW_POLL_MS };
  }
  const w: SaleWait = state === 'finding' && wait.phase === 'review' ? { phase: 'finding', since: now } : wait;
  const view = saleView(answer, now - w.since);
  return view.kind === 'finding' ? { view, wait: w, nextMs: SALE_POLL_MS } : { view, wait: w };
}
