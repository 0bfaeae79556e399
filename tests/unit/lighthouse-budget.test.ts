import { describe, expect, it } from 'vitest';
import { withinBudget } from '../../scripts/bench/lighthouseBudget';

describe("the Lighthouse budget is relative to Next's minimal page in the same run", () => {
  const reference = { score: 96, tbtMs: 200 };
  it.each([
    ['the same score and TBT', { score: 96, tbtMs: 200, runs: 1 }, true],
    ['3 points under, TBT 1.5×', { score: 93, tbtMs: 300, runs: 1 }, true],
    ['4 points under', { score: 92, tbtMs: 200, runs: 1 }, false],
    ['TBT just over 1.5×', { score: 96, tbtMs: 301, runs: 1 }, false],
    ['a better score than the reference', { score: 100, tbtMs: 50, runs: 3 }, true],
    ['no run succeeded', { score: 0, tbtMs: NaN, runs: 0 }, false],
    ['a TBT that could not be read', { score: 96, tbtMs: NaN, runs: 1 }, false],
  ])('%s', (_, page, ok) => expect(withinBudget(page, reference)).toBe(ok));

  it('on a slow moment (the reference at 80) a page at 78 passes; on a fast one (99) the same 78 fails', () => {
    const page = { score: 78, tbtMs: 400, runs: 1 };
    expect(withinBudget(page, { score: 80, tbtMs: 300 })).toBe(true);
    expect(withinBudget(page, { score: 99, tbtMs: 300 })).toBe(false);
  });
});
