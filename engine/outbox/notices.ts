/**
 * Outbox rows that are not a lead delivery: the opt-out notice to a buyer that may hold the lead
 * ("optout:<buyer id>"; engine/sale/optOut.ts says which). The outbox worker (engine/outbox/deliver.ts) claims, retries and
 * records them like any delivery; this module only says what request a row is. The body is
 * rebuilt from stored rows on every attempt, so a retry sends the same notice.
 */
import type { Buyer } from '../../schemas/buyer.types';
import type { BuyerOptOutNotice } from '../../schemas/api.types';
import type { Store } from '../store/db';
import type { LeadDeliveriesTable, LeadsTable } from '../store/leads';
import { OPT_OUT_NOTICE } from '../sale/optOut';
import { saleOf } from '../store/sales';

/** One outbox row as the HTTP request that delivers it. */
export interface OutboxRequest {
  url: string;
  method: 'POST' | 'GET';
  /** signed JSON (POST); absent for a GET */
  body?: string;
  secret?: string;
  idempotencyKey: string;
  leadId: string;
  timeoutMs: number;
}

export const isNoticeRow = (destination: string): boolean => destination.startsWith(OPT_OUT_NOTICE);

export interface NoticeContext {
  buyerOf: (id: string) => Buyer | undefined;
  secretOf: (buyer: Buyer) => string | undefined;
}

/** The request of a notice row, or why it cannot be sent now (the row is retried later). */
export async function noticeRequest(
  db: Store,
  row: Pick<LeadDeliveriesTable, 'destination' | 'created_at'>,
  lead: LeadsTable,
  ctx: NoticeContext,
): Promise<OutboxRequest | { error: string }> {
  const buyerId = row.destination.slice(OPT_OUT_NOTICE.length);
  const buyer = ctx.buyerOf(buyerId);
  const secret = buyer && ctx.secretOf(buyer);
  if (!buyer?.optOutUrl || !secret) return { error: `buyer "${buyerId}" is no longer configured with an optOutUrl and its secret` };
  const sale = await saleOf(db, lead.id);
  const notice: BuyerOptOutNotice = {
    type: 'opt-out',
    leadId: lead.id,
    // the buyer's own id of the lead: a buyer that was not sold it is never shown another's
    ...(sale?.buyer_lead_id && sale.buyer_id === buyerId ? { buyerLeadId: sale.buyer_lead_id } : {}),
    revokedAt: row.created_at,
    revokes: ['calls', 'texts', 'emails'],
  };
  return {
    url: buyer.optOutUrl,
    method: 'POST',
    body: JSON.stringify(notice),
    secret,
    idempotencyKey: `${OPT_OUT_NOTICE}${lead.id}`,
    leadId: lead.id,
    timeoutMs: buyer.timeouts?.postMs ?? 15_000,
  };
}
