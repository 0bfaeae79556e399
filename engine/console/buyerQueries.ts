/**
 * The console's buyers page: per buyer, over a time range, its pings and bids, posts and
 * acceptances, sales won and their revenue, average price and latency, the leads it returned, its
 * last failed call (engine/console/callFailures.ts), and how much of today's and this month's caps it has used (in its time zone);
 * and an alert when a buyer has answered nothing but no-bids and refusals over its last
 * ALERT_AFTER calls. Counted from the sale's own record (sale_events, lead_sales, lead_returns);
 * the pivot is pure (tests/unit/console-pages.test.ts). A ping or post whose answer we never
 * recorded because our own sale stopped -- settled `interrupted`, or still `sending` on a sale no
 * worker holds any more (engine/console/leadQueries.ts saleProgress) -- is not the buyer's doing:
 * it counts among the pings and posts that went out and in its own `interrupted` column, but in
 * no rate (bid rate: bids of the pings answered; accept rate: acceptances of the posts answered)
 * and not among the last calls the alert reads. Money as on the overview
 * (engine/traffic/moneyQuery.ts): a sale is won on the day it was decided, at its price, even if
 * returned later; a return counts on its own day and its price comes off that day's revenue. The
 * money is the overview's own cells (moneyCells), so it is in the operator's currency, converted
 * sale by sale at the rates an admin set, a currency without a rate left out and named
 * (engine/traffic/currency.ts).
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database, Store } from '../store/db';
import { currencyRates } from '../store/currencyRates';
import { BASE_CURRENCY, converter, type Converter } from '../traffic/currency';
import { moneyBy, moneyCells } from '../traffic/moneyQuery';
import { isFailedCall } from './callFailures';

export const ALERT_AFTER = 10;

export interface BuyerStats {
  buyer: string;
  pings: number;
  bids: number;
  posts: number;
  accepted: number;
  refused: number;
  /** sales decided in the range (those returned since included) */
  wins: number;
  /** their prices less the prices given back by the returns made in the range */
  revenueCents: number;
  averagePriceCents: number;
  averageLatencyMs: number;
  /** bids ÷ pings answered (bid or no-bid) */
  bidRate: number;
  /** acceptances ÷ posts answered (accepted, refused or unconfirmed) */
  acceptRate: number;
  /** pings and posts whose answer we never recorded: our sale stopped while they were out */
  interrupted: number;
  /** returns it made in the range, and their share of its sales */
  returned: number;
  returnedCents: number;
  returnRate: number;
  /** "3 of 5 today, 40 of 100 this month", or '' for a buyer without caps */
  capsUsed: string;
  lastError: string;
  /** the last ALERT_AFTER pings and posts were all no-bids or refusals */
  alert: boolean;
}

export interface EventCount {
  buyer_id: string;
  step: string;
  outcome: string;
  n: number;
  latency: number;
  latencyCount: number;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
/** A post refused, or never confirmed (sold to nobody): counted in the refused column either way. */
const failed = (outcome: string) => outcome === 'refused' || outcome === 'unconfirmed';
/** Outcomes that are the buyer's answer: what the rates and the alert read. */
const ANSWERED_PING = new Set(['bid', 'no-bid']);
const ANSWERED_POST = new Set(['accepted', 'refused', 'unconfirmed']);
/** A call still out or interrupted: no answer of the buyer's (yet, or ever). */
export const UNANSWERED = ['sending', 'interrupted'] as const;

/**
 * A sale event's sale no worker holds at `now` (decided, or its lease ran out): a call of it still
 * `sending` has nobody awaiting its answer (engine/console/leadQueries.ts saleProgress).
 */
export const saleNotHeld = (now: Date) => (eb: ExpressionBuilder<Database & { e: Database['sale_events'] }, 'e'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('lead_sales as s')
        .select('s.lead_id')
        .whereRef('s.lead_id', '=', 'e.lead_id')
        .where('s.status', '=', 'pending')
        .where('s.claimed_until', '>', now.toISOString()),
    ),
  );

