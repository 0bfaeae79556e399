/**
 * The console's experiment pages: every brand's experiments as their documents declare them,
 * and one experiment's results over the overview's filters (dates, campaign, source, device):
 * per variant its visitors, conversions on the experiment's metric, the rate or mean with its
 * 95 % interval, the lift over the control and the always-valid decision rule
 * (engine/traffic/experimentStats.ts), revenue per visit once sales exist. Pausing, resuming and
 * stopping publish a revision of the brand (./experimentActions.ts).
 */
import type { Experiment } from '../../schemas/brand.types';
import type { Catalog } from '../site/catalog';
import { timeOf } from '../site/experiments/assign';
import { fixedVariant } from '../site/experiments/variants';
import { MAX_DAYS, localDay, overviewQuery } from './range';
import type { Store } from '../store/db';
import { variantTotals, type ExposureFilter, type VariantTotals } from '../store/experiments';
import { conversionsOf, judge, mean, type Sample, type VariantResult, type Verdict } from '../traffic/experimentStats';

export type Metric = NonNullable<Experiment['metric']>;
export const DEFAULT_METRIC: Metric = 'storedPerVisit';
export const DEFAULT_MINIMUM_SAMPLE = 1000;
export const METRIC_LABELS: Record<Metric, string> = {
  storedPerVisit: 'Stored leads per visit',
  submittedPerVisit: 'Submitted forms per visit',
  soldPerVisit: 'Sold leads per visit',
  revenuePerVisit: 'Revenue per visit',
};

export interface ListedExperiment {
  brand: string;
  file: string;
  /** the experiment's index in the brand's "experiments" */
  index: number;
  experiment: Experiment;
  /** the brand's currency: its leads' sale prices, so the experiment's revenue, are in it */
  currency: string;
}

/** Every experiment of every brand, by brand then id. */
export function listExperiments(catalog: Catalog): ListedExperiment[] {
  return [...catalog.brands.values()]
    .flatMap((b) =>
      (b.brand.experiments ?? []).map((experiment, index) => ({ brand: b.brand.id, file: b.file, index, experiment, currency: b.brand.currency })),
    )
    .sort((a, b) => (a.brand + a.experiment.id < b.brand + b.experiment.id ? -1 : 1));
}

/** A variant's sample on a metric: a rate's conversions (each 0 or 1), or revenue in cents. */
export function sampleOf(t: VariantTotals, metric: Metric): Sample {
  if (metric === 'revenuePerVisit') return { n: t.visitors, sum: t.revenueCents, squares: t.revenueSquares };
  const x = conversionsOf(t, metric);
  return { n: t.visitors, sum: x, squares: x };
}

export interface ExperimentResults {
  metric: Metric;
  rate: boolean;
  minimumSample: number;
  rows: (VariantResult & { weight: number; totals: VariantTotals; revenuePerVisitCents: number })[];
  verdict: Verdict;
  /** revenue per visit is shown once any variant has a sale */
  hasSales: boolean;
  /** the currency of the revenue (the brand's) */
  currency: string;
}

export async function experimentResults(db: Store, listed: ListedExperiment, filter: Omit<ExposureFilter, 'brand' | 'experiment'>): Promise<ExperimentResults> {
  const e = listed.experiment;
  const metric = e.metric ?? DEFAULT_METRIC;
  const minimumSample = e.minimumSample ?? DEFAULT_MINIMUM_SAMPLE;
  const found = new Map((await variantTotals(db, { ...filter, brand: listed.brand, experiment: e.id })).map((t) => [t.variant, t]));
  const totals = e.variants.map((v) => found.get(v.id) ?? { variant: v.id, visitors: 0, submitted: 0, stored: 0, sold: 0, revenueCents: 0, revenueSquares: 0 });
  const rate = metric !== 'revenuePerVisit';
  const { results, verdict } = judge(
    totals.map((t) => ({ id: t.variant, sample: sampleOf(t, metric) })),
    { rate, minimumSample },
  );
  return {
    metric,
    rate,
    minimumSample,
    verdict,
    hasSales: totals.some((t) => t.sold > 0),
    currency: listed.currency,
    rows: results.map((r, i) => ({
      ...r,
      weight: e.variants[i]!.weight,
      totals: totals[i]!,
      revenuePerVisitCents: mean({ n: totals[i]!.visitors, sum: totals[i]!.revenueCents, squares: 0 }),
    })),
  };
}

