/**
 * GET /api/place-page?state=tx&city=Austin&loanType=title-loans → {"path": "/title-loans/austin"}:
 * the page of this host's brand for a place a visitor chose in the location search or found with
 * "Use my location" (engine/site/placePage.ts). 404 when the brand has no page for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, brandOfRequest, clientIp, handleApi, requireMethod } from '../../engine/http/api';
import { enforceRateLimit, RATE_RULES } from '../../engine/http/rateLimit';
import { placePagePath } from '../../engine/site/placePage';
import type { LoanType } from '../../schemas/brand.types';

export const config = { api: { bodyParser: false } };

export default function placePage(req: IncomingMessage, res: ServerResponse) {
  return handleApi(req, res, async () => {
    requireMethod(req, ['GET']);
    const loaded = brandOfRequest(req);
    await enforceRateLimit(RATE_RULES.geocoder, clientIp(req));
    const params = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const state = (params.get('state') ?? '').trim().toLowerCase();
    const city = (params.get('city') ?? '').trim();
    const loanType = (params.get('loanType') ?? '').trim();
    if (!/^[a-z]{2}$/.test(state)) throw new ApiError(400, 'state must be a two-letter state code, e.g. tx');
    if (city.length > 100) throw new ApiError(400, 'city is longer than 100 characters');
    if (loanType && !(loaded.brand.loanTypes as readonly string[]).includes(loanType)) {
      throw new ApiError(400, `loanType must be one of ${loaded.brand.loanTypes.join(', ')}`);
    }
    const path = placePagePath(loaded, { state, ...(city ? { city } : {}), ...(loanType ? { loanType: loanType as LoanType } : {}) });
    if (!path) throw new ApiError(404, `${loaded.brand.name} has no page for that place`);
    return { status: 200, body: { path } };
  });
}
