/**
 * The overview's lead cuts — by buyer, sub-id, landing page and loan kind — with the columns lead
 * platforms show per cut: leads, sold, rejected, returns and return %, revenue, cost and profit,
 * cost per lead, revenue per lead and per sold lead, earnings per click, acceptance %, and (per
 * buyer) the response time p50/p95.
 *
 * - Money (sold, returns, revenue, leads no buyer took) comes from the same sale-record cells as
 *   every other figure on the overview (engine/traffic/moneyQuery.ts): a sale on the day it was
 *   decided, a return on the day it was made.
 * - A sub-id, landing page or loan kind's leads are the leads stored in the range (the lead's
 *   source2, its visit's landing page as the lead keeps it, its loan kind); "rejected" is the leads no buyer took,
 *   and acceptance % is sold ÷ (sold + rejected).
 * - A buyer's leads are the leads offered to it in the range (pinged, or posted without a ping) whose
 *   offer it answered (a ping or post still out, or interrupted by our own sale stopping, is left out),
 *   "rejected" the offered leads it neither bid on nor accepted, acceptance % the rest ÷ offered,
 *   and p50/p95 over its answered pings and posts (exact: latencies are read as counts per
 *   millisecond value, the same SQL on both stores).
 * - Cost reports give a cost per day and campaign only, so no cut here has a known cost: cost,
 *   profit, cost per lead and earnings per click read "—" (engine/traffic/costMetrics.ts).
 */
import { sql } from 'kysely';
import type { Store } from '../store/db';
import { cellsFor, dimWhere, moneyBy, withWorkMem, type MoneyAsked } from '../traffic/moneyQuery';
import { costFigures, type CostFigures } from '../traffic/costMetrics';
import type { FunnelFilter } from '../traffic/funnelQuery';

import type { Cut } from './cuts';

export interface CutRow {
  key: string;
  leads: number;
  sold: number;
  rejected: number;
  returned: number;
  /** returns ÷ sales of the range; null with no sale */
  returnRate: number | null;
  revenueCents: number;
  /** null with no lead offered or decided */
  acceptance: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  cost: CostFigures;
}

/** The value below which `share` of the counted values lie (nearest rank), from [value, count] pairs; null for none. */
export function histogramPercentile(hist: readonly (readonly [number, number])[], share: number): number | null {
  const sorted = [...hist].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((t, [, n]) => t + n, 0);
  if (!total) return null;
  const rank = Math.min(total, Math.max(1, Math.ceil(share * total)));
  let seen = 0;
  for (const [v, n] of sorted) if ((seen += n) >= rank) return v;
  return sorted[sorted.length - 1]![0];
}

const LEAD_KEYS = {
  subId: sql<string>`coalesce(l.source2, '')`,
  loanKind: sql<string>`coalesce(l.loan_kind, '')`,
  landing: sql<string>`coalesce(l.visit_landing, '')`,
};

/** The stored leads by landing page, or the query that will have them (the overview's rollups, read meanwhile). */
type Landings = ReadonlyMap<string, number> | Promise<ReadonlyMap<string, number>>;

const filtered = (f: FunnelFilter) => Object.keys(f).some((k) => k !== 'from' && k !== 'to');

/**
 * Leads stored in the range by sub-id, loan kind and landing page (one grouped query). Unfiltered,
 * with the landing pages' stored leads given (the overview has them from the rollups), the leads
 * are not grouped by landing page: fewer groups, from the same covering index of the leads.
 */
async function storedLeads(db: Store, f: FunnelFilter, landingsAsked?: Landings) {
  // a filtered question groups by the lead's landing page itself: it need not wait for the landing pages' counts
  const landings = filtered(f) ? undefined : await landingsAsked;
  const range = db.selectFrom('leads as l').where('l.created_at', '>=', f.from).where('l.created_at', '<', f.to);
  if (landings && !filtered(f)) {
    const rows = await range
      .select((eb) => [LEAD_KEYS.subId.as('subId'), LEAD_KEYS.loanKind.as('loanKind'), eb.fn.countAll<number | string>().as('n')])
      .groupBy([LEAD_KEYS.subId, LEAD_KEYS.loanKind])
      .execute();
    return { rows: rows.map((r) => ({ ...r, landing: undefined })), landings };
  }
  const rows = await dimWhere(range, f)
    .select((eb) => [
      LEAD_KEYS.subId.as('subId'),
      LEAD_KEYS.loanKind.as('loanKind'),
      LEAD_KEYS.landing.as('landing'),
      eb.fn.countAll<number | string>().as('n'),
    ])
    .groupBy([LEAD_KEYS.subId, LEAD_KEYS.loanKind, LEAD_KEYS.landing])
    .execute();
  return { rows, landings: undefined };
}

