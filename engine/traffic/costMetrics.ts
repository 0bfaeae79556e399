/**
 * Costs beside the funnel: what the ad platforms charged (engine/store/costs.ts), set against the
 * visits, leads and revenue of the same days. Costs are reported by day and campaign only, so a
 * cost is known for the whole funnel, a campaign and a day — and not when the funnel is cut by
 * anything the platforms do not report (brand, source, landing page, state, device): those show
 * "—" rather than a share guessed from visits. Costs are converted to the currency the revenue is
 * shown in (./currency.ts; US dollars unless the console says otherwise); a cost in a currency with
 * no rate set is left out and the page names it.
 */
import type { Store } from '../store/db';
import { costCells, type CostCell } from '../store/costs';
import type { FunnelFilter } from './funnelQuery';
import { converter, type Converter } from './currency';

export const REVENUE_CURRENCY = 'USD';

export interface CostFigures {
  /** null: no cost is known for this cut */
  costCents: number | null;
  clicks: number | null;
  costPerVisitCents: number | null;
  costPerLeadCents: number | null;
  revenuePerLeadCents: number | null;
  revenuePerSoldCents: number | null;
  earningsPerClickCents: number | null;
  profitCents: number | null;
  /** revenue ÷ cost */
  roas: number | null;
}

const per = (a: number, b: number): number | null => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

/** The metrics of one cut (pure): `cost` undefined when none is known for it. */
export function costFigures(
  cost: { cents: number; clicks: number } | undefined,
  c: { visits: number; stored: number; sold: number; revenueCents: number },
): CostFigures {
  const known = cost !== undefined;
  return {
    costCents: known ? cost.cents : null,
    clicks: known ? cost.clicks : null,
    costPerVisitCents: known ? per(cost.cents, c.visits) : null,
    costPerLeadCents: known ? per(cost.cents, c.stored) : null,
    revenuePerLeadCents: per(c.revenueCents, c.stored),
    revenuePerSoldCents: per(c.revenueCents, c.sold),
    earningsPerClickCents: known ? per(c.revenueCents, cost.clicks) : null,
    profitCents: known ? c.revenueCents - cost.cents : null,
    roas: known && cost.cents > 0 ? Math.round((c.revenueCents / cost.cents) * 100) / 100 : null,
  };
}

export interface Costs {
  /** whether the filter lets costs be set against the funnel (no brand, source, landing page or device) */
  applies: boolean;
  total?: { cents: number; clicks: number };
  byCampaign: Map<string, { cents: number; clicks: number }>;
  byDay: Map<string, { cents: number; clicks: number }>;
  /** currencies left out (no rate to US dollars), with their totals in their own cents */
  leftOut: { currency: string; cents: number }[];
}

const add = (m: Map<string, { cents: number; clicks: number }>, k: string, c: CostCell) => {
  const t = m.get(k) ?? { cents: 0, clicks: 0 };
  t.cents += c.costCents;
  t.clicks += c.clicks;
  m.set(k, t);
};

/** The filter's costs by campaign and by day (whole days: a cost report has no hours). */
export async function costsOf(
  db: Store,
  f: FunnelFilter,
  days = { from: f.from.slice(0, 10), to: f.to.slice(0, 10) },
  money: Converter = converter(REVENUE_CURRENCY, new Map()),
): Promise<Costs> {
  const applies = f.brand === undefined && f.source === undefined && f.landing === undefined && f.device === undefined;
  const byCampaign = new Map<string, { cents: number; clicks: number }>();
  const byDay = new Map<string, { cents: number; clicks: number }>();
  if (!applies) return { applies, byCampaign, byDay, leftOut: [] };
  const cells = await costCells(db, days.from, days.to, f.campaign);
  const other = new Map<string, number>();
  let total: { cents: number; clicks: number } | undefined;
  for (const cell of cells) {
    const cents = money.convert(cell.costCents, cell.currency);
    if (cents === undefined) {
      other.set(cell.currency, (other.get(cell.currency) ?? 0) + cell.costCents);
      continue;
    }
    const c = { ...cell, costCents: cents };
    add(byCampaign, c.campaign, c);
    add(byDay, c.day, c);
    total = { cents: (total?.cents ?? 0) + c.costCents, clicks: (total?.clicks ?? 0) + c.clicks };
  }
  return {
    applies,
    total,
    byCampaign,
    byDay,
    leftOut: [...other].map(([currency, cents]) => ({ currency, cents })).sort((a, b) => (a.currency < b.currency ? -1 : 1)),
  };
}
