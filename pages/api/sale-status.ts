/**
 * GET /api/sale-status?token=… — the borrower's page polls this while the lead is sold. The
 * token (from POST /api/leads) is unguessable and names one lead; the answer holds nothing
 * personal (engine/sale/status.ts). A wrong or missing token is a 404, the same as an unknown one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, handleApi, requireMethod } from '../../engine/http/api';
import { saleStatusAnswer } from '../../engine/sale/status';
import { leadOfSaleToken } from '../../engine/sale/keys';
import { saleBuyers } from '../../engine/sale/settings';
import { saleOf } from '../../engine/store/sales';
import { getStore } from '../../engine/store/db';

export default function handler(req: IncomingMessage, res: ServerResponse) {
  return handleApi(req, res, async () => {
    requireMethod(req, ['GET']);
    const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
    const leadId = token.length <= 120 ? leadOfSaleToken(token) : undefined;
    if (!leadId) throw new ApiError(404, 'No such request');
    const sale = await saleOf(await getStore(), leadId);
    const { buyers } = saleBuyers();
    return { status: 200, body: saleStatusAnswer(sale, (id) => buyers.find((b) => b.id === id)) };
  });
}
