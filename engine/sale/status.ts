/**
 * What the borrower's page learns of a sale (schemas/api/sale-status.schema.json): finding,
 * matched (the lender's display name and where to continue), review or none. Unsold, duplicate and
 * suppressed all read "none": the borrower is told honestly that nothing was sold, not why a
 * contact matched another request. A lead screening held and no operator has decided on yet reads
 * "review": it may still be released and sold, so "not sold" would not stay true; the answer says
 * nothing of why it was held.
 */
import type { SaleStatusAnswer } from '../../schemas/api.types';
import type { Buyer } from '../../schemas/buyer.types';
import { DEMO_LENDER_ID } from './demoLender';
import { demoOfferUrl } from './demoOffer';
import { checkRedirect } from './redirect';
import type { LeadSalesTable } from '../store/saleTables';
import type { Store } from '../store/db';
import { saleOf } from '../store/sales';
import { screeningOf } from '../store/screening';

/** Ended unsold: what screening's hold leaves (a duplicate held too), and what a release reopens (engine/store/screening.ts reviewHeldLead). */
const heldStatus = (sale: LeadSalesTable | undefined) => sale?.status === 'unsold' || sale?.status === 'duplicate';

/** `routing`: screening's routing of the lead ("hold" until an operator releases or rejects it), when it has one. */
export function saleStatusAnswer(sale: LeadSalesTable | undefined, buyerOf: (id: string) => Buyer | undefined, routing?: string): SaleStatusAnswer {
  if (!sale || sale.status === 'pending') return { state: 'finding' };
  if (routing === 'hold' && heldStatus(sale)) return { state: 'review' };
  if (sale.status !== 'sold' || !sale.buyer_id) return { state: 'none' };
  if (sale.buyer_id === DEMO_LENDER_ID)
    return {
      state: 'matched',
      lender: buyerOf(DEMO_LENDER_ID)?.displayName ?? 'Demo Lender',
      continueUrl: demoOfferUrl(sale.buyer_lead_id),
      demo: true,
    };
  const buyer = buyerOf(sale.buyer_id);
  // Checked again on the way out: the buyer's declared hosts may have changed since the sale, and a
  // sale recorded before its length was measured percent-encoded may hold one too long to send.
  const redirect = sale.redirect_url && buyer ? checkRedirect(sale.redirect_url, buyer.redirectHosts) : undefined;
  return { state: 'matched', lender: buyer?.displayName ?? 'your lender', ...(redirect?.ok ? { continueUrl: redirect.url } : {}) };
}

/** The answer for one lead, from the store: its sale and, for a sale that ended unsold, screening's routing. */
export async function saleStatusOf(db: Store, leadId: string, buyerOf: (id: string) => Buyer | undefined): Promise<SaleStatusAnswer> {
  const sale = await saleOf(db, leadId);
  const routing = heldStatus(sale) ? (await screeningOf(db, leadId))?.routing : undefined;
  return saleStatusAnswer(sale, buyerOf, routing);
}
