/**
 * The funnel and its breakdowns, answered from the rollups only (never the raw events, which are
 * pruned): for a time range and optional brand, campaign, source, landing page and device — visits
 * → apply views → step 1 → step 2 → submitted → stored → sold, the conversion rates, revenue and
 * earnings per lead and per visit; the same by campaign, source, landing page, state, brand or
 * device; and a series by day or hour for the chart. Whole days with no filter, or with one of
 * campaign, source, landing page or device, come from traffic_daily_pairs (see pairPlan); whole
 * days with a brand alone from traffic_daily; anything else from the hourly cube. All three give the same
 * answers (tests/unit/funnel-filtered.test.ts).
 */
import { sql } from 'kysely';
import type { Store } from '../store/db';
import { FUNNEL_STAGES, type FunnelStage } from './rules';

export interface FunnelFilter {
  /** ISO 8601 times; the range is [from, to) at hour precision */
  from: string;
  to: string;
  brand?: string;
  campaign?: string;
  source?: string;
  landing?: string;
  device?: string;
}

export type StageCounts = Record<FunnelStage, number>;

export interface Funnel {
  stages: { stage: FunnelStage; count: number; /** of the stage before (1 for visits) */ rate: number; /** of visits */ ofVisits: number }[];
  revenueCents: number;
  /** revenue ÷ stored leads, cents */
  earningsPerLeadCents: number;
  /** revenue ÷ visits, cents */
  earningsPerVisitCents: number;
}