/** Event counts by (buyer, step, outcome), sales won, each buyer's last calls and last error → one row a buyer, most revenue first. */
export function buyerStats(
  counts: EventCount[],
  wins: { buyer_id: string; n: number; cents: number }[],
  recent: Map<string, string[]>,
  lastErrors: Map<string, string>,
  more: { returned?: Map<string, { n: number; cents: number }>; capsUsed?: Map<string, string> } = {},
): BuyerStats[] {
  const rows = new Map<string, BuyerStats>();
  const row = (buyer: string) => {
    let r = rows.get(buyer);
    if (!r) {
      r = {
        buyer,
        pings: 0,
        bids: 0,
        posts: 0,
        accepted: 0,
        refused: 0,
        wins: 0,
        revenueCents: 0,
        averagePriceCents: 0,
        averageLatencyMs: 0,
        bidRate: 0,
        acceptRate: 0,
        interrupted: 0,
        returned: 0,
        returnedCents: 0,
        returnRate: 0,
        capsUsed: '',
        lastError: '',
        alert: false,
      };
      rows.set(buyer, r);
    }
    return r;
  };
  const latency = new Map<string, [sum: number, n: number]>();
  const answered = new Map<string, { pings: number; posts: number }>();
  for (const c of counts) {
    const r = row(c.buyer_id);
    const a = answered.get(c.buyer_id) ?? { pings: 0, posts: 0 };
    answered.set(c.buyer_id, a);
    if (c.step === 'ping') {
      r.pings += c.n;
      if (c.outcome === 'bid') r.bids += c.n;
      if (ANSWERED_PING.has(c.outcome)) a.pings += c.n;
    }
    if (c.step === 'post') {
      r.posts += c.n;
      if (c.outcome === 'accepted') r.accepted += c.n;
      if (failed(c.outcome)) r.refused += c.n;
      if (ANSWERED_POST.has(c.outcome)) a.posts += c.n;
    }
    if ((c.step === 'ping' || c.step === 'post') && c.outcome === 'interrupted') r.interrupted += c.n;
    const l = latency.get(c.buyer_id) ?? [0, 0];
    latency.set(c.buyer_id, [l[0] + c.latency, l[1] + c.latencyCount]);
  }
  for (const [buyer, r] of more.returned ?? []) Object.assign(row(buyer), { returned: r.n, returnedCents: r.cents });
  for (const [buyer, used] of more.capsUsed ?? []) row(buyer).capsUsed = used;
  for (const w of wins) {
    const r = row(w.buyer_id);
    r.wins = w.n;
    r.revenueCents = w.cents;
  }
  const soldCents = new Map([...rows.values()].map((r) => [r.buyer, r.revenueCents]));
  for (const r of rows.values()) {
    const [sum, n] = latency.get(r.buyer) ?? [0, 0];
    r.averageLatencyMs = Math.round(ratio(sum, n));
    r.averagePriceCents = Math.round(ratio(soldCents.get(r.buyer) ?? 0, r.wins));
    r.revenueCents -= r.returnedCents;
    const a = answered.get(r.buyer) ?? { pings: 0, posts: 0 };
    r.bidRate = ratio(r.bids, a.pings);
    r.acceptRate = ratio(r.accepted, a.posts);
    r.returnRate = ratio(r.returned, r.wins);
    r.lastError = lastErrors.get(r.buyer) ?? '';
    const last = recent.get(r.buyer) ?? [];
    // `recent` holds answered calls only (buyersOverview): an interrupted ping neither raises nor clears the alert
    r.alert = last.length >= ALERT_AFTER && last.every((o) => o === 'no-bid' || failed(o));
  }
  return [...rows.values()].sort((a, b) => b.revenueCents - a.revenueCents || b.pings - a.pings || (a.buyer < b.buyer ? -1 : 1));
}

