/**
 * GET /api/sale-status?token=… — the borrower's page polls this while the lead is sold. The
 * token (from POST /api/leads) is unguessable and names one lead; the answer holds nothing
 * personal (engine/sale/status.ts). A wrong or missing token is a 404, the same as an unknown one.
 */
import { ApiError } from '../../engine/http/api';
import { route } from '../../engine/http/route';
import { saleStatusOf } from '../../engine/sale/status';
import { leadOfSaleToken } from '../../engine/sale/keys';
import { saleBuyers } from '../../engine/sale/settings';

export default route({ methods: ['GET'] }, async ({ req, store }) => {
  const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
  const leadId = token.length <= 120 ? leadOfSaleToken(token) : undefined;
  if (!leadId) throw new ApiError(404, 'No such request');
  const { buyers } = saleBuyers();
  return { status: 200, body: await saleStatusOf(await store(), leadId, (id) => buyers.find((b) => b.id === id)) };
});
