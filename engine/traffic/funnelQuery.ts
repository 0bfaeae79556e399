/**
 * The funnel and its breakdowns: for a time range and optional brand, campaign, source, landing
 * page and device — visits → apply views → step 1 → step 2 → submitted → stored → sold, the
 * conversion rates, revenue and
 * earnings per lead and per visit; the same by campaign, source, landing page, state, brand or
 * device; and a series by day or hour for the chart. Whole days with no filter, or with one of
 * campaign, source, landing page or device, come from traffic_daily_pairs (see pairPlan); whole
 * days with a brand alone from traffic_daily; anything else from the hourly cube. All three give the same
 * answers (tests/unit/funnel-filtered.test.ts).
 *
 * The stages up to "stored" are events, answered from the rollups only (never the raw events,
 * which are pruned). The money — sold, returns, revenue — is not an event: it comes from the sale
 * records (./moneyQuery.ts), so the overview says what the buyers page, the lead pages and the
 * exports say.
 */
import { sql } from 'kysely';
import type { Store } from '../store/db';
import { cellsFor, moneyBy, moneyCells, NO_MONEY, type MoneyAsked, type MoneyCell, type MoneyEach, type MoneyTotals } from './moneyQuery';
import { FUNNEL_STAGES, type FunnelStage } from '../store/trafficRules';
import { costFigures, costsOf, type CostFigures } from './costMetrics';
import type { Converter } from './currency';

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
  /** what the sales of the range brought, less the returns made in the range */
  revenueCents: number;
  /** the sales' prices, before returns */
  soldCents: number;
  /** sales returned in the range (each sold on its own day, maybe earlier) and the prices given back */
  returned: number;
  returnedCents: number;
  /** revenue ÷ stored leads, cents */
  earningsPerLeadCents: number;
  /** revenue ÷ visits, cents */
  earningsPerVisitCents: number;
}

