/**
 * A lead's final sale written straight into the store, as the sale records it (lead_sales, and
 * lead_returns for a return), for tests that need money on known days without running a sale.
 */
import type { Store } from '../../engine/store/db';

export async function recordSaleRow(db: Store, s: { leadId: string; buyer: string; priceCents: number; at: Date; returnedAt?: Date }): Promise<void> {
  await db
    .insertInto('lead_sales')
    .values({
      lead_id: s.leadId,
      status: s.returnedAt ? 'returned' : 'sold',
      duplicate: 0,
      buyer_id: s.buyer,
      price_cents: s.priceCents,
      runs: 1,
      created_at: s.at.toISOString(),
      decided_at: s.at.toISOString(),
    })
    .execute();
  if (s.returnedAt)
    await db
      .insertInto('lead_returns')
      .values({ lead_id: s.leadId, buyer_id: s.buyer, reason: 'invalid-contact', note: '', price_cents: s.priceCents, created_at: s.returnedAt.toISOString() })
      .execute();
}
