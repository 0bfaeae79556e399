/**
 * How much of its caps each buyer has used today and this month, counted as the sale counts them
 * (sold leads — for a deliver buyer, leads queued to it — in the buyer's schedule time zone, across
 * every instance: engine/store/sales.ts soldCounts, queuedCounts). Server only: the buyers page
 * calls it from getServerSideProps.
 */
import type { Buyer } from '../../schemas/buyer.types';
import { localTime } from '../sale/schedule';
import { deliverDestination } from '../sale/runner';
import { queuedCounts, soldCounts } from '../store/sales';
import type { Store } from '../store/db';

/** What a buyer's caps count on its day and month: leads sold to it, or for a deliver buyer leads queued to it. */
export const capCounts = (db: Store, buyer: Buyer, day: string, month: string): Promise<{ day: number; month: number }> =>
  buyer.mode === 'deliver' ? queuedCounts(db, deliverDestination(buyer.id), day, month) : soldCounts(db, buyer.id, day, month);

/** "3 of 5 today, 40 of 100 this month"; '' for a buyer without caps. */
export async function capsUsed(db: Store, buyer: Buyer, now: Date): Promise<string> {
  const caps = buyer.caps;
  if (caps?.perDay === undefined && caps?.perMonth === undefined) return '';
  const t = localTime(now, buyer.schedule?.timeZone);
  const sold = await capCounts(db, buyer, t.day, t.month);
  return [
    caps.perDay !== undefined ? `${sold.day} of ${caps.perDay} today` : '',
    caps.perMonth !== undefined ? `${sold.month} of ${caps.perMonth} this month` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** Buyer id → its caps used, for the buyers that have caps. */
export async function capsUsedOf(db: Store, buyers: readonly Buyer[], now = new Date()): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const b of buyers) {
    const used = await capsUsed(db, b, now);
    if (used) out.set(b.id, used);
  }
  return out;
}
