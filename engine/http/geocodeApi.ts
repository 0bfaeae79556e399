/**
 * GET /api/geocoding/v5/mapbox.places/{query}.json — the embedded geocoder at Mapbox's path
 * under /api, on every brand host. Reads the raw request URL (not Next's parsed query), so the
 * same function runs under Next and on a bare node:http server in tests and benchmarks.
 */
import { ApiError } from './api';
import { RATE_RULES } from './rateLimit';
import { route } from './route';
import { parseGeocodeRequest } from './geocodeRequest';
import { forwardGeocode, reverseGeocode } from '../geo/geocoder/search';

export const GEOCODING_PREFIX = '/api/geocoding/v5/mapbox.places/';

// brand: only a brand's host answers (404 for any other)
export const geocodingHandler = route({ methods: ['GET', 'HEAD'], brand: true, rate: RATE_RULES.geocoder }, async ({ req }) => {
  const raw = req.url ?? '';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  if (!path.startsWith(GEOCODING_PREFIX) || path.length > 4096) throw new ApiError(404, `Not found: ask ${GEOCODING_PREFIX}{search text}.json`);
  const request = parseGeocodeRequest(path.slice(GEOCODING_PREFIX.length), new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)));
  const body = request.kind === 'reverse' ? reverseGeocode(request) : forwardGeocode(request);
  // The answer depends on the URL alone: browsers and the SWR cache may keep it.
  return { status: 200, body, headers: { 'Cache-Control': 'public, max-age=3600' } };
});
