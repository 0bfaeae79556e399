/**
 * How many funnel events were refused (past the site's ingest budget, or dropped by a full
 * writer queue) in a range, for a brand or all: when it is not 0 the overview's counts are a
 * sample, short of what happened, and the overview says so. Hours as the funnel's hourly rollups
 * count them ([from, to) at hour precision).
 */
import type { Store } from '../store/db';

export async function refusedEvents(db: Store, f: { from: string; to: string; brand?: string }): Promise<number> {
  let q = db
    .selectFrom('traffic_refused')
    .select((eb) => eb.fn.sum<number | string>('count').as('n'))
    .where('hour', '>=', f.from.slice(0, 13))
    .where('hour', '<', f.to.slice(0, 13));
  if (f.brand) q = q.where('brand', '=', f.brand);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}
