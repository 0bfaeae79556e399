/** A campaign's funnel as the overview's daily rollups count it: metric → count, over all days. */
import type { Store } from '../../engine/store/db';

export async function campaignCounts(db: Store, campaign: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('traffic_daily')
    .select((eb) => ['metric', eb.fn.sum<number | string>('count').as('n')])
    .where('dim', '=', 'campaign')
    .where('key', '=', campaign)
    .groupBy('metric')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.metric, Number(r.n)]));
}
