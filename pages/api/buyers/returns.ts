/**
 * POST /api/buyers/returns — a buyer returns a lead it bought (engine/sale/returns.ts). Signed
 * with the buyer's secret (X-Loansites-Buyer + X-Loansites-Signature over the raw body, checked
 * before the body is parsed), JSON only, at most 4 KB, checked against
 * schemas/api/buyer-return.schema.json, rate-limited per client. 201 a new return, 200 the same
 * return again; 401 unknown buyer or bad signature, 404 no lead of yours by that id (none, or
 * another buyer's: the same answer), 409 not returnable.
 */
import schema from '../../../schemas/api/buyer-return.schema.json' with { type: 'json' };
import type { BuyerReturn } from '../../../schemas/api.types';
import { ApiError } from '../../../engine/http/api';
import { json, route } from '../../../engine/http/route';
import { RATE_RULES } from '../../../engine/http/rateLimit';
import { signingBuyer } from '../../../engine/sale/buyerSignature';
import { recordReturn } from '../../../engine/sale/returns';

export const config = { api: { bodyParser: false } };

export default route(
  { methods: ['POST'], rate: RATE_RULES.buyerApi, body: { ...json<BuyerReturn>(schema, 4 * 1024), signedBy: signingBuyer } },
  async ({ body, signer: buyer, store }) => {
    const r = await recordReturn(await store(), buyer, body, new Date());
    if (!r.ok) throw new ApiError(r.status, r.reason);
    return { status: r.created ? 201 : 200, body: r.answer };
  },
);