const METRICS = FUNNEL_STAGES.map(([, m]) => m);
const STAGE_OF = new Map<string, FunnelStage>(FUNNEL_STAGES.map(([s, m]) => [m, s]));
export const BREAKDOWNS = ['campaign', 'source', 'landing', 'state', 'brand', 'device'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

/** Stage counts and revenue → the funnel with its rates (pure). */
export function funnelOf(counts: Partial<StageCounts>, revenueCents: number): Funnel {
  const all = FUNNEL_STAGES.map(([stage]) => ({ stage, count: counts[stage] ?? 0 }));
  const visits = all[0]!.count;
  return {
    stages: all.map((s, i) => ({ ...s, rate: i === 0 ? 1 : ratio(s.count, all[i - 1]!.count), ofVisits: ratio(s.count, visits) })),
    revenueCents,
    earningsPerLeadCents: Math.round(ratio(revenueCents, counts.stored ?? 0)),
    earningsPerVisitCents: Math.round(ratio(revenueCents, visits) * 100) / 100,
  };
}

const midnight = (iso: string) => iso.length === 10 || iso.slice(10) === 'T00:00:00.000Z';

/**
 * Whether the daily rollups can answer: whole days, and no filter but the brand. Those are the
 * overview's usual questions, and the daily table has far fewer rows than the hourly cube.
 */
export const dailyAnswers = (f: FunnelFilter): boolean =>
  midnight(f.from) && midnight(f.to) && f.campaign === undefined && f.source === undefined && f.landing === undefined && f.device === undefined;

function daily(db: Store, f: FunnelFilter, dim: string) {
  let q = db
    .selectFrom('traffic_daily')
    .where('dim', '=', dim)
    .where('day', '>=', f.from.slice(0, 10))
    .where('day', '<', f.to.slice(0, 10))
    .where('metric', 'in', METRICS);
  if (f.brand !== undefined) q = q.where('brand', '=', f.brand);
  return q;
}

const PAIR_FILTERS = ['campaign', 'source', 'landing', 'device'] as const;

/** Where a filtered question is answered in traffic_daily_pairs: which rows, and which column is the breakdown's key. */
export interface PairPlan {
  fdim: (typeof PAIR_FILTERS)[number];
  /** the filter's value; none: all of them */
  fkey?: string;
  dim: string;
  /** only the rows with this key (the brand, when the brand is filtered too) */
  keyIs?: string;
  group?: 'key' | 'fkey';
}

/**
 * Whether the filtered daily rollups can answer, and how: whole days, and no filter at all, or
 * exactly one of campaign, source, landing page or device (the brand besides it only for the
 * funnel, the series and the breakdowns by brand or by that same dimension).
 */
export function pairPlan(f: FunnelFilter, by?: Breakdown): PairPlan | undefined {
  if (!midnight(f.from) || !midnight(f.to)) return undefined;
  const set = PAIR_FILTERS.filter((d) => f[d] !== undefined);
  if (set.length === 0 && f.brand === undefined) {
    // No filter at all: every brand's rows summed, read as one filter dimension's values taken together (each row has exactly one device).
    if (by === undefined) return { fdim: 'device', dim: 'all' };
    return (PAIR_FILTERS as readonly string[]).includes(by)
      ? { fdim: by as PairPlan['fdim'], dim: 'all', group: 'fkey' }
      : { fdim: 'device', dim: by, group: 'key' };
  }
  if (set.length !== 1) return undefined;
  const fdim = set[0]!;
  const base = { fdim, fkey: f[fdim]! };
  const brand = f.brand === undefined ? {} : { keyIs: f.brand };
  if (by === undefined) return f.brand === undefined ? { ...base, dim: 'all' } : { ...base, dim: 'brand', ...brand };
  if (by === fdim) return f.brand === undefined ? { ...base, dim: 'all', group: 'fkey' } : { ...base, dim: 'brand', ...brand, group: 'fkey' };
  if (by === 'brand') return { ...base, dim: 'brand', ...brand, group: 'key' };
  return f.brand === undefined ? { ...base, dim: by, group: 'key' } : undefined;
}

function pairs(db: Store, f: FunnelFilter, p: PairPlan) {
  let q = db
    .selectFrom('traffic_daily_pairs')
    .where('fdim', '=', p.fdim)
    .$if(p.fkey !== undefined, (q) => q.where('fkey', '=', p.fkey!))
    .where('dim', '=', p.dim)
    .where('day', '>=', f.from.slice(0, 10))
    .where('day', '<', f.to.slice(0, 10))
    .where('metric', 'in', METRICS);
  if (p.keyIs !== undefined) q = q.where('key', '=', p.keyIs);
  return q;
}

function filtered(db: Store, f: FunnelFilter) {
  let q = db.selectFrom('traffic_hourly').where('metric', 'in', METRICS).where('hour', '>=', f.from.slice(0, 13)).where('hour', '<', f.to.slice(0, 13));
  for (const dim of ['brand', 'campaign', 'source', 'landing', 'device'] as const) {
    const v = f[dim];
    if (v !== undefined) q = q.where(dim, '=', v);
  }
  return q;
}

export async function funnel(db: Store, f: FunnelFilter): Promise<Funnel> {
  const plan = pairPlan(f);
  const rows = plan
    ? await pairs(db, f, plan)
        .select((eb) => ['metric', eb.fn.sum<number | string>('count').as('n'), eb.fn.sum<number | string>('value').as('v')])
        .groupBy('metric')
        .execute()
    : dailyAnswers(f)
      ? await daily(db, f, 'all')
          .select((eb) => ['metric', eb.fn.sum<number | string>('count').as('n'), eb.fn.sum<number | string>('value').as('v')])
          .groupBy('metric')
          .execute()
      : await filtered(db, f)
          .select((eb) => ['metric', eb.fn.sum<number | string>('count').as('n'), eb.fn.sum<number | string>('value').as('v')])
          .groupBy('metric')
          .execute();
  const counts: Partial<StageCounts> = {};
  let revenue = 0;
  for (const r of rows) {
    counts[STAGE_OF.get(r.metric)!] = Number(r.n);
    if (r.metric === 'sale_sold') revenue = Number(r.v);
  }
  return funnelOf(counts, revenue);
}

export interface BreakdownRow extends StageCounts {
  key: string;
  revenueCents: number;
}

/** The funnel by one dimension, largest by visits (then stored leads) first; at most `limit` rows. */
export async function breakdown(db: Store, f: FunnelFilter, by: Breakdown, limit = 50): Promise<BreakdownRow[]> {
  const plan = pairPlan(f, by);
  const useDaily = !plan && dailyAnswers(f);
  const rows = await (useDaily
    ? daily(db, f, by === 'brand' ? 'all' : by)
        .select((eb) => [
          eb.ref(by === 'brand' ? 'brand' : 'key').as('key'),
          'metric',
          eb.fn.sum<number | string>('count').as('n'),
          eb.fn.sum<number | string>('value').as('v'),
        ])
        .groupBy([by === 'brand' ? 'brand' : 'key', 'metric'])
        .execute()
    : plan
      ? pairs(db, f, plan)
          .select((eb) => [
            eb.ref(plan.group ?? 'key').as('key'),
            'metric',
            eb.fn.sum<number | string>('count').as('n'),
            eb.fn.sum<number | string>('value').as('v'),
          ])
          .groupBy([plan.group ?? 'key', 'metric'])
          .execute()
      : breakdownHourly(db, f, by));
  return pivot(rows, limit);
}

function breakdownHourly(db: Store, f: FunnelFilter, by: Breakdown) {
  return filtered(db, f)
    .select((eb) => [eb.ref(by).as('key'), 'metric', eb.fn.sum<number | string>('count').as('n'), eb.fn.sum<number | string>('value').as('v')])
    .groupBy([by, 'metric'])
    .execute();
}

function pivot(rows: { key: unknown; metric: string; n: number | string; v: number | string }[], limit: number): BreakdownRow[] {
  const byKey = new Map<string, BreakdownRow>();
  for (const r of rows) {
    const key = String(r.key);
    let row = byKey.get(key);
    if (!row) byKey.set(key, (row = { key, revenueCents: 0, ...(Object.fromEntries(FUNNEL_STAGES.map(([s]) => [s, 0])) as StageCounts) }));
    row[STAGE_OF.get(r.metric)!] = Number(r.n);
    if (r.metric === 'sale_sold') row.revenueCents = Number(r.v);
  }
  return [...byKey.values()].sort((a, b) => b.visits - a.visits || b.stored - a.stored || (a.key < b.key ? -1 : 1)).slice(0, limit);
}

/** Visits, stored leads, sales and revenue per day ("2025-03-01") or hour ("2025-03-01T10"). */
export async function series(db: Store, f: FunnelFilter, bucket: 'day' | 'hour' = 'day') {
  // A literal width, not a parameter: PostgreSQL matches the GROUP BY expression to the selected one only when they are the same text.
  const plan = bucket === 'day' ? pairPlan(f) : undefined;
  if (plan) {
    const rows = await pairs(db, f, plan)
      .where('metric', 'in', ['visit', 'stored', 'sale_sold'])
      .select((eb) => [eb.ref('day').as('at'), 'metric', eb.fn.sum<number | string>('count').as('n'), eb.fn.sum<number | string>('value').as('v')])
      .groupBy(['day', 'metric'])
      .execute();
    return points(rows);
  }
  if (bucket === 'day' && dailyAnswers(f)) {
    const rows = await daily(db, f, 'all')
      .where('metric', 'in', ['visit', 'stored', 'sale_sold'])
      .select((eb) => [eb.ref('day').as('at'), 'metric', eb.fn.sum<number | string>('count').as('n'), eb.fn.sum<number | string>('value').as('v')])
      .groupBy(['day', 'metric'])
      .execute();
    return points(rows);
  }
  const at = sql<string>`substr(hour, 1, ${sql.lit(bucket === 'day' ? 10 : 13)})`;
  const rows = await filtered(db, f)
    .where('metric', 'in', ['visit', 'stored', 'sale_sold'])
    .select((eb) => [at.as('at'), 'metric', eb.fn.sum<number | string>('count').as('n'), eb.fn.sum<number | string>('value').as('v')])
    .groupBy([at, 'metric'])
    .execute();
  return points(rows);
}

function points(rows: { at: string; metric: string; n: number | string; v: number | string }[]) {
  const points = new Map<string, { at: string; visits: number; stored: number; sold: number; revenueCents: number }>();
  for (const r of rows) {
    const p = points.get(r.at) ?? { at: r.at, visits: 0, stored: 0, sold: 0, revenueCents: 0 };
    if (r.metric === 'visit') p.visits = Number(r.n);
    if (r.metric === 'stored') p.stored = Number(r.n);
    if (r.metric === 'sale_sold') {
      p.sold = Number(r.n);
      p.revenueCents = Number(r.v);
    }
    points.set(r.at, p);
  }
  return [...points.values()].sort((a, b) => (a.at < b.at ? -1 : 1));
}

/** Everything the overview page shows, in one call (the bench times this). */
export async function overview(db: Store, f: FunnelFilter) {
  const [total, byCampaign, bySource, byLanding, byState, chart] = await Promise.all([
    funnel(db, f),
    breakdown(db, f, 'campaign'),
    breakdown(db, f, 'source'),
    breakdown(db, f, 'landing'),
    breakdown(db, f, 'state'),
    series(db, f, 'day'),
  ]);
  return { funnel: total, byCampaign, bySource, byLanding, byState, chart };
}
