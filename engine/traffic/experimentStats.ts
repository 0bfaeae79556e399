/**
 * An experiment's statistics, pure (tests/unit/experiment-stats.test.ts checks them against
 * values worked out by hand and a reference written in the test):
 *
 * - a variant's rate with its 95 % Wilson score interval (right near 0 % and with few visitors,
 *   where the textbook ±1.96·SE interval is not);
 * - its lift over the control (relative: +10 % = converts 1.1× as often) with a 95 % interval
 *   from the log of the ratio (delta method);
 * - the decision rule, valid however often it is looked at: a mixture sequential probability
 *   ratio test (mSPRT; Johari, Pekelis & Walsh, "Always valid inference", 2017) on the difference
 *   of means, whose always-valid p-value 1/Λ may be read every day without inflating false
 *   winners (Ville's inequality), as Optimizely's "Stats Engine" does. The mixing prior is
 *   N(0, τ²) with τ a third of the two arms' pooled mean (effects of the order of ±30 % are the
 *   ones landing-page changes are expected to have). Pooled, not the control's alone: a control
 *   that has (almost) never converted would make τ (almost) 0, and a variant converting at 5 %
 *   against it would never be called, while the same data the other way round would be at once.
 *   A winner is named only once every variant has
 *   its minimum sample and p ≤ 5 % divided among the variants compared (Bonferroni).
 *
 * Metrics: a rate per visit (a visit either converts or not) or revenue per visit (a mean with
 * its own variance, from the sum of squares).
 */
import type { Experiment } from '../../schemas/brand.types';
import type { VariantTotals } from '../store/experiments';

export const Z95 = 1.959963984540054;
export const ALPHA = 0.05;
/** τ as a share of the pooled mean (see above). */
export const TAU_SHARE = 1 / 3;

/** What the statistics need of one variant: visitors, the metric's sum over them and its sum of squares. */
export interface Sample {
  n: number;
  sum: number;
  squares: number;
}

export interface Interval {
  low: number;
  high: number;
}

export const mean = (s: Sample): number => (s.n ? s.sum / s.n : 0);
/** The variance of one visit's value (population form; the samples here are large). */
export const variance = (s: Sample): number => (s.n ? Math.max(0, s.squares / s.n - mean(s) ** 2) : 0);

/** The 95 % Wilson score interval of x conversions in n visits. */
export function wilson(x: number, n: number, z = Z95): Interval {
  if (!n) return { low: 0, high: 0 };
  const p = x / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** A mean's 95 % interval (normal approximation): for revenue per visit. */
export function meanInterval(s: Sample, z = Z95): Interval {
  const half = s.n ? z * Math.sqrt(variance(s) / s.n) : 0;
  return { low: mean(s) - half, high: mean(s) + half };
}

/** The variant's lift over the control (relative) with its 95 % interval; undefined while either mean is 0. */
export function lift(control: Sample, variant: Sample, z = Z95): { lift: number; interval: Interval } | undefined {
  const a = mean(control);
  const b = mean(variant);
  if (a <= 0 || b <= 0) return undefined;
  const se = Math.sqrt(variance(control) / (control.n * a * a) + variance(variant) / (variant.n * b * b));
  const log = Math.log(b / a);
  return { lift: b / a - 1, interval: { low: Math.exp(log - z * se) - 1, high: Math.exp(log + z * se) - 1 } };
}

/** Both arms' visits taken as one sample's mean: what either converts at if they do not differ. */
const pooledMean = (a: Sample, b: Sample): number => mean({ n: a.n + b.n, sum: a.sum + b.sum, squares: a.squares + b.squares });

/**
 * The mSPRT's always-valid p-value for "the variant's mean equals the control's": 1/Λ with
 * Λ = √(V/(V+τ²)) · exp(τ²·d² / (2V(V+τ²))), d the difference of means and V its variance.
 * 1 while there is nothing to compare.
 */
export function alwaysValidP(control: Sample, variant: Sample, tau = TAU_SHARE * pooledMean(control, variant)): number {
  const v = variance(control) / (control.n || 1) + variance(variant) / (variant.n || 1);
  const t2 = tau * tau;
  if (!control.n || !variant.n || v <= 0 || t2 <= 0) return 1;
  const d = mean(variant) - mean(control);
  const logLambda = 0.5 * Math.log(v / (v + t2)) + (t2 * d * d) / (2 * v * (v + t2));
  return Math.min(1, Math.exp(-logLambda));
}

export type Verdict = { kind: 'collecting'; needed: number } | { kind: 'winner'; variant: string } | { kind: 'noWinner' } | { kind: 'control' };

export interface VariantResult {
  id: string;
  sample: Sample;
  mean: number;
  interval: Interval;
  lift?: { lift: number; interval: Interval };
  p?: number;
  /** the variant beats (1) or trails (-1) the control by the rule, or 0 */
  decided: -1 | 0 | 1;
}

/**
 * Every variant against the first (the control), and the verdict: "collecting" until each has
 * `minimumSample` visitors; then the variant that beats the control by the rule with the best
 * mean, or "control" when every other trails it, or "noWinner" yet.
 */
export function judge(
  variants: readonly { id: string; sample: Sample }[],
  opts: { rate: boolean; minimumSample: number },
): { results: VariantResult[]; verdict: Verdict } {
  const [control, ...others] = variants;
  if (!control) return { results: [], verdict: { kind: 'noWinner' } };
  const alpha = ALPHA / Math.max(1, others.length);
  const results: VariantResult[] = variants.map((v, i) => {
    const m = mean(v.sample);
    const interval = opts.rate ? wilson(v.sample.sum, v.sample.n) : meanInterval(v.sample);
    if (i === 0) return { id: v.id, sample: v.sample, mean: m, interval, decided: 0 };
    const p = alwaysValidP(control.sample, v.sample);
    const l = lift(control.sample, v.sample);
    const decided: -1 | 0 | 1 = p <= alpha ? (m > mean(control.sample) ? 1 : -1) : 0;
    return { id: v.id, sample: v.sample, mean: m, interval, ...(l ? { lift: l } : {}), p, decided };
  });
  const least = Math.min(...variants.map((v) => v.sample.n));
  if (least < opts.minimumSample) return { results, verdict: { kind: 'collecting', needed: opts.minimumSample - least } };
  const winners = results.filter((r) => r.decided === 1).sort((a, b) => b.mean - a.mean);
  if (winners[0]) return { results, verdict: { kind: 'winner', variant: winners[0].id } };
  if (others.length && results.slice(1).every((r) => r.decided === -1)) return { results, verdict: { kind: 'control' } };
  return { results, verdict: { kind: 'noWinner' } };
}

/** A variant's conversions on a rate metric (the console's results and the bandit's posteriors). */
export function conversionsOf(t: Pick<VariantTotals, 'submitted' | 'stored' | 'sold'>, metric: NonNullable<Experiment['metric']>): number {
  return metric === 'submittedPerVisit' ? t.submitted : metric === 'soldPerVisit' ? t.sold : t.stored;
}