const OFFER_LAG_MS = 7 * 86_400_000;

/**
 * A lead is offered to a buyer by a ping or a post it answered: not one still out (a post's
 * "sending" row is its reservation), nor a ping whose answer our interrupted sale never recorded --
 * that is not the buyer rejecting the lead.
 */
const OFFERED = sql<boolean>`(m.outcome not in ('sending', 'interrupted'))`;

/**
 * Whether a buyer accepted a lead, over the lead's offers to it (1 or 0), grouped by buyer and lead: each buyer's
 * offered leads are then its groups, its accepted leads the sum. Counted so rather than by count(distinct …),
 * which PostgreSQL sorts for, on disk past its work_mem: grouped, both stores hash.
 */
const ACCEPTED = sql<number>`max(case when m.outcome in ('bid', 'accepted') then 1 else 0 end)`;

/** Each buyer's offered and accepted leads, and its answered latencies as counts per value, of an unfiltered question (one index of the offers). */
async function offers(db: Store, f: FunnelFilter) {
  const base = () => db.selectFrom('sale_events as m').where('m.at', '>=', f.from).where('m.at', '<', f.to).where('m.step', 'in', ['ping', 'post']);
  const [counts, latencies] = await Promise.all([
    db
      .selectFrom(
        base()
          .where(OFFERED)
          .select(['m.buyer_id as buyer', 'm.lead_id', ACCEPTED.as('accepted')])
          .groupBy(['m.buyer_id', 'm.lead_id'])
          .as('o'),
      )
      .select((eb) => ['o.buyer', eb.fn.countAll<number | string>().as('offered'), eb.fn.sum<number | string>('o.accepted').as('accepted')])
      .groupBy('o.buyer')
      .execute(),
    base()
      .where('m.latency_ms', 'is not', null)
      .where('m.outcome', '<>', 'sending')
      .select((eb) => ['m.buyer_id as buyer', 'm.latency_ms as ms', eb.fn.countAll<number | string>().as('n')])
      .groupBy(['m.buyer_id', 'm.latency_ms'])
      .execute(),
  ]);
  return { counts, latencies };
}

/**
 * A filtered question's stored leads and offers in one statement, so the leads of the filter are
 * read once rather than once per query. A lead is offered when its sale runs,
 * right after it is stored (or within minutes, a sale taken up again after a restart): the leads
 * of the range and the week before it, narrowed to the filter, are every offer's candidates; the
 * range's own are the stored leads.
 */
async function filteredLeadsAndOffers(db: Store, f: FunnelFilter) {
  const leads = dimWhere(
    db
      .selectFrom('leads as l')
      .where('l.created_at', '>=', new Date(Date.parse(f.from) - OFFER_LAG_MS).toISOString())
      .where('l.created_at', '<', f.to),
    f,
  ).select(['l.id as id', 'l.created_at as created_at', LEAD_KEYS.subId.as('sub_id'), LEAD_KEYS.loanKind.as('loan_kind'), LEAD_KEYS.landing.as('landing')]);
  // The range's offers are read from their covering index first, then matched to the filter's leads: one hash join,
  // not a look-up of each lead's offers in another index.
  // n2: a buyer's accepted leads, or a latency's value.
  // the materialized leads and offers are kept in memory rather than written to disk
  const rows = await withWorkMem(
    db,
    sql<{ kind: 'stored' | 'offers' | 'latency'; k1: string; k2: string; k3: string; n1: number | string; n2: number | string }>`
    with fl as materialized ${leads},
    se as materialized (
      select m.buyer_id, m.lead_id, m.step, m.outcome, m.latency_ms from sale_events as m
      where m.at >= ${f.from} and m.at < ${f.to} and m.step in ('ping', 'post')),
    so as materialized (select * from se as m where m.lead_id in (select id from fl))
    select 'stored' as kind, sub_id as k1, loan_kind as k2, landing as k3, count(*) as n1, 0 as n2 from fl
      where created_at >= ${f.from} group by sub_id, loan_kind, landing
    union all
    select 'offers', o.buyer_id, '', '', count(*), sum(o.accepted)
      from (select m.buyer_id, m.lead_id, ${ACCEPTED} as accepted from so as m where ${OFFERED} group by m.buyer_id, m.lead_id) as o group by o.buyer_id
    union all
    select 'latency', m.buyer_id, '', '', count(*), m.latency_ms
      from so as m where m.latency_ms is not null and m.outcome <> 'sending' group by m.buyer_id, m.latency_ms`.compile(db),
  );
  const of = (kind: string) => rows.filter((r) => r.kind === kind);
  return {
    leads: { rows: of('stored').map((r) => ({ subId: r.k1, loanKind: r.k2, landing: r.k3, n: r.n1 })), landings: undefined },
    offered: {
      counts: of('offers').map((r) => ({ buyer: r.k1, offered: r.n1, accepted: r.n2 })),
      latencies: of('latency').map((r) => ({ buyer: r.k1, ms: r.n2, n: r.n1 })),
    },
  };
}

