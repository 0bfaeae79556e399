import { regionOfPostalCode, type Country, type Region } from '../../engine/browser/regions';

/** A ZIP code's city and state, as the geocoder knows them. */
export interface ZipPlace {
  city: string;
  /** two letters, lower-case ("tx") */
  stateCode: string;
  stateName: string;
}

/** A postal code of the right shape that no place has: the geocoder answered without it (US), or no region has it (Canada, Australia). */
export const UNKNOWN_ZIP = 'unknown';

/**
 * What a lookup found: the place, UNKNOWN_ZIP (said on step 1: the server would refuse it only
 * after the last step), or null when the lookup failed or was too slow (the visitor goes on with
 * the code alone; the server decides).
 */
export type ZipLookup = ZipPlace | typeof UNKNOWN_ZIP | null;

/** The place of a lookup, when it found one. */
export const foundPlace = (lookup: ZipLookup | undefined): ZipPlace | undefined => (lookup && lookup !== UNKNOWN_ZIP ? lookup : undefined);

/**
 * The US state step 1's lookup found for the ZIP as it is typed now, as the age rule takes it
 * (formRules.ts minAgeOf: 19 in Alabama); undefined before the lookup, when it found nothing, or
 * for a ZIP changed since. Canada and Australia need none: the postal code names the region.
 */
export function lookedUpState(looked: { zip: string; place: ZipLookup } | undefined, zip: string, country: Country): Region | undefined {
  const place = country === 'US' && looked?.zip === zip.trim() ? foundPlace(looked.place) : undefined;
  return place ? { code: place.stateCode.toUpperCase(), name: place.stateName } : undefined;
}

interface GeocoderFeature {
  text?: string;
  context?: { id?: string; text?: string; short_code?: string }[];
}

/**
 * The first feature of a Mapbox Geocoding v5 FeatureCollection → city and state; UNKNOWN_ZIP when
 * the answer has no feature for this ZIP (none, or another code's); null when it is no
 * FeatureCollection or its feature lacks the city or the state.
 */
export function placeOfFeatureCollection(json: unknown, zip: string): ZipLookup {
  const features = (json as { features?: unknown } | null)?.features;
  if (!Array.isArray(features)) return null;
  const feature = features[0] as GeocoderFeature | undefined;
  if (!feature || (feature.text !== undefined && feature.text !== zip)) return UNKNOWN_ZIP;
  const place = feature.context?.find((c) => c.id?.startsWith('place.'));
  const region = feature.context?.find((c) => c.id?.startsWith('region.'));
  const code = /^US-([A-Z]{2})$/i.exec(region?.short_code ?? '')?.[1];
  if (!place?.text || !region?.text || !code) return null;
  return { city: place.text, stateCode: code.toLowerCase(), stateName: region.text };
}

/**
 * Canada and Australia: the province or state straight from the postal code (engine/browser/regions.ts),
 * no lookup; no city. UNKNOWN_ZIP when no region has the code.
 */
export function placeOfPostalCode(code: string, country: Exclude<Country, 'US'>): ZipPlace | typeof UNKNOWN_ZIP {
  const region = regionOfPostalCode(code, country);
  return region ? { city: '', stateCode: region.code.toLowerCase(), stateName: region.name } : UNKNOWN_ZIP;
}

/**
 * How long Continue waits for a ZIP's place (it shows "Checking your ZIP code…" meanwhile): a
 * geocoder that does not answer — a connection that hangs on a phone network — must not hold the
 * borrower on step 1.
 */
export const ZIP_LOOKUP_TIMEOUT_MS = 4000;

/**
 * ZIP → city and state through the embedded Mapbox-compatible geocoder (Geocoding v5:
 * GET /api/geocoding/v5/mapbox.places/{zip}.json?types=postcode&country=us&limit=1).
 * UNKNOWN_ZIP when the geocoder knows no such ZIP; null when the lookup fails or takes longer
 * than `timeoutMs`: the visitor continues with the ZIP alone and the server decides the state.
 */
export async function lookupZip(zip: string, timeoutMs = ZIP_LOOKUP_TIMEOUT_MS): Promise<ZipLookup> {
  if (!/^\d{5}$/.test(zip)) return null;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await fetch(`/api/geocoding/v5/mapbox.places/${zip}.json?types=postcode&country=us&limit=1`, {
      signal: abort.signal,
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return null;
    return placeOfFeatureCollection(await res.json(), zip);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
