/**
 * Returns: a buyer gives back a lead it bought, within its returnWindowDays, with a reason code
 * (schemas/api/buyer-return.schema.json). The request is signed with the buyer's secret like
 * everything we send it; a return reverses the sale — the sale row turns 'returned' (no longer
 * revenue, no longer counted against the buyer's caps), the price given back and the reason are
 * kept in lead_returns, and the timeline gets the return. The same return again is answered with
 * the first one's record and changes nothing (the lead id is the key).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BuyerReturn, BuyerReturnAnswer } from '../../schemas/api.types';
import type { Buyer } from '../../schemas/buyer.types';
import type { Store } from '../store/db';
import { addEvent } from '../store/sales';
import type { LeadReturnsTable } from '../store/saleTables';

const DAY_MS = 24 * 3600_000;

/** The buyer whose secret signed `raw`, or undefined (unknown buyer and bad signature look the same). */
export function signedBy(
  raw: Buffer,
  buyerId: string,
  signatureHeader: string,
  buyerOf: (id: string) => Buyer | undefined,
  secretOf: (b: Buyer) => string | undefined,
) {
  const buyer = buyerOf(buyerId);
  const secret = buyer && secretOf(buyer);
  if (!buyer || !secret) return undefined;
  // Hex is read in either case: many languages' hex encoders write capitals (.NET's Convert.ToHexString).
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(signatureHeader.trim())?.[1];
  if (!hex) return undefined;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex')) ? buyer : undefined;
}

export type ReturnResult = { ok: true; created: boolean; answer: BuyerReturnAnswer } | { ok: false; status: 404 | 409; reason: string };

const answerOf = (r: LeadReturnsTable): BuyerReturnAnswer => ({
  leadId: r.lead_id,
  status: 'returned',
  reason: r.reason,
  refundedPrice: r.price_cents / 100,
  returnedAt: r.created_at,
});

/** Records the return of `body.leadId` by `buyer`, or says why not. */
export async function recordReturn(db: Store, buyer: Buyer, body: BuyerReturn, now: Date): Promise<ReturnResult> {
  return db.transaction().execute(async (trx): Promise<ReturnResult> => {
    const sale = await trx.selectFrom('lead_sales').selectAll().where('lead_id', '=', body.leadId).executeTakeFirst();
    // Another buyer's lead and no lead at all get the same answer: a buyer must not learn which lead ids exist.
    if (!sale || sale.buyer_id !== buyer.id || (sale.status !== 'sold' && sale.status !== 'returned'))
      return { ok: false, status: 404, reason: `No lead ${body.leadId} sold to ${buyer.id}` };
    const earlier = await trx.selectFrom('lead_returns').selectAll().where('lead_id', '=', body.leadId).executeTakeFirst();
    if (earlier) return { ok: true, created: false, answer: answerOf(earlier) };
    const days = buyer.returnWindowDays ?? 0;
    if (days <= 0) return { ok: false, status: 409, reason: `Returns are not agreed with ${buyer.id} (returnWindowDays is 0)` };
    const closes = Date.parse(sale.decided_at ?? sale.created_at) + days * DAY_MS;
    if (now.getTime() > closes) return { ok: false, status: 409, reason: `The return window of ${days} days closed on ${new Date(closes).toISOString()}` };

    const row: LeadReturnsTable = {
      lead_id: body.leadId,
      buyer_id: buyer.id,
      reason: body.reason,
      note: body.note ?? '',
      price_cents: sale.price_cents ?? 0,
      created_at: now.toISOString(),
    };
    const inserted = await trx
      .insertInto('lead_returns')
      .values(row)
      .onConflict((oc) => oc.column('lead_id').doNothing())
      .executeTakeFirst();
    if (!Number(inserted.numInsertedOrUpdatedRows ?? 0)) {
      // Another request recorded the same return meanwhile: its record is the answer.
      const first = await trx.selectFrom('lead_returns').selectAll().where('lead_id', '=', body.leadId).executeTakeFirstOrThrow();
      return { ok: true, created: false, answer: answerOf(first) };
    }
    await trx.updateTable('lead_sales').set({ status: 'returned' }).where('lead_id', '=', body.leadId).where('status', '=', 'sold').execute();
    await addEvent(trx, {
      lead_id: body.leadId,
      at: row.created_at,
      buyer_id: buyer.id,
      step: 'return',
      outcome: 'returned',
      price_cents: -row.price_cents,
      detail: row.note ? `${row.reason}: ${row.note}` : row.reason,
    });
    return { ok: true, created: true, answer: answerOf(row) };
  });
}

/** The returns of these leads, by lead id (the listings show a returned sale's refund and day); asked 5,000 ids at a time, within both stores' parameter limits. */
export async function returnsOf(db: Store, leadIds: readonly string[]): Promise<Map<string, LeadReturnsTable>> {
  const parts = Array.from({ length: Math.ceil(leadIds.length / 5000) }, (_, i) => leadIds.slice(i * 5000, (i + 1) * 5000));
  const rows = await Promise.all(parts.map((ids) => db.selectFrom('lead_returns').selectAll().where('lead_id', 'in', ids).execute()));
  return new Map(rows.flat().map((r) => [r.lead_id, r]));
}
