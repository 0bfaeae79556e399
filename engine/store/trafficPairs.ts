/**
 * The filtered daily rollups (migrations/009_traffic_daily_pairs.ts) as the writer keeps them: the
 * hourly increments of a batch, summed by day for each filter dimension's value and each other
 * dimension, upserted in key order (two instances writing at once lock rows in the same order).
 */
import type { Transaction } from 'kysely';
import type { Database } from './db';
import type { TrafficHourlyTable } from './traffic';
import { PAIR_DIMS, PAIR_FILTER_DIMS } from './migrations/009_traffic_daily_pairs';

export interface TrafficDailyPairsTable {
  /** the filter dimension (campaign, source, landing or device) */
  fdim: string;
  /** its value */
  fkey: string;
  /** what `key` is a value of; "all" (key "") for the whole filtered funnel */
  dim: string;
  day: string;
  key: string;
  metric: string;
  count: number;
  value: number | string;
}

/** Hourly increments → the same increments in the filtered daily rollups (pure). */
export function pairIncrements(rows: readonly TrafficHourlyTable[]): TrafficDailyPairsTable[] {
  const out = new Map<string, TrafficDailyPairsTable>();
  for (const r of rows) {
    const day = r.hour.slice(0, 10);
    for (const fdim of PAIR_FILTER_DIMS) {
      for (const dim of PAIR_DIMS) {
        if (dim === fdim) continue;
        const row = { fdim, fkey: r[fdim], dim, day, key: dim === 'all' ? '' : r[dim], metric: r.metric };
        const k = JSON.stringify([row.fdim, row.fkey, row.dim, row.day, row.key, row.metric]);
        const cur = out.get(k);
        if (cur) {
          cur.count += r.count;
          cur.value = Number(cur.value) + Number(r.value);
        } else out.set(k, { ...row, count: r.count, value: Number(r.value) });
      }
    }
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

export async function upsertPairs(trx: Transaction<Database>, rows: readonly TrafficDailyPairsTable[], chunk = 200): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await trx
      .insertInto('traffic_daily_pairs')
      .values(rows.slice(i, i + chunk))
      .onConflict((oc) =>
        oc.columns(['fdim', 'fkey', 'dim', 'day', 'key', 'metric']).doUpdateSet((eb) => ({
          count: eb(eb.ref('traffic_daily_pairs.count'), '+', eb.ref('excluded.count')),
          value: eb(eb.ref('traffic_daily_pairs.value'), '+', eb.ref('excluded.value')),
        })),
      )
      .execute();
  }
}
