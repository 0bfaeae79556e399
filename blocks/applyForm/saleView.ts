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

export type SaleView =
  { kind: 'finding'; progress: number } | { kind: 'matched'; lender: string; continueUrl?: string; demo: boolean } | { kind: 'review' } | { kind: 'none' };

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
