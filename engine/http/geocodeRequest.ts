/**
 * A Mapbox Geocoding v5 request as the embedded geocoder reads it:
 *   /api/geocoding/v5/mapbox.places/{query}.json                 forward
 *   /api/geocoding/v5/mapbox.places/{longitude},{latitude}.json  reverse
 * with country, limit (clamped to 1…8), types, proximity, autocomplete and language honoured,
 * access_token accepted and ignored, unknown parameters ignored. Bad input is an ApiError
 * (4xx) whose message says what is wrong.
 */
import { ApiError } from './api';

export const PLACE_TYPES = ['country', 'region', 'postcode', 'district', 'place', 'locality', 'neighborhood', 'address', 'poi'] as const;
export type PlaceType = (typeof PLACE_TYPES)[number];

/** SPEC §9: geocode limit 8. Mapbox's default is 5. */
export const MAX_LIMIT = 8;
export const DEFAULT_LIMIT = 5;
/** Mapbox's limit on the search text. */
export const MAX_QUERY_CHARS = 256;

interface Common {
  limit: number;
  types?: ReadonlySet<PlaceType>;
  /** ISO 3166-1 alpha-2, lower case */
  country?: string[];
  language?: string[];
}

export interface ForwardRequest extends Common {
  kind: 'forward';
  text: string;
  proximity?: [number, number] | 'ip';
  autocomplete: boolean;
}

export interface ReverseRequest extends Common {
  kind: 'reverse';
  lon: number;
  lat: number;
}

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
const NUMBER = /^-?\d{1,3}(?:\.\d+)?$/;

/** `segment` is the raw (percent-encoded) path part after mapbox.places/. */
export function parseGeocodeRequest(segment: string, params: URLSearchParams): ForwardRequest | ReverseRequest {
  if (!segment.endsWith('.json')) throw new ApiError(404, 'Not found: ask /api/geocoding/v5/mapbox.places/{search text}.json');
  let text: string;
  try {
    text = decodeURIComponent(segment.slice(0, -'.json'.length));
  } catch {
    throw new ApiError(400, 'The search text is not valid percent-encoding');
  }
  if (!text.trim()) throw new ApiError(400, 'The search text is empty');
  if ([...text].length > MAX_QUERY_CHARS) throw new ApiError(400, `The search text is longer than ${MAX_QUERY_CHARS} characters`);

  const common: Common = { limit: DEFAULT_LIMIT };
  const limit = params.get('limit');
  if (limit !== null) {
    if (!/^-?\d{1,6}$/.test(limit.trim())) throw new ApiError(400, 'limit must be a whole number');
    common.limit = Math.min(MAX_LIMIT, Math.max(1, Number(limit)));
  }
  const types = params.get('types');
  if (types !== null) {
    const values = list(types.toLowerCase());
    const unknown = values.filter((t) => !(PLACE_TYPES as readonly string[]).includes(t));
    if (unknown.length || !values.length)
      throw new ApiError(
        400,
        `types must be a comma-separated list of ${PLACE_TYPES.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ').slice(0, 100)})` : ''}`,
      );
    common.types = new Set(values as PlaceType[]);
  }
  const country = params.get('country');
  if (country !== null) {
    const values = list(country.toLowerCase());
    if (!values.length || values.some((c) => !/^[a-z]{2}$/.test(c)))
      throw new ApiError(400, 'country must be a comma-separated list of two-letter country codes, e.g. us');
    common.country = values;
  }
  const language = params.get('language');
  if (language !== null) {
    const values = list(language.toLowerCase());
    if (!values.length || values.some((l) => !/^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/.test(l)))
      throw new ApiError(400, 'language must be a comma-separated list of language tags, e.g. en');
    common.language = values.map((l) => l.split('-')[0]!);
  }

  const point = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text);
  if (point) {
    const lon = Number(point[1]);
    const lat = Number(point[2]);
    if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90))
      throw new ApiError(400, 'A reverse lookup needs {longitude},{latitude} with longitude in -180…180 and latitude in -90…90');
    return { kind: 'reverse', lon, lat, ...common };
  }

  const out: ForwardRequest = { kind: 'forward', text, autocomplete: true, ...common };
  const autocomplete = params.get('autocomplete');
  if (autocomplete !== null) {
    if (autocomplete !== 'true' && autocomplete !== 'false') throw new ApiError(400, 'autocomplete must be true or false');
    out.autocomplete = autocomplete === 'true';
  }
  const proximity = params.get('proximity');
  if (proximity !== null) {
    if (proximity.trim().toLowerCase() === 'ip') out.proximity = 'ip';
    else {
      const [lon, lat, extra] = list(proximity);
      if (extra !== undefined || !lon || !lat || !NUMBER.test(lon) || !NUMBER.test(lat) || Math.abs(Number(lon)) > 180 || Math.abs(Number(lat)) > 90) {
        throw new ApiError(400, 'proximity must be ip or {longitude},{latitude}');
      }
      out.proximity = [Number(lon), Number(lat)];
    }
  }
  return out;
}
