/**
 * GET /api/geocoding/v5/mapbox.places/{query}.json — the embedded geocoder at Mapbox's path
 * under /api, on every brand host. Reads the raw request URL (not Next's parsed query), so the
 * same function runs under Next and on a bare node:http server in tests and benchmarks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, brandOfRequest, clientIp, handleApi, requireMethod } from './api';
import { enforceRateLimit, RATE_RULES } from './rateLimit';
import { parseGeocodeRequest } from './geocodeRequest';
import { forwardGeocode, reverseGeocode } from '../geo/geocoder/search';

export const GEOCODING_PREFIX = '/api/geocoding/v5/mapbox.places/';

export function geocodingHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => {
    requireMethod(req, ['GET', 'HEAD']);
    brandOfRequest(req);
    await enforceRateLimit(RATE_RULES.geocoder, clientIp(req));
    const raw = req.url ?? '';
    const q = raw.indexOf('?');
    const path = q < 0 ? raw : raw.slice(0, q);
    if (!path.startsWith(GEOCODING_PREFIX) || path.length > 4096) throw new ApiError(404, `Not found: ask ${GEOCODING_PREFIX}{search text}.json`);
    const request = parseGeocodeRequest(path.slice(GEOCODING_PREFIX.length), new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)));
    const body = request.kind === 'reverse' ? reverseGeocode(request) : forwardGeocode(request);
    // The answer depends on the URL alone: browsers and the SWR cache may keep it.
    return { status: 200, body, headers: { 'Cache-Control': 'public, max-age=3600' } };
  });
}