/** The stages the event rollups answer: all but the sale (the sale records answer that). */
const METRICS: string[] = FUNNEL_STAGES.map(([, m]) => m).filter((m) => m !== 'sale_sold');
const STAGE_OF = new Map<string, FunnelStage>(FUNNEL_STAGES.map(([s, m]) => [m, s]));
export const BREAKDOWNS = ['campaign', 'source', 'landing', 'state', 'brand', 'device'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

/** Stage counts and revenue (or the money in full) → the funnel with its rates (pure). */
export function funnelOf(counts: Partial<StageCounts>, money: number | MoneyTotals): Funnel {
  const m = typeof money === 'number' ? { ...NO_MONEY, soldCents: money, revenueCents: money } : money;
  const revenueCents = m.revenueCents;
  const all = FUNNEL_STAGES.map(([stage]) => ({ stage, count: counts[stage] ?? 0 }));
  const visits = all[0]!.count;
  return {
    stages: all.map((s, i) => ({ ...s, rate: i === 0 ? 1 : ratio(s.count, all[i - 1]!.count), ofVisits: ratio(s.count, visits) })),
    revenueCents,
    soldCents: m.soldCents,
    returned: m.returned,
    returnedCents: m.returnedCents,
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

/** The filter's sales and returns by day and every dimension (one query for the whole overview). */
const moneyOf = (db: Store, f: FunnelFilter, bucket: 'day' | 'hour' = 'day') => moneyCells(db, f, bucket);
/** The money cells (or each dimension's own, ./moneyQuery.ts moneyCellsEach), or their query under way (so the overview runs it alongside the rollups' queries: PostgreSQL answers them on several connections). */
type MoneyCells = MoneyAsked;

export async function funnel(db: Store, f: FunnelFilter, cells?: MoneyCells): Promise<Funnel> {
  const money = cells ?? moneyOf(db, f);
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
  for (const r of rows) counts[STAGE_OF.get(r.metric)!] = Number(r.n);
  const totals = moneyBy(await cellsFor(money), () => '').get('') ?? NO_MONEY;
  counts.sold = totals.sold;
  return funnelOf(counts, totals);
}

export interface BreakdownRow extends StageCounts {
  key: string;
  /** sales less returns, as the funnel's revenue */
  revenueCents: number;
  /** sales returned in the range */
  returned: number;
}

/** The funnel by one dimension, largest by visits (then stored leads) first; at most `limit` rows. */
export async function breakdown(db: Store, f: FunnelFilter, by: Breakdown, limit = 50, cells?: MoneyCells): Promise<BreakdownRow[]> {
  const money = cells ?? moneyOf(db, f);
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
  return pivot(
    rows,
    moneyBy(await cellsFor(money, by), (c) => c[by]),
    limit,
  );
}

function breakdownHourly(db: Store, f: FunnelFilter, by: Breakdown) {
  return filtered(db, f)
    .select((eb) => [eb.ref(by).as('key'), 'metric', eb.fn.sum<number | string>('count').as('n'), eb.fn.sum<number | string>('value').as('v')])
    .groupBy([by, 'metric'])
    .execute();
}

function pivot(rows: { key: unknown; metric: string; n: number | string }[], money: Map<string, MoneyTotals>, limit: number): BreakdownRow[] {
  const byKey = new Map<string, BreakdownRow>();
  const rowOf = (key: string) => {
    let row = byKey.get(key);
    if (!row) byKey.set(key, (row = { key, revenueCents: 0, returned: 0, ...(Object.fromEntries(FUNNEL_STAGES.map(([s]) => [s, 0])) as StageCounts) }));
    return row;
  };
  for (const r of rows) rowOf(String(r.key))[STAGE_OF.get(r.metric)!] = Number(r.n);
  for (const [key, m] of money) Object.assign(rowOf(key), { sold: m.sold, returned: m.returned, revenueCents: m.revenueCents });
  return [...byKey.values()].sort((a, b) => b.visits - a.visits || b.stored - a.stored || (a.key < b.key ? -1 : 1)).slice(0, limit);
}

/** A day's (or hour's) visits, stored leads, sales, returns and revenue (sales less returns). */
export interface SeriesPoint {
  at: string;
  visits: number;
  stored: number;
  sold: number;
  returned: number;
  /** the prices given back on that day */
  returnedCents: number;
  revenueCents: number;
}

/** Visits, stored leads, sales, returns and revenue per day ("2025-03-01") or hour ("2025-03-01T10"). */
export async function series(db: Store, f: FunnelFilter, bucket: 'day' | 'hour' = 'day', cells?: MoneyCells): Promise<SeriesPoint[]> {
  // the cells given are by the same bucket
  const money = cells ?? moneyOf(db, f, bucket);
  const plan = bucket === 'day' ? pairPlan(f) : undefined;
  let rows: { at: string; metric: string; n: number | string }[];
  if (plan) {
    rows = await pairs(db, f, plan)
      .where('metric', 'in', ['visit', 'stored'])
      .select((eb) => [eb.ref('day').as('at'), 'metric', eb.fn.sum<number | string>('count').as('n')])
      .groupBy(['day', 'metric'])
      .execute();
  } else if (bucket === 'day' && dailyAnswers(f)) {
    rows = await daily(db, f, 'all')
      .where('metric', 'in', ['visit', 'stored'])
      .select((eb) => [eb.ref('day').as('at'), 'metric', eb.fn.sum<number | string>('count').as('n')])
      .groupBy(['day', 'metric'])
      .execute();
  } else {
    // A literal width, not a parameter: PostgreSQL matches the GROUP BY expression to the selected one only when they are the same text.
    const at = sql<string>`substr(hour, 1, ${sql.lit(bucket === 'day' ? 10 : 13)})`;
    rows = await filtered(db, f)
      .where('metric', 'in', ['visit', 'stored'])
      .select((eb) => [at.as('at'), 'metric', eb.fn.sum<number | string>('count').as('n')])
      .groupBy([at, 'metric'])
      .execute();
  }
  return points(
    rows,
    moneyBy(await cellsFor(money), (c) => c.at),
  );
}

function points(rows: { at: string; metric: string; n: number | string }[], money: Map<string, MoneyTotals>): SeriesPoint[] {
  const points = new Map<string, SeriesPoint>();
  const point = (at: string) => {
    const p = points.get(at) ?? { at, visits: 0, stored: 0, sold: 0, returned: 0, returnedCents: 0, revenueCents: 0 };
    points.set(at, p);
    return p;
  };
  for (const r of rows) {
    const p = point(r.at);
    if (r.metric === 'visit') p.visits = Number(r.n);
    if (r.metric === 'stored') p.stored = Number(r.n);
  }
  for (const [at, m] of money) Object.assign(point(at), { sold: m.sold, returned: m.returned, returnedCents: m.returnedCents, revenueCents: m.revenueCents });
  return [...points.values()].sort((a, b) => (a.at < b.at ? -1 : 1));
}

/** How the overview is asked: the money cells when the caller reads them too, and hourly points (for grouping in a time zone). */
export interface OverviewOptions {
  /** the filter's money cells by the same bucket as the points (hour when `hourly`), read once for every table: by every dimension, or each table's dimension's own */
  cells?: Promise<readonly MoneyCell[]> | Promise<MoneyEach>;
  /** points by UTC hour instead of by UTC day (the caller groups them) */
  hourly?: boolean;
  /** the cost reports' days to read, [from, to) as YYYY-MM-DD (default: the filter's UTC days) */
  costDays?: { from: string; to: string };
  /** the currency costs are converted to (default: US dollars, others left out) */
  money?: Converter;
}

/**
 * The campaign breakdown's rows: the first `limit` by visits, then every other campaign the ad
 * platforms charged for in the range — one that brought no visit too (a campaign named otherwise
 * in its links, or whose tracking broke), with its counts at 0. Money spent on nothing is what an
 * operator most needs to see, and without those rows the campaigns' costs did not add up to the total.
 */
export function campaignRows(rows: readonly BreakdownRow[], costs: ReadonlyMap<string, unknown>, limit: number): BreakdownRow[] {
  const seen = new Set(rows.map((r) => r.key));
  const charged = [...costs.keys()]
    .filter((key) => !seen.has(key))
    .sort()
    .map((key): BreakdownRow => ({ key, revenueCents: 0, returned: 0, ...(Object.fromEntries(FUNNEL_STAGES.map(([s]) => [s, 0])) as StageCounts) }));
  return [...rows.slice(0, limit), ...rows.slice(limit).filter((r) => costs.has(r.key)), ...charged];
}

/** Everything the overview page shows, in one call (the bench times this). */
export async function overview(db: Store, f: FunnelFilter, opts: OverviewOptions = {}) {
  const bucket = opts.hourly ? 'hour' : 'day';
  // The sale records are read once, by bucket and every dimension, and summed for each table.
  const cells = opts.cells ?? moneyOf(db, f, bucket);
  // Each table awaits it after its own query: a failure is handled there, not left unhandled meanwhile.
  cells.catch(() => undefined);
  const [total, byCampaign, bySource, byLanding, byState, chart, costs] = await Promise.all([
    funnel(db, f, cells),
    // every campaign: past the first 50 by visits, those with a cost still get their row (below)
    breakdown(db, f, 'campaign', Infinity, cells),
    breakdown(db, f, 'source', 50, cells),
    breakdown(db, f, 'landing', 50, cells),
    breakdown(db, f, 'state', 50, cells),
    series(db, f, bucket, cells),
    costsOf(db, f, opts.costDays, opts.money),
  ]);
  const counts = (visits: number, stored: number, sold: number, revenueCents: number) => ({ visits, stored, sold, revenueCents });
  const withCost = <T extends BreakdownRow>(rows: T[], cost: (r: T) => { cents: number; clicks: number } | undefined): (T & { cost: CostFigures })[] =>
    rows.map((r) => ({ ...r, cost: costFigures(cost(r), counts(r.visits, r.stored, r.sold, r.revenueCents)) }));
  const none = () => undefined;
  const stage = (s: FunnelStage) => total.stages.find((x) => x.stage === s)!.count;
  return {
    funnel: total,
    /** the whole funnel's cost figures: a cost is known when costs were imported for the range and the filter is by campaign or none */
    cost: costFigures(costs.total, counts(stage('visits'), stage('stored'), stage('sold'), total.revenueCents)),
    /** false: the filter cuts by something cost reports do not give (brand, source, landing page, device) */
    costApplies: costs.applies,
    costsLeftOut: costs.leftOut,
    byCampaign: withCost(campaignRows(byCampaign, costs.byCampaign, 50), (r) => costs.byCampaign.get(r.key)),
    bySource: withCost(bySource, none),
    byLanding: withCost(byLanding, none),
    byState: withCost(byState, none),
    chart: chart.map((p) => ({ ...p, cost: costFigures(costs.byDay.get(p.at), counts(p.visits, p.stored, p.sold, p.revenueCents)) })),
    /** the known costs by the cost report's day (for grouping the points by other periods) */
    costDays: Object.fromEntries(costs.byDay),
  };
}
