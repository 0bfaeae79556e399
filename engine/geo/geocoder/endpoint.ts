/**
 * Which geocoder the pages call (server side, read when a page is rendered):
 * - the embedded one at /api/geocoding/v5 on the brand's own host (the default, offline);
 * - Mapbox with GEOCODER=mapbox: MAPBOX_GEOCODING_URL (default https://api.mapbox.com/geocoding/v5)
 *   with the brand's mapKey as access token.
 * The brands' mapKey values are placeholders until real tokens are set, so the switch is the
 * environment, not the key; the client code is the same either way (engine/browser/geocoder/client.ts).
 */
import type { GeocoderEndpoint } from '../../browser/geocoder/client';

export const EMBEDDED_GEOCODING_BASE = '/api/geocoding/v5';
export const MAPBOX_GEOCODING_BASE = 'https://api.mapbox.com/geocoding/v5';

export function geocoderEndpoint(mapKey: string, env: Record<string, string | undefined> = process.env): GeocoderEndpoint {
  if (env.GEOCODER === 'mapbox') return { base: (env.MAPBOX_GEOCODING_URL?.trim() || MAPBOX_GEOCODING_BASE).replace(/\/+$/, ''), accessToken: mapKey };
  return { base: EMBEDDED_GEOCODING_BASE, accessToken: mapKey };
}
