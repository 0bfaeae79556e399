/**
 * One buyer's record for its console page, from the sale's own tables: a daily trend (pings, bids,
 * wins, revenue, returns) over the last DAYS_SHOWN days, its acceptance and return rates, its
 * response time p50/p95 (pings and posts that were answered) and its last errors (the calls that
 * failed, engine/console/callFailures.ts: not a plain "no bid" or a refusal, which are its decisions). Days are the operator's,
 * as on the overview and the buyers list: the last DAYS_SHOWN to their today, each from their
 * midnight to their midnight (read by UTC hour and grouped by the local day of each hour). Wins,
 * returns and revenue are the overview's money cells for this buyer (moneyCells), in the
 * operator's currency: converted sale by sale at the rates set, a currency without a rate left out
 * and named (engine/traffic/currency.ts). A ping or post whose answer we never recorded because our
 * own sale stopped (`interrupted`, or `sending` on a sale no worker holds at `now`) is not the
 * buyer's doing: it is counted apart (`interrupted`), in no rate.
 */
import { sql } from 'kysely';
import type { Store } from '../store/db';
import { currencyRates } from '../store/currencyRates';
import { BASE_CURRENCY, converter, ratesUsed, type Converter, type RateUsed } from '../traffic/currency';
import { moneyBy, moneyCells } from '../traffic/moneyQuery';
import { failedCall } from './alertQueries';
import { saleNotHeld } from './buyerQueries';
import { localHour, zonedRange } from './periods';
import { localDay } from './range';

export const DAYS_SHOWN = 14;
const LATENCY_SAMPLE = 5000;

export interface BuyerDay {
  day: string;
  pings: number;
  bids: number;
  wins: number;
  revenueCents: number;
  returns: number;
}

export interface BuyerDetail {
  days: BuyerDay[];
  /** posts answered (accepted, refused or unconfirmed) */
  posts: number;
  accepted: number;
  acceptRate: number;
  /** pings and posts whose answer we never recorded: our sale stopped while they were out */
  interrupted: number;
  wins: number;
  returns: number;
  returnRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
  errors: { at: string; step: string; outcome: string; detail: string }[];
  /** the operator's time zone, whose days these are */
  zone: string;
  /** the currency of the revenue, and the currencies converted to it or left out */
  currency: string;
  currencies: RateUsed[];
}

/** The value below which `share` of the sorted values lie (nearest rank); null for none. */
export function percentile(sorted: readonly number[], share: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

export async function buyerDetail(db: Store, buyer: string, now = new Date(), money?: Converter, zone = 'UTC'): Promise<BuyerDetail> {
  const today = localDay(now, zone);
  const dayNames = Array.from({ length: DAYS_SHOWN }, (_, i) =>
    new Date(Date.parse(`${today}T00:00:00.000Z`) - (DAYS_SHOWN - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  const { from, to } = zonedRange(dayNames[0]!, today, zone);
  // by UTC hour, each hour then given to the operator's day it falls in
  const hour = (col: string) => sql<string>`substr(${sql.ref(col)}, 1, 13)`;
  const dayOfHour = (utcHour: string) => localHour(utcHour, zone).slice(0, 10);
  const events = (
    await db
      .selectFrom('sale_events')
      .where('buyer_id', '=', buyer)
      .where('at', '>=', from)
      .select((eb) => [hour('at').as('hour'), 'step', 'outcome', eb.fn.countAll<number | string>().as('n')])
      .groupBy([hour('at'), 'step', 'outcome'])
      .execute()
  ).map((e) => ({ ...e, day: dayOfHour(e.hour) }));
  const conv = money ?? converter(BASE_CURRENCY, await currencyRates(db));
  const byDay = moneyBy(await moneyCells(db, { from, to }, 'hour', conv, { buyer, dims: ['buyer'] }), (c) => dayOfHour(c.at));
  const days = new Map<string, BuyerDay>();
  for (const d of dayNames) days.set(d, { day: d, pings: 0, bids: 0, wins: 0, revenueCents: 0, returns: 0 });
  let posts = 0;
  let accepted = 0;
  let interrupted = 0;
  for (const e of events) {
    const d = days.get(e.day);
    const n = Number(e.n);
    if (e.step === 'ping') {
      if (d) d.pings += n;
      if (d && e.outcome === 'bid') d.bids += n;
    }
    if (e.step === 'post' && e.outcome !== 'sending' && e.outcome !== 'interrupted') {
      posts += n;
      if (e.outcome === 'accepted') accepted += n;
    }
    if ((e.step === 'ping' || e.step === 'post') && e.outcome === 'interrupted') interrupted += n;
  }
  // calls still `sending` whose sale no worker holds at `now`: nobody awaits their answers
  const dead = await db
    .selectFrom('sale_events as e')
    .where('e.buyer_id', '=', buyer)
    .where('e.at', '>=', from)
    .where('e.step', 'in', ['ping', 'post'])
    .where('e.outcome', '=', 'sending')
    .where(saleNotHeld(now))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  interrupted += Number(dead?.n ?? 0);
  for (const [at, m] of byDay) {
    const d = days.get(at);
    if (!d) continue;
    d.wins += m.sold;
    d.returns += m.returned;
    d.revenueCents += m.revenueCents;
  }
  const latencies = await db
    .selectFrom('sale_events')
    .select('latency_ms')
    .where('buyer_id', '=', buyer)
    .where('at', '>=', from)
    .where('step', 'in', ['ping', 'post'])
    .where('latency_ms', 'is not', null)
    .orderBy('at', 'desc')
    .limit(LATENCY_SAMPLE)
    .execute();
  const sorted = latencies.map((l) => Number(l.latency_ms)).sort((a, b) => a - b);
  const errors = await db
    .selectFrom('sale_events')
    .select(['at', 'step', 'outcome', 'detail'])
    .where('buyer_id', '=', buyer)
    .where(failedCall)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(10)
    .execute();
  const list = [...days.values()];
  const winCount = list.reduce((s, d) => s + d.wins, 0);
  const returnCount = list.reduce((s, d) => s + d.returns, 0);
  return {
    days: list,
    posts,
    accepted,
    acceptRate: posts ? accepted / posts : 0,
    interrupted,
    wins: winCount,
    returns: returnCount,
    returnRate: winCount ? returnCount / winCount : 0,
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    errors: errors.map((e) => ({ ...e, detail: e.detail.slice(0, 200) })),
    zone: zone || 'UTC',
    currency: conv.to,
    currencies: ratesUsed(conv),
  };
}