const NO_COST = undefined;

function rowOf(key: string, leads: number, m: { sold: number; rejected: number; returned: number; revenueCents: number }, accepted?: number): CutRow {
  const decided = m.sold + m.rejected;
  return {
    key,
    leads,
    sold: m.sold,
    rejected: accepted === undefined ? m.rejected : leads - accepted,
    returned: m.returned,
    returnRate: m.sold ? m.returned / m.sold : null,
    revenueCents: m.revenueCents,
    acceptance: accepted === undefined ? (decided ? m.sold / decided : null) : leads ? accepted / leads : null,
    p50Ms: null,
    p95Ms: null,
    cost: costFigures(NO_COST, { visits: 0, stored: leads, sold: m.sold, revenueCents: m.revenueCents }),
  };
}

const ZERO = { sold: 0, rejected: 0, returned: 0, revenueCents: 0 };

/**
 * Every cut's rows, largest by leads (then revenue) first, at most `limit` each. `landings`: the
 * stored leads by landing page when the caller has them (the rollups' "stored", as the overview's
 * landing-page breakdown counts them), used when the question is unfiltered. The money cells and
 * the landing pages may be queries under way: the cuts' own queries start at once beside them
 * (PostgreSQL answers them on other connections).
 */
export async function leadCuts(db: Store, f: FunnelFilter, cellsAsked: MoneyAsked, limit = 50, landings?: Landings): Promise<Record<Cut, CutRow[]>> {
  const [{ leads, offered }] = await Promise.all([
    filtered(f) ? filteredLeadsAndOffers(db, f) : Promise.all([storedLeads(db, f, landings), offers(db, f)]).then(([leads, offered]) => ({ leads, offered })),
    cellsAsked,
  ]);
  const order = (rows: CutRow[]) => rows.sort((a, b) => b.leads - a.leads || b.revenueCents - a.revenueCents || (a.key < b.key ? -1 : 1)).slice(0, limit);
  const out = {} as Record<Cut, CutRow[]>;
  for (const cut of ['subId', 'loanKind', 'landing'] as const) {
    const stored = new Map<string, number>(cut === 'landing' && leads.landings ? leads.landings : []);
    if (!(cut === 'landing' && leads.landings)) for (const r of leads.rows) stored.set(r[cut]!, (stored.get(r[cut]!) ?? 0) + Number(r.n));
    const money = moneyBy(await cellsFor(cellsAsked, cut), (c) => c[cut]);
    const keys = new Set([...stored.keys(), ...money.keys()]);
    out[cut] = order([...keys].map((k) => rowOf(k, stored.get(k) ?? 0, money.get(k) ?? ZERO)));
  }
  // A lead no buyer took has no buyer: its cell's buyer is '' and is not a buyer's row.
  const money = moneyBy(
    (await cellsFor(cellsAsked, 'buyer')).filter((c) => c.buyer !== ''),
    (c) => c.buyer,
  );
  const byBuyer = new Map(offered.counts.map((r) => [r.buyer, { offered: Number(r.offered), accepted: Number(r.accepted) }]));
  const hist = new Map<string, [number, number][]>();
  for (const r of offered.latencies) hist.set(r.buyer, [...(hist.get(r.buyer) ?? []), [Number(r.ms), Number(r.n)]]);
  const buyers = new Set([...byBuyer.keys(), ...money.keys()]);
  out.buyer = order(
    [...buyers].map((b) => {
      const o = byBuyer.get(b) ?? { offered: 0, accepted: 0 };
      const h = hist.get(b) ?? [];
      return {
        ...rowOf(b, o.offered, { ...ZERO, ...money.get(b), rejected: 0 }, o.accepted),
        p50Ms: histogramPercentile(h, 0.5),
        p95Ms: histogramPercentile(h, 0.95),
      };
    }),
  );
  return out;
}
