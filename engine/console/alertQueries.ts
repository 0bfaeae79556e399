/**
 * What the failures, no-sale and lead-rate rules find now (engine/console/alertRules.ts says when
 * each fires): subject → message, for each subject in alert. Read from the sale's own timeline
 * (sale_events, as the buyer's console page reads its last errors), its decisions (lead_sales) and
 * the traffic's hourly rollup (traffic_hourly), each through an index by time.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Buyer } from '../../schemas/buyer.types';
import type { Database, Store } from '../store/db';
import { hourOf } from '../store/trafficRules';
import { isOpen } from '../sale/schedule';
import { failuresHigh, leadRateLow, quietMinutes, type AlertRule } from './alertRules';
import { DECISIONS } from './callFailures';

export type Found = Map<string, string>;

const TIMED_OUT = 'no answer within %';

/** A failed call in SQL (engine/console/callFailures.ts says which; isFailedCall is the same rule in code). */
export const failedCall = (eb: ExpressionBuilder<Database, 'sale_events'>) =>
  eb.or([
    eb.and([eb('step', '=', 'ping'), eb('outcome', '=', 'no-bid'), ...DECISIONS.ping.map((p) => eb('detail', 'not like', p))]),
    eb.and([eb('step', '=', 'post'), eb('outcome', '=', 'unconfirmed')]),
    eb.and([eb('step', '=', 'post'), eb('outcome', '=', 'refused'), ...DECISIONS.post.map((p) => eb('detail', 'not like', p))]),
  ]);

const pct = (part: number, whole: number) => (whole ? Math.round((part * 1000) / whole) / 10 : 0);

/** Each buyer's failed pings and posts over the last hour, against the rule's threshold. */
export async function failuresFound(db: Store, rule: AlertRule, now: Date): Promise<Found> {
  const since = new Date(now.getTime() - 3_600_000).toISOString();
  let q = db
    .selectFrom('sale_events')
    .where('at', '>=', since)
    .where('at', '<', now.toISOString())
    .where('step', 'in', ['ping', 'post'])
    // calls whose answer was read: not one still out, nor a ping whose answer its interrupted sale never recorded
    .where('outcome', 'not in', ['sending', 'interrupted']);
  if (rule.subject) q = q.where('buyer_id', '=', rule.subject);
  const rows = await q
    .select((eb) => [
      'buyer_id as buyer',
      eb.fn.countAll<number | string>().as('calls'),
      eb.fn.count<number | string>(eb.case().when(failedCall(eb)).then(1).end()).as('failed'),
      eb.fn
        .count<number | string>(
          eb
            .case()
            .when(eb.and([failedCall(eb), eb('detail', 'like', TIMED_OUT)]))
            .then(1)
            .end(),
        )
        .as('timeouts'),
    ])
    .groupBy('buyer_id')
    .execute();
  const out: Found = new Map();
  for (const r of rows) {
    const [calls, fails, timeouts] = [Number(r.calls), Number(r.failed), Number(r.timeouts)];
    if (!failuresHigh(calls, fails, rule.threshold, rule.unit)) continue;
    out.set(
      `${r.buyer} failures`,
      `Buyer ${r.buyer}: ${fails} of ${calls} pings and posts failed in the last hour (${pct(fails, calls)} %, ${timeouts} timed out), at or over ${rule.threshold}${rule.unit === 'calls' ? ' failed calls' : ' %'}.`,
    );
  }
  return out;
}

/** Whether a buyer takes leads at that instant: enabled and inside its schedule. */
export const scheduled = (b: Buyer, at: Date): boolean => b.enabled !== false && isOpen(b.schedule, at);

/** No sale over the quiet time, while buyers were scheduled through all of it. */
export async function noSaleFound(db: Store, rule: AlertRule, buyers: readonly Buyer[], now: Date): Promise<Found> {
  const out: Found = new Map();
  const since = new Date(now.getTime() - rule.windowMinutes * 60_000).toISOString();
  const sold = db.selectFrom('lead_sales').where('status', 'in', ['sold', 'returned']).where('decided_at', '<=', now.toISOString());
  if (await sold.select('lead_id').where('decided_at', '>=', since).limit(1).executeTakeFirst()) return out;
  // A window that opened a minute ago has had no chance to sell: every minute of the quiet time must have had a buyer.
  if (!quietMinutes(now, rule.windowMinutes).every((at) => buyers.some((b) => scheduled(b, at)))) return out;
  const last = await sold.select((eb) => eb.fn.max('decided_at').as('at')).executeTakeFirst();
  const open = buyers.filter((b) => scheduled(b, now)).map((b) => b.id);
  out.set(
    'no sale',
    `No sale for ${rule.windowMinutes} min while buyers are scheduled (${open.slice(0, 5).join(', ')}${open.length > 5 ? ` and ${open.length - 5} more` : ''}); the last sale was ${last?.at ? `at ${last.at}` : 'never'}.`,
  );
  return out;
}

type Rates = Map<string, { visits: number; leads: number }>;

/** Visits and stored leads per brand over whole hours [from, to) (UTC, as the rollup keeps them). */
async function visitsAndLeads(db: Store, subject: string, from: Date, to: Date): Promise<Rates> {
  let q = db
    .selectFrom('traffic_hourly')
    .where('metric', 'in', ['visit', 'stored'])
    .where('hour', '>=', hourOf(from.toISOString()))
    .where('hour', '<', hourOf(to.toISOString()));
  if (subject) q = q.where('brand', '=', subject);
  const rows = await q
    .select((eb) => ['brand', 'metric', eb.fn.sum<number | string>('count').as('n')])
    .groupBy(['brand', 'metric'])
    .execute();
  const out: Rates = new Map();
  for (const r of rows) {
    const c = out.get(r.brand) ?? { visits: 0, leads: 0 };
    if (r.metric === 'visit') c.visits += Number(r.n);
    else c.leads += Number(r.n);
    out.set(r.brand, c);
  }
  return out;
}

const WEEK_MS = 7 * 86_400_000;

/** Each brand's lead rate over the last N whole hours against the same hours a week earlier. */
export async function leadRateFound(db: Store, rule: AlertRule, now: Date): Promise<Found> {
  const from = new Date(now.getTime() - rule.windowHours * 3_600_000);
  const recent = await visitsAndLeads(db, rule.subject, from, now);
  const before = await visitsAndLeads(db, rule.subject, new Date(from.getTime() - WEEK_MS), new Date(now.getTime() - WEEK_MS));
  const out: Found = new Map();
  for (const [brand, r] of recent) {
    const w = before.get(brand) ?? { visits: 0, leads: 0 };
    if (!leadRateLow(r, w, rule.threshold, rule.minimum)) continue;
    out.set(
      `${brand} lead rate`,
      `Brand ${brand} turned ${pct(r.leads, r.visits)} % of visits into leads over the last ${rule.windowHours} h (${r.leads} of ${r.visits}), under ${rule.threshold} % of its ${pct(w.leads, w.visits)} % in the same hours last week (${w.leads} of ${w.visits}).`,
    );
  }
  return out;
}
