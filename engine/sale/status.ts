/**
 * What the borrower's page learns of a sale (schemas/api/sale-status.schema.json): finding,
 * matched (the lender's display name and where to continue) or none. Unsold, duplicate and
 * suppressed all read "none": the borrower is told honestly that nothing was sold, not why a
 * contact matched another request.
 */
import type { SaleStatusAnswer } from '../../schemas/api.types';
import type { Buyer } from '../../schemas/buyer.types';
import { DEMO_LENDER_ID } from './demoLender';
import { demoOfferUrl } from './demoOffer';
import { checkRedirect } from './redirect';
import type { LeadSalesTable } from '../store/saleTables';

export function saleStatusAnswer(sale: LeadSalesTable | undefined, buyerOf: (id: string) => Buyer | undefined): SaleStatusAnswer {
  if (!sale || sale.status === 'pending') return { state: 'finding' };
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
