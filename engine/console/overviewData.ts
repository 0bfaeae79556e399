/**
 * What the console's overview shows, for one operator: the funnel, breakdowns and lead cuts of a
 * range of days in the operator's time zone, the series grouped by hour, day, week or month, the
 * totals beside those of the period just before, and every amount in the operator's currency.
 *
 * - Days are the operator's: the range is their local midnights (engine/console/periods.ts); a
 *   zone other than UTC, or grouping by the hour, reads the figures by UTC hour and groups them
 *   here. Cost reports have days only: a report's day is taken as the operator's day of that date,
 *   and grouped by the hour no cost is shown.
 * - Money is converted sale by sale through the rates an admin set (engine/traffic/currency.ts),
 *   as on the buyers pages, the leads export and `npm run leads`; what has no rate is left out
 *   and named, with the rates used.
 */
import type { Store } from '../store/db';
import { currencyRates } from '../store/currencyRates';
import { costFigures, costsOf, type CostFigures } from '../traffic/costMetrics';
import { converter, ratesUsed, type Converter } from '../traffic/currency';
import { funnel, overview, type FunnelFilter, type SeriesPoint } from '../traffic/funnelQuery';
import { moneyCells, moneyCellsEach, type MoneyCell, type MoneyDim } from '../traffic/moneyQuery';
import { leadCuts } from './cutsQuery';
import { bucketOf, localHour, nextDay, previousPeriod, zonedRange, type Grain } from './periods';

export interface OverviewAsk {
  /** local days, both included */
  from: string;
  to: string;
  /** the filter's values besides the range */
  dims: Omit<FunnelFilter, 'from' | 'to'>;
  zone: string;
  grain: Grain;
  compare: boolean;
  currency: string;
}

/** The headline figures compared with the previous period. */
export interface Totals {
  visits: number;
  stored: number;
  sold: number;
  revenueCents: number;
  costCents: number | null;
  profitCents: number | null;
  costPerLeadCents: number | null;
  revenuePerLeadCents: number | null;
}

/** A series point of the operator's period (hour, day, week or month) with its cost figures. */
export interface PeriodRow extends SeriesPoint {
  cost: CostFigures;
}

const moneyIn = (db: Store, f: FunnelFilter, bucket: 'day' | 'hour', money: Converter): Promise<MoneyCell[]> => moneyCells(db, f, bucket, money);

/** The dimensions the overview's tables sum money by: the breakdowns' (campaign, source, landing page, state) and the lead cuts'. */
const OVERVIEW_DIMS: readonly MoneyDim[] = ['campaign', 'source', 'landing', 'state', 'subId', 'loanKind', 'buyer'];

const totalsOf = (visits: number, stored: number, sold: number, revenueCents: number, cost: CostFigures): Totals => ({
  visits,
  stored,
  sold,
  revenueCents,
  costCents: cost.costCents,
  profitCents: cost.profitCents,
  costPerLeadCents: cost.costPerLeadCents,
  revenuePerLeadCents: cost.revenuePerLeadCents,
});

/** The series' points (by UTC day, or UTC hour when `hourly`) grouped into the operator's periods, with the costs of their days. */
export function groupPeriods(
  points: readonly Omit<PeriodRow, 'cost'>[],
  costDays: Readonly<Record<string, { cents: number; clicks: number }>>,
  zone: string,
  grain: Grain,
  hourly: boolean,
): PeriodRow[] {
  const rows = new Map<string, Omit<PeriodRow, 'cost'> & { costKnown?: { cents: number; clicks: number } }>();
  const row = (at: string) => {
    let r = rows.get(at);
    if (!r) rows.set(at, (r = { at, visits: 0, stored: 0, sold: 0, returned: 0, returnedCents: 0, revenueCents: 0 }));
    return r;
  };
  for (const p of points) {
    const r = row(bucketOf(hourly ? localHour(p.at, zone) : p.at, grain));
    r.visits += p.visits;
    r.stored += p.stored;
    r.sold += p.sold;
    r.returned += p.returned;
    r.returnedCents += p.returnedCents;
    r.revenueCents += p.revenueCents;
  }
  if (grain !== 'hour')
    for (const [day, c] of Object.entries(costDays)) {
      const r = row(bucketOf(day, grain));
      r.costKnown = { cents: (r.costKnown?.cents ?? 0) + c.cents, clicks: (r.costKnown?.clicks ?? 0) + c.clicks };
    }
  return [...rows.values()].sort((a, b) => (a.at < b.at ? -1 : 1)).map(({ costKnown, ...r }) => ({ ...r, cost: costFigures(costKnown, r) }));
}

export async function overviewData(db: Store, ask: OverviewAsk) {
  const zone = ask.zone || 'UTC';
  const f: FunnelFilter = { ...ask.dims, ...zonedRange(ask.from, ask.to, zone) };
  const hourly = zone !== 'UTC' || ask.grain === 'hour';
  // The rates come first: the money query groups prices in another currency by price, to convert each sale on its own.
  const money = converter(ask.currency, await currencyRates(db));
  // Each table sums its money by one dimension: PostgreSQL groups the sales once per dimension rather than by every combination.
  const cells = moneyCellsEach(db, f, hourly ? 'hour' : 'day', money, OVERVIEW_DIMS);
  cells.catch(() => undefined);
  const asked = overview(db, f, { cells, hourly, costDays: { from: ask.from, to: nextDay(ask.to) }, money });
  // The cuts' queries run beside the overview's: only an unfiltered question waits for its landing pages.
  const landings = asked.then((d) => new Map(d.byLanding.map((r) => [r.key, r.stored])));
  landings.catch(() => undefined); // a filtered question never awaits it; the overview's own failure is thrown below
  const [data, cuts] = await Promise.all([asked, leadCuts(db, f, cells, 50, landings)]);
  const periods = groupPeriods(data.chart, data.costDays, zone, ask.grain, hourly);
  const stage = (s: string) => data.funnel.stages.find((x) => x.stage === s)!.count;
  const totals = totalsOf(stage('visits'), stage('stored'), stage('sold'), data.funnel.revenueCents, data.cost);
  let previous: { from: string; to: string; totals: Totals } | null = null;
  if (ask.compare) {
    const p = previousPeriod(ask.from, ask.to);
    const pf: FunnelFilter = { ...ask.dims, ...zonedRange(p.from, p.to, zone) };
    const [fun, costs] = await Promise.all([funnel(db, pf, moneyIn(db, pf, 'day', money)), costsOf(db, pf, { from: p.from, to: nextDay(p.to) }, money)]);
    const count = (s: string) => fun.stages.find((x) => x.stage === s)!.count;
    const cost = costFigures(costs.applies ? costs.total : undefined, {
      visits: count('visits'),
      stored: count('stored'),
      sold: count('sold'),
      revenueCents: fun.revenueCents,
    });
    previous = { ...p, totals: totalsOf(count('visits'), count('stored'), count('sold'), fun.revenueCents, cost) };
  }
  return { filter: f, zone, data, cuts, periods, totals, previous, currency: ask.currency, currencies: ratesUsed(money) };
}
