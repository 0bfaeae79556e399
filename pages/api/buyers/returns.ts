/**
 * POST /api/buyers/returns — a buyer returns a lead it bought (engine/sale/returns.ts). Signed
 * with the buyer's secret (X-Loansites-Buyer + X-Loansites-Signature over the raw body, checked
 * before the body is parsed), JSON only, at most 4 KB, checked against
 * schemas/api/buyer-return.schema.json, rate-limited per client. 201 a new return, 200 the same
 * return again; 401 unknown buyer or bad signature, 404 no lead of yours by that id (none, or
 * another buyer's: the same answer), 409 not returnable.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import schema from '../../../schemas/api/buyer-return.schema.json' with { type: 'json' };
import type { BuyerReturn } from '../../../schemas/api.types';
import { ApiError, clientIp, handleApi, parseJsonBody, readRawBody, requireJsonType, requireMethod } from '../../../engine/http/api';
import { enforceRateLimit, RATE_RULES } from '../../../engine/http/rateLimit';
import { buyerSecret, getBuyers } from '../../../engine/sale/buyers';
import { recordReturn, signedBy } from '../../../engine/sale/returns';
import { getStore } from '../../../engine/store/db';

export const config = { api: { bodyParser: false } };

const header = (req: IncomingMessage, name: string): string => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

export default function handler(req: IncomingMessage, res: ServerResponse) {
  return handleApi(req, res, async () => {
    requireMethod(req, ['POST']);
    await enforceRateLimit(RATE_RULES.buyerApi, clientIp(req));
    requireJsonType(req);
    const raw = await readRawBody(req, 4 * 1024);
    const buyer = signedBy(
      raw,
      header(req, 'x-loansites-buyer'),
      header(req, 'x-loansites-signature'),
      (id) => getBuyers().buyers.get(id)?.buyer,
      (b) => buyerSecret(b),
    );
    if (!buyer)
      throw new ApiError(
        401,
        'Unknown buyer or bad signature: sign the raw body with your secret (X-Loansites-Signature: sha256=<hex>) and name yourself in X-Loansites-Buyer',
      );
    const body = parseJsonBody<BuyerReturn>(raw, schema);
    const r = await recordReturn(await getStore(), buyer, body, new Date());
    if (!r.ok) throw new ApiError(r.status, r.reason);
    return { status: r.created ? 201 : 200, body: r.answer };
  });
}
