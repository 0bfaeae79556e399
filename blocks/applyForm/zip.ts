import { regionOfPostalCode, type Country } from '../../engine/browser/regions';

/** A ZIP code's city and state, as the geocoder knows them. */
export interface ZipPlace {
  city: string;
  /** two letters, lower-case ("tx") */
  stateCode: string;
  stateName: string;
}

interface GeocoderFeature {
  text?: string;
  context?: { id?: string; text?: string; short_code?: string }[];
}

/** The first feature of a Mapbox Geocoding v5 FeatureCollection → city and state; null when it lacks either. */
export function placeOfFeatureCollection(json: unknown, zip: string): ZipPlace | null {
  const feature = (json as { features?: GeocoderFeature[] } | null)?.features?.[0];
  if (!feature || (feature.text !== undefined && feature.text !== zip)) return null;
  const place = feature.context?.find((c) => c.id?.startsWith('place.'));
  const region = feature.context?.find((c) => c.id?.startsWith('region.'));
  const code = /^US-([A-Z]{2})$/i.exec(region?.short_code ?? '')?.[1];
  if (!place?.text || !region?.text || !code) return null;
  return { city: place.text, stateCode: code.toLowerCase(), stateName: region.text };
}

/**
 * Canada and Australia: the province or state straight from the postal code (engine/browser/regions.ts),
 * no lookup; no city. null when the code is not one of the country's.
 */
export function placeOfPostalCode(code: string, country: Exclude<Country, 'US'>): ZipPlace | null {
  const region = regionOfPostalCode(code, country);
  return region ? { city: '', stateCode: region.code.toLowerCase(), stateName: region.name } : null;
}

/**
 * ZIP → city and state through the embedded Mapbox-compatible geocoder (Geocoding v5:
 * GET /api/geocoding/v5/mapbox.places/{zip}.json?types=postcode&country=us&limit=1).
 * null when the ZIP is unknown or the lookup fails: the visitor continues with the ZIP alone
 * and the server decides the state.
 */
export async function lookupZip(zip: string, signal?: AbortSignal): Promise<ZipPlace | null> {
  if (!/^\d{5}$/.test(zip)) return null;
  try {
    const res = await fetch(`/api/geocoding/v5/mapbox.places/${zip}.json?types=postcode&country=us&limit=1`, {
      signal: signal ?? null,
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return null;
    return placeOfFeatureCollection(await res.json(), zip);
  } catch {
    return null;
  }
}
