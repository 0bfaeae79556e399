/**
 * The experiment page's statistics (engine/traffic/experimentStats.ts) against values worked out
 * by hand and against reference implementations written here another way.
 */
import { describe, expect, it } from 'vitest';
import { alwaysValidP, judge, lift, wilson, Z95, type Sample } from '../../engine/traffic/experimentStats';

const rate = (x: number, n: number): Sample => ({ n, sum: x, squares: x });

/** Wilson's interval as the roots of (p̂ − p)² = z² p(1 − p)/n, solved as a quadratic in p. */
function wilsonByRoots(x: number, n: number, z = Z95) {
  const p = x / n;
  const a = 1 + (z * z) / n;
  const b = -(2 * p + (z * z) / n);
  const c = p * p;
  const d = Math.sqrt(b * b - 4 * a * c);
  return { low: (-b - d) / (2 * a), high: (-b + d) / (2 * a) };
}

describe('rate intervals', () => {
  it('gives the Wilson interval of 50 in 1,000 worked out by hand: 3.81 % to 6.53 %', () => {
    const i = wilson(50, 1000);
    expect(i.low).toBeCloseTo(0.03813, 4);
    expect(i.high).toBeCloseTo(0.06531, 4);
  });

  it.each([
    [0, 20],
    [1, 10],
    [37, 412],
    [999, 1000],
  ])('agrees with the quadratic roots for %i in %i', (x, n) => {
    const ref = wilsonByRoots(x, n);
    const got = wilson(x, n);
    expect(got.low).toBeCloseTo(ref.low, 10);
    expect(got.high).toBeCloseTo(ref.high, 10);
  });
});

describe('lift over the control', () => {
  it('is the ratio of rates less one, with the log-ratio interval worked out by hand', () => {
    // 100/2000 = 5 % against 130/2000 = 6.5 %: lift +30 %.
    // se(log ratio) = √((1 − 0.05)/100 + (1 − 0.065)/130) = √(0.0095 + 0.0071923) = 0.129199
    // 95 %: exp(ln 1.3 ± 1.959964 × 0.129199) − 1 = exp(0.262364 ± 0.253225) − 1 = +0.92 % to +67.46 %
    const l = lift(rate(100, 2000), rate(130, 2000))!;
    expect(l.lift).toBeCloseTo(0.3, 10);
    expect(l.interval.low).toBeCloseTo(0.00918, 4);
    expect(l.interval.high).toBeCloseTo(0.67463, 4);
  });

  it('is not given while the control has no conversion', () => {
    expect(lift(rate(0, 100), rate(3, 100))).toBeUndefined();
  });
});

describe('the decision rule (mSPRT)', () => {
  /** Λ as the ratio of the marginal likelihood of d under N(0, V + τ²) to its likelihood under N(0, V): the definition, not the closed form. */
  function lambdaByDensities(d: number, v: number, tau: number) {
    const normal = (x: number, variance: number) => Math.exp((-x * x) / (2 * variance)) / Math.sqrt(2 * Math.PI * variance);
    return normal(d, v + tau * tau) / normal(d, v);
  }

  it('matches the ratio of likelihoods written from its definition', () => {
    const a = rate(100, 2000);
    const b = rate(150, 2000);
    const v = (0.05 * 0.95) / 2000 + (0.075 * 0.925) / 2000;
    // a third of the pooled mean: 250 conversions in 4,000 visits
    const tau = 0.0625 / 3;
    expect(alwaysValidP(a, b)).toBeCloseTo(1 / lambdaByDensities(0.025, v, tau), 10);
  });

  it('gives p = 1 when nothing differs, and falls as the same lift gathers visitors', () => {
    expect(alwaysValidP(rate(50, 1000), rate(50, 1000))).toBe(1);
    const ps = [1000, 4000, 16000].map((n) => alwaysValidP(rate(n * 0.05, n), rate(n * 0.06, n)));
    expect(ps[0]).toBeGreaterThan(ps[1]!);
    expect(ps[1]).toBeGreaterThan(ps[2]!);
    expect(ps[2]).toBeLessThan(0.05);
  });

  it('names no winner before the minimum sample, however large the difference', () => {
    const { verdict } = judge(
      [
        { id: 'control', sample: rate(10, 400) },
        { id: 'b', sample: rate(80, 400) },
      ],
      { rate: true, minimumSample: 500 },
    );
    expect(verdict).toEqual({ kind: 'collecting', needed: 100 });
  });

  it('names a variant that converts while the control all but never does, as surely as the other way round', () => {
    const verdictOf = (control: Sample, b: Sample) =>
      judge(
        [
          { id: 'control', sample: control },
          { id: 'b', sample: b },
        ],
        { rate: true, minimumSample: 1000 },
      ).verdict;
    // 0 or 1 stored lead in 2,000 visits against 100 in 2,000: no chance difference
    expect(verdictOf(rate(0, 2000), rate(100, 2000))).toEqual({ kind: 'winner', variant: 'b' });
    expect(verdictOf(rate(1, 2000), rate(100, 2000))).toEqual({ kind: 'winner', variant: 'b' });
    expect(verdictOf(rate(100, 2000), rate(0, 2000))).toEqual({ kind: 'control' });
    // the same evidence whichever arm is the control
    expect(alwaysValidP(rate(1, 2000), rate(100, 2000))).toBeCloseTo(alwaysValidP(rate(100, 2000), rate(1, 2000)), 12);
    expect(alwaysValidP(rate(1, 2000), rate(100, 2000))).toBeLessThan(0.001);
  });

  it('names the better variant once it has the sample and the evidence', () => {
    const { verdict, results } = judge(
      [
        { id: 'control', sample: rate(500, 10000) },
        { id: 'b', sample: rate(700, 10000) },
      ],
      { rate: true, minimumSample: 1000 },
    );
    expect(results[1]!.p).toBeLessThan(0.05);
    expect(verdict).toEqual({ kind: 'winner', variant: 'b' });
  });

  it('does not cry wolf when A/A data is checked every day for a month', () => {
    // 200 A/A experiments, 1,000 visitors a day to each arm at 5 %, judged daily for 30 days:
    // an always-valid rule calls a winner in at most about 5 % of them (a naive daily z-test in ~30 %).
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let falseWinners = 0;
    for (let e = 0; e < 200; e++) {
      const a = rate(0, 0);
      const b = rate(0, 0);
      let called = false;
      for (let day = 0; day < 30 && !called; day++) {
        for (let i = 0; i < 1000; i++) {
          a.n++;
          b.n++;
          if (random() < 0.05) a.sum = a.squares = a.sum + 1;
          if (random() < 0.05) b.sum = b.squares = b.sum + 1;
        }
        called =
          judge(
            [
              { id: 'a', sample: { ...a } },
              { id: 'b', sample: { ...b } },
            ],
            { rate: true, minimumSample: 1000 },
          ).verdict.kind !== 'noWinner';
      }
      if (called) falseWinners++;
    }
    expect(falseWinners / 200).toBeLessThanOrEqual(0.07);
  });
});
