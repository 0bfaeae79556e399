/**
 * The Mapbox Geocoding v5 response shape (the part this product reads or writes), and the
 * readings of it the UI needs (SPEC §3, §7). Browser-safe: no Node imports. Both the embedded
 * geocoder and Mapbox answer in this shape, so the same reading serves both.
 */

export interface V5ContextItem {
  /** "place.123", "postcode.78701", "region.48", "country.840" */
  id: string;
  text: string;
  /** regions: "US-TX"; countries: "us" */
  short_code?: string;
  wikidata?: string;
}

export interface V5Feature {
  id: string;
  type: 'Feature';
  place_type: string[];
  relevance: number;
  properties: { short_code?: string; [key: string]: unknown };
  text: string;
  place_name: string;
  center: [number, number];
  geometry: { type: 'Point'; coordinates: [number, number] };
  /** smallest to largest */
  context?: V5ContextItem[];
  bbox?: [number, number, number, number];
  language?: string;
  [key: string]: unknown;
}

export interface V5Response {
  type: 'FeatureCollection';
  query: (string | number)[];
  features: V5Feature[];
  attribution: string;
}

/** SPEC §3 Search result. */
export interface SearchResult {
  id: string;
  place_name: string;
  /** the city the result is in or is, when it has one */
  city?: string;
  /** lowercase two-letter state code, when the result is in a US state */
  state?: string;
}

/** SPEC §3 Address suggestion. */
export interface AddressSuggestion {
  id: string;
  /** postcode, city, state abbreviation joined by commas (the parts that exist) */
  label: string;
  postcode: string;
  city: string;
  /** state abbreviation, upper case ("TX") */
  state: string;
  place_name: string;
}

/** SPEC §3 Geolocation result. */
export interface GeolocationResult {
  /** "US-TX" */
  shortCode: string;
  /** "tx" */
  shortLowerState: string;
  longitude: number;
  latitude: number;
}

const kindOf = (id: string): string => id.slice(0, id.indexOf('.'));

/** "US-TX" → "tx"; anything else (another country, no code) → undefined. */
export function stateOfShortCode(shortCode: string | undefined): string | undefined {
  const m = /^US-([A-Z]{2})$/i.exec(shortCode ?? '');
  return m ? m[1]!.toLowerCase() : undefined;
}

/** The city and state a feature is (a place or region) or lies in (a postcode, address, neighbourhood…). */
export function placeOf(feature: V5Feature): { city?: string; state?: string } {
  const kind = kindOf(feature.id);
  const context = feature.context ?? [];
  const region = kind === 'region' ? feature.properties.short_code : context.find((c) => kindOf(c.id) === 'region')?.short_code;
  const city = kind === 'place' ? feature.text : kind === 'region' || kind === 'country' ? undefined : context.find((c) => kindOf(c.id) === 'place')?.text;
  const state = stateOfShortCode(region);
  return { ...(city ? { city } : {}), ...(state ? { state } : {}) };
}

/** Panel results: one per feature, by place_name. */
export const searchResults = (res: V5Response): SearchResult[] => res.features.map((f) => ({ id: f.id, place_name: f.place_name, ...placeOf(f) }));

/** Autocomplete suggestions: postcode, place and region read; the region as a state abbreviation. */
export function addressSuggestions(res: V5Response): AddressSuggestion[] {
  return res.features.map((f) => {
    const kind = kindOf(f.id);
    const postcode = kind === 'postcode' ? f.text : (f.context?.find((c) => kindOf(c.id) === 'postcode')?.text ?? '');
    const { city = '', state = '' } = placeOf(f);
    const abbr = state.toUpperCase();
    return { id: f.id, label: [postcode, city, abbr].filter(Boolean).join(', '), postcode, city, state: abbr, place_name: f.place_name };
  });
}

/** Reverse geocoding to a region (SPEC §7: features[0].properties.short_code); undefined outside the US states. */
export function geolocationResult(res: V5Response, longitude: number, latitude: number): GeolocationResult | undefined {
  const first = res.features[0];
  const shortCode = first?.properties.short_code;
  const state = stateOfShortCode(shortCode);
  return state && shortCode ? { shortCode: shortCode.toUpperCase(), shortLowerState: state, longitude, latitude } : undefined;
}
