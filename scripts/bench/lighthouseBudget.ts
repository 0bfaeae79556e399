/**
 * The Lighthouse rows' budget, relative to Next's minimal page measured in the same run (its median
 * score and median TBT over runs interleaved with ours): an absolute score passes or fails with the
 * load of a shared machine, the distance to Next's own floor does not.
 */

/** A page's score may be at most this many points under the minimal page's median score. */
export const SCORE_MARGIN = 3;
/** A page's TBT may be at most this multiple of the minimal page's median TBT. */
export const TBT_RATIO = 1.5;

/** Within budget: measured at least once, score ≥ reference − SCORE_MARGIN and TBT ≤ TBT_RATIO × reference's. */
export function withinBudget(page: { score: number; tbtMs: number; runs: number }, reference: { score: number; tbtMs: number }): boolean {
  return page.runs > 0 && page.score >= reference.score - SCORE_MARGIN && page.tbtMs <= TBT_RATIO * reference.tbtMs;
}
