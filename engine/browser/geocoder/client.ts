/**
 * The geocoding client the blocks use (browser-safe): the three map calls of SPEC §7, built as
 * Mapbox Geocoding v5 URLs under a base that is either the embedded geocoder (/api/geocoding/v5)
 * or Mapbox (MAPBOX_GEOCODING_URL), and the readings of their answers (engine/browser/geocoder/v5.ts).
 */
import { addressSuggestions, geolocationResult, searchResults, type AddressSuggestion, type GeolocationResult, type SearchResult, type V5Response } from './v5';

export interface GeocoderEndpoint {
  /** ".../geocoding/v5", without a trailing slash: "/api/geocoding/v5" or "https://api.mapbox.com/geocoding/v5" */
  base: string;
  /** the brand's mapKey (the embedded geocoder accepts and ignores it) */
  accessToken: string;
}

/** SPEC §9 */
export const GEOCODE_LIMIT = 8;
export const GEOCODE_COUNTRY = 'us';

export class GeocodeError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const placesUrl = (ep: GeocoderEndpoint, text: string, params: Record<string, string>) =>
  `${ep.base}/mapbox.places/${encodeURIComponent(text)}.json?${new URLSearchParams({ ...params, access_token: ep.accessToken })}`;

/** SPEC §5: the search text as sent, or undefined when nothing is to be sent (empty or whitespace). */
export const searchText = (value: string): string | undefined => (value.trim() ? value.trim() : undefined);

/** Place search (the panel): the text and the access token. */
export const placeSearchUrl = (ep: GeocoderEndpoint, text: string) => placesUrl(ep, text, {});

/** Address autocomplete: country us, limit 8, proximity from the visitor's IP, postcode/address/place, English, autocomplete. */
export const addressSearchUrl = (ep: GeocoderEndpoint, text: string) =>
  placesUrl(ep, text, {
    country: GEOCODE_COUNTRY,
    limit: String(GEOCODE_LIMIT),
    proximity: 'ip',
    types: 'postcode,address,place',
    language: 'en',
    autocomplete: 'true',
  });

/** Reverse geocoding to a region. */
export const reverseRegionUrl = (ep: GeocoderEndpoint, longitude: number, latitude: number) =>
  `${ep.base}/mapbox.places/${longitude},${latitude}.json?${new URLSearchParams({ access_token: ep.accessToken, country: GEOCODE_COUNTRY, types: 'region' })}`;

/** GET a v5 URL; any status but 200 rejects (SPEC §8). */
export async function fetchV5(url: string, fetcher: typeof fetch = fetch): Promise<V5Response> {
  const res = await fetcher(url, { headers: { Accept: 'application/json' } });
  if (res.status !== 200) throw new GeocodeError(res.status, `Geocoding answered ${res.status}`);
  const body = (await res.json()) as V5Response;
  if (!body || !Array.isArray(body.features)) throw new GeocodeError(res.status, 'Geocoding answered without features');
  return body;
}

/** The search panel's results for a placeSearchUrl (its SWR fetcher); rejects when the lookup fails (the panel says so, SPEC §8). */
export const fetchPlaces = async (url: string, fetcher?: typeof fetch): Promise<SearchResult[]> => searchResults(await fetchV5(url, fetcher));

/** The address autocomplete's suggestions for an addressSearchUrl (its SWR fetcher). Failures are logged and give none (SPEC §7, §8). */
export async function fetchAddressSuggestions(url: string, fetcher?: typeof fetch): Promise<AddressSuggestion[]> {
  try {
    return addressSuggestions(await fetchV5(url, fetcher));
  } catch (err) {
    console.warn('[address autocomplete]', err);
    return [];
  }
}

/** The region of a point; rejects on a non-200 answer or when the point is in no US state. */
export async function locateRegion(ep: GeocoderEndpoint, longitude: number, latitude: number, fetcher?: typeof fetch): Promise<GeolocationResult> {
  const found = geolocationResult(await fetchV5(reverseRegionUrl(ep, longitude, latitude), fetcher), longitude, latitude);
  if (!found) throw new GeocodeError(200, 'The position is in no US state');
  return found;
}