/**
 * The days an experiment's page shows when it is not asked for others: from the experiment's start
 * (at most MAX_DAYS back) to today. The verdict's sequential test is valid read every day over
 * every visitor since the start; over a window that moves with the day (the overview's last 7
 * days) it is not, and its minimum sample would count only the window's visitors.
 */
export function experimentDays(e: Pick<Experiment, 'start'>, now = new Date(), zone = 'UTC'): { from: string; to: string } {
  const today = localDay(now, zone);
  const earliest = new Date(Date.parse(`${today}T00:00:00.000Z`) - (MAX_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  // the operator's day the start falls on, so the whole experiment is every visitor since it
  const start = !zone || zone === 'UTC' || Number.isNaN(timeOf(e.start)) ? e.start.slice(0, 10) : localDay(new Date(timeOf(e.start)), zone);
  // (an experiment not started yet: today alone)
  return { from: start > today ? today : start < earliest ? earliest : start, to: today };
}

/**
 * The days an experiment's page counts for the days asked (`from`, `to` as typed): none asked, or
 * a range that cannot be used (one end alone, not days, reversed, too long), gives the whole
 * experiment (experimentDays) — not the overview's last 7 days, over which the verdict and its
 * minimum sample mean nothing — with a message saying why when something was asked.
 */
export function experimentRange(
  asked: { from: string; to: string },
  e: Pick<Experiment, 'start'>,
  now = new Date(),
  zone = 'UTC',
): { from: string; to: string; problem: string } {
  const whole = experimentDays(e, now, zone);
  if (!asked.from && !asked.to) return { ...whole, problem: '' };
  const fallback = '; showing the whole experiment, from its start to today.';
  if (!asked.from || !asked.to) return { ...whole, problem: `A range needs both a start and an end day${fallback}` };
  // the overview's checks, in the operator's days as the overview's are
  const q = overviewQuery(asked, new Set(), now, zone);
  if (q.problem) return { ...whole, problem: q.problem.replace(/; showing the last 7 days\.$/, fallback) };
  return { from: q.from, to: q.to, problem: '' };
}

/** Where an experiment stands now: running, paused, stopped, not started yet or ended. */
export function stateOf(e: Experiment, now = Date.now()): string {
  if (e.status !== 'running') return e.status === 'stopped' ? `stopped${e.winner ? `, ${e.winner} for everyone` : ', control for everyone'}` : 'paused';
  if (now < timeOf(e.start)) return 'not started yet';
  if (e.end !== undefined && now >= timeOf(e.end)) return 'ended';
  return 'running';
}

/**
 * What new visitors are shown while the experiment assigns no one (as the front door serves it,
 * engine/site/experiments/assign.ts): paused, before its start or from its end, the control;
 * stopped, the winner (or the control). Its written weights then share nobody, so the page must
 * not present them as if they did. Undefined while it assigns by its weights.
 */
export function fixedShowing(e: Experiment, now = Date.now()): { variant: string; text: string } | undefined {
  const control = e.variants[0]!.id;
  if (e.status === 'stopped') {
    const shown = fixedVariant(e);
    return {
      variant: shown,
      text: `Shown ${shown === control ? 'the control' : shown}, now the page itself for everyone whatever they were shown before; nothing is counted`,
    };
  }
  const why =
    e.status === 'paused' ? 'while paused' : now < timeOf(e.start) ? 'until its start' : e.end !== undefined && now >= timeOf(e.end) ? 'since its end' : '';
  if (!why) return undefined;
  return {
    variant: control,
    text: `Shown the control ${why}, as everyone is; nothing is counted${e.status === 'paused' ? ', and visitors keep their variants for a resume' : ''}`,
  };
}
