/**
 * The overview's money — sold, revenue, returns — read from the sale records themselves
 * (lead_sales, lead_returns), never from funnel events: a sale is recorded once, by the sale, and
 * every page that shows money (the overview, the buyers page, the lead pages, the exports,
 * `npm run leads`) reads that same record, so they cannot disagree. The funnel's earlier stages
 * (visits … stored) stay in the event rollups (./funnelQuery.ts).
 *
 * A sale counts on the day it was decided, at its price; a return counts on the day it was made,
 * its refunded price taken off that day's revenue. A sale returned later thus shows on both days:
 * sold (+price) on the first, returned (−price) on the second; revenue is what was kept.
 *
 * Each row is joined to its lead and the lead's visit, and takes the same dimensions its
 * "stored" event took (engine/store/traffic.ts): the visit's brand, campaign, source, landing
 * page and device when the visit is known, else the lead's brand and device and none of the
 * rest; the state from the lead. So a filter or a breakdown splits sales exactly as it splits
 * leads, on SQLite and PostgreSQL alike (only literals in the grouped expressions: PostgreSQL
 * matches GROUP BY to SELECT by their text).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Store } from '../store/db';
import type { FunnelFilter } from './funnelQuery';

export const MONEY_DIMS = ['brand', 'campaign', 'source', 'landing', 'state', 'device'] as const;
export type MoneyDim = (typeof MONEY_DIMS)[number];

/** Sales and returns of one bucket (day or hour) and one combination of dimensions. */
export interface MoneyCell extends Record<MoneyDim, string> {
  at: string;
  sold: number;
  soldCents: number;
  returned: number;
  returnedCents: number;
}

const DIM_SQL: Record<MoneyDim, RawBuilder<string>> = {
  brand: sql<string>`coalesce(v.brand, l.brand)`,
  campaign: sql<string>`coalesce(v.campaign, '')`,
  source: sql<string>`coalesce(v.source, '')`,
  landing: sql<string>`coalesce(v.landing_path, '')`,
  // as serverEvents.ts stateDim: a two-letter code, upper-case; '' for the longer region codes
  state: sql<string>`case when length(l.state) = 2 then upper(l.state) else '' end`,
  device: sql<string>`coalesce(v.device, l.device)`,
};

const FILTERS = ['brand', 'campaign', 'source', 'landing', 'device'] as const;

/** Money by `bucket` and every dimension, over the filter's range and values. */
export async function moneyCells(db: Store, f: FunnelFilter, bucket: 'day' | 'hour' = 'day'): Promise<MoneyCell[]> {
  const width = sql.lit(bucket === 'day' ? 10 : 13);
  const from = f.from.slice(0, 13);
  const to = f.to.slice(0, 13);
  const dims = MONEY_DIMS.map((d) => DIM_SQL[d].as(d));
  const grouped = MONEY_DIMS.map((d) => DIM_SQL[d]);

  const salesAt = sql<string>`substr(s.decided_at, 1, ${width})`;
  let sales = db
    .selectFrom('lead_sales as s')
    .innerJoin('leads as l', 'l.id', 's.lead_id')
    .leftJoin('traffic_visits as v', 'v.id', 'l.visit_id')
    .where('s.status', 'in', ['sold', 'returned'])
    .where('s.decided_at', '>=', from)
    .where('s.decided_at', '<', to);
  const returnsAt = sql<string>`substr(r.created_at, 1, ${width})`;
  let returns = db
    .selectFrom('lead_returns as r')
    .innerJoin('leads as l', 'l.id', 'r.lead_id')
    .leftJoin('traffic_visits as v', 'v.id', 'l.visit_id')
    .where('r.created_at', '>=', from)
    .where('r.created_at', '<', to);
  for (const d of FILTERS) {
    const value = f[d];
    if (value === undefined) continue;
    sales = sales.where(DIM_SQL[d], '=', value);
    returns = returns.where(DIM_SQL[d], '=', value);
  }
  const [sold, back] = await Promise.all([
    sales
      .select((eb) => [salesAt.as('at'), ...dims, eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('s.price_cents').as('cents')])
      .groupBy([salesAt, ...grouped])
      .execute(),
    returns
      .select((eb) => [returnsAt.as('at'), ...dims, eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('r.price_cents').as('cents')])
      .groupBy([returnsAt, ...grouped])
      .execute(),
  ]);
  const cells = new Map<string, MoneyCell>();
  const cell = (r: Record<MoneyDim | 'at', string>) => {
    const key = JSON.stringify([r.at, ...MONEY_DIMS.map((d) => r[d])]);
    let c = cells.get(key);
    if (!c) {
      c = {
        at: r.at,
        ...(Object.fromEntries(MONEY_DIMS.map((d) => [d, r[d]])) as Record<MoneyDim, string>),
        sold: 0,
        soldCents: 0,
        returned: 0,
        returnedCents: 0,
      };
      cells.set(key, c);
    }
    return c;
  };
  for (const r of sold) {
    const c = cell(r);
    c.sold += Number(r.n);
    c.soldCents += Number(r.cents ?? 0);
  }
  for (const r of back) {
    const c = cell(r);
    c.returned += Number(r.n);
    c.returnedCents += Number(r.cents);
  }
  return [...cells.values()];
}

export interface MoneyTotals {
  sold: number;
  soldCents: number;
  returned: number;
  returnedCents: number;
  /** what was kept: sales less returns */
  revenueCents: number;
}

export const NO_MONEY: MoneyTotals = { sold: 0, soldCents: 0, returned: 0, returnedCents: 0, revenueCents: 0 };

/** The cells summed by `keyOf` (one group: the totals). */
export function moneyBy(cells: readonly MoneyCell[], keyOf: (c: MoneyCell) => string): Map<string, MoneyTotals> {
  const out = new Map<string, MoneyTotals>();
  for (const c of cells) {
    const k = keyOf(c);
    const t = out.get(k) ?? { ...NO_MONEY };
    t.sold += c.sold;
    t.soldCents += c.soldCents;
    t.returned += c.returned;
    t.returnedCents += c.returnedCents;
    t.revenueCents = t.soldCents - t.returnedCents;
    out.set(k, t);
  }
  return out;
}