/** Moves the `sending` calls of sales nobody holds (`dead`, per buyer and step) to `interrupted`. */
export function withDeadSending(counts: EventCount[], dead: { buyer_id: string; step: string; n: number }[]): EventCount[] {
  const out = counts.map((c) => ({ ...c }));
  for (const d of dead) {
    const sending = out.find((c) => c.buyer_id === d.buyer_id && c.step === d.step && c.outcome === 'sending');
    if (sending) sending.n -= d.n;
    const interrupted = out.find((c) => c.buyer_id === d.buyer_id && c.step === d.step && c.outcome === 'interrupted');
    if (interrupted) interrupted.n += d.n;
    else out.push({ buyer_id: d.buyer_id, step: d.step, outcome: 'interrupted', n: d.n, latency: 0, latencyCount: 0 });
  }
  return out.filter((c) => c.n > 0);
}

/**
 * The buyers' rows over [from, to), read at `now` (a call still `sending` on a sale no worker
 * holds at `now` counts as interrupted, as the lead's page shows it); `capsUsed` from engine/console/buyerCaps.ts (kept apart: this module is also the page's, in the browser bundle);
 * money in `money`'s currency (default: US dollars at the rates set), its `met` naming what was converted or left out.
 */
export async function buyersOverview(
  db: Store,
  from: string,
  to: string,
  capsUsed: ReadonlyMap<string, string> = new Map(),
  money?: Converter,
  now = new Date(),
): Promise<BuyerStats[]> {
  const counted = await db
    .selectFrom('sale_events')
    .where('at', '>=', from)
    .where('at', '<', to)
    .where('buyer_id', '!=', '')
    .select((eb) => [
      'buyer_id',
      'step',
      'outcome',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string | null>('latency_ms').as('latency'),
      eb.fn.count<number | string>('latency_ms').as('latencyCount'),
    ])
    .groupBy(['buyer_id', 'step', 'outcome'])
    .execute();
  // calls still `sending` whose sale no worker holds: nobody awaits their answers (leadQueries.ts saleProgress)
  const dead = await db
    .selectFrom('sale_events as e')
    .where('e.at', '>=', from)
    .where('e.at', '<', to)
    .where('e.buyer_id', '!=', '')
    .where('e.step', 'in', ['ping', 'post'])
    .where('e.outcome', '=', 'sending')
    .where(saleNotHeld(now))
    .select((eb) => ['e.buyer_id', 'e.step', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['e.buyer_id', 'e.step'])
    .execute();
  const counts = withDeadSending(
    counted.map((c) => ({ ...c, n: Number(c.n), latency: Number(c.latency ?? 0), latencyCount: Number(c.latencyCount) })),
    dead.map((d) => ({ buyer_id: d.buyer_id, step: d.step, n: Number(d.n) })),
  );
  const cells = await moneyCells(db, { from, to }, 'day', money ?? converter(BASE_CURRENCY, await currencyRates(db)), { dims: ['buyer'] });
  const byBuyer = [...moneyBy(cells, (c) => c.buyer)].filter(([buyer]) => buyer !== '');
  const called = [...new Set(counts.map((c) => c.buyer_id))];
  const recent = new Map<string, string[]>();
  const lastErrors = new Map<string, string>();
  for (const b of called) {
    const last = await db
      .selectFrom('sale_events')
      .select(['step', 'outcome', 'detail'])
      .where('buyer_id', '=', b)
      .where('step', 'in', ['ping', 'post'])
      .where('outcome', 'not in', UNANSWERED)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(ALERT_AFTER)
      .execute();
    recent.set(
      b,
      last.map((e) => e.outcome),
    );
    const err = last.find((e) => isFailedCall(e.step, e.outcome, e.detail));
    if (err) lastErrors.set(b, err.detail.slice(0, 200));
  }
  return buyerStats(
    counts,
    byBuyer.filter(([, m]) => m.sold > 0).map(([buyer, m]) => ({ buyer_id: buyer, n: m.sold, cents: m.soldCents })),
    recent,
    lastErrors,
    {
      returned: new Map(byBuyer.filter(([, m]) => m.returned > 0).map(([buyer, m]) => [buyer, { n: m.returned, cents: m.returnedCents }])),
      capsUsed: new Map(capsUsed),
    },
  );
}
