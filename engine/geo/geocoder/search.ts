/**
 * The embedded geocoder: forward search (regions, places, postcodes, and address-level text
 * such as "100 Main St, Austin, TX 78701" read down to its place and ZIP) and reverse lookup
 * (a point → its postcode, place and state), answering in the Mapbox Geocoding v5 shape.
 *
 * Ranking: exact names before prefixes; among equals a state before a city before a ZIP code;
 * cities by size (ZIP count), divided by distance when `proximity` is given; ZIP codes in order.
 */
import { geocoderIndex, lowerBound, normaliseText, searchKey, type GeocoderIndex, type Place, type Postcode, type Region } from './data';
import { placeFeature, postcodeFeature, regionFeature, withLanguage } from './features';
import type { ForwardRequest, PlaceType, ReverseRequest } from '../../http/geocodeRequest';
import type { V5Feature, V5Response } from '../../browser/geocoder/v5';

export const ATTRIBUTION = 'Embedded geocoder: ZIP codes from the zipcodes package, state boundaries from us-atlas (US Census Bureau).';
/** A point further than this from every ZIP centroid (and in no state) is outside the US. */
export const NEAREST_ZIP_MILES = 25;

interface Candidate {
  feature: (relevance: number) => V5Feature;
  /** 3 a ZIP code in the text, 2 exact name, 1 prefix */
  tier: number;
  /** region 3, place 2, postcode 1 */
  typeRank: number;
  weight: number;
  relevance: number;
  order: number;
}

const wants = (types: ReadonlySet<PlaceType> | undefined, t: PlaceType) => !types || types.has(t);
const usAllowed = (country: readonly string[] | undefined) => !country || country.includes('us');

function milesBetween(aLon: number, aLat: number, bLon: number, bLat: number): number {
  const rad = Math.PI / 180;
  const dLat = (bLat - aLat) * rad;
  const dLon = (bLon - aLon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.sqrt(Math.min(1, h)));
}

/** States named at the end of the text: full names ("new york") or codes ("ny"), or a name being typed after a comma. */
function stateSuffix(idx: GeocoderIndex, words: string[], afterComma: boolean, autocomplete: boolean): { states: Region[]; used: number } | undefined {
  for (let n = Math.min(3, words.length - 1); n >= 1; n--) {
    const tail = words.slice(words.length - n).join(' ');
    const exact = idx.regions.filter((r) => r.key === tail || (n === 1 && r.code === tail));
    if (exact.length) return { states: exact, used: n };
  }
  if (afterComma && autocomplete && words.length >= 2) {
    const last = words[words.length - 1]!;
    const typed = idx.regions.filter((r) => r.key.startsWith(last));
    if (typed.length) return { states: typed, used: 1 };
  }
  return undefined;
}

/** Places whose name equals `text` or (autocomplete) starts with it. */
function placesMatching(idx: GeocoderIndex, text: string, autocomplete: boolean): Place[] {
  const out: Place[] = [];
  for (let i = lowerBound(idx.placesByKey, text, (p) => p.key); i < idx.placesByKey.length; i++) {
    const p = idx.placesByKey[i]!;
    if (p.key === text || (autocomplete && p.key.startsWith(text))) out.push(p);
    else if (!p.key.startsWith(text)) break;
  }
  return out;
}

export function forwardGeocode(req: ForwardRequest, idx: GeocoderIndex = geocoderIndex()): V5Response {
  const query = normaliseText(req.text);
  const response = (features: V5Feature[]): V5Response => ({
    type: 'FeatureCollection',
    query: query.split(' ').filter(Boolean),
    features,
    attribution: ATTRIBUTION,
  });
  if (!usAllowed(req.country)) return response([]);
  const candidates: Candidate[] = [];
  let order = 0;
  const add = (c: Omit<Candidate, 'order'>) => candidates.push({ ...c, order: order++ });
  const region = (code: string) => idx.regionByCode.get(code)!;
  const proximityFactor = (lon: number, lat: number) =>
    Array.isArray(req.proximity) ? 1 / (1 + milesBetween(req.proximity[0], req.proximity[1], lon, lat) / 100) : 1;

  // ZIP codes: a five-digit number anywhere (an address ends with one), or a ZIP being typed.
  const zipMatch = /(?:^|[^0-9])(\d{5})(?:-\d{4})?(?![0-9])/.exec(req.text);
  if (wants(req.types, 'postcode')) {
    if (zipMatch) {
      const pc = idx.postcodeByZip.get(zipMatch[1]!);
      // A ZIP is the most precise thing the text names: first.
      if (pc) add({ feature: (rel) => postcodeFeature(pc, region(pc.place.state), rel), relevance: 1, tier: 3, typeRank: 1, weight: 0 });
    } else if (req.autocomplete && /^\d{1,4}$/.test(query)) {
      const from = lowerBound(idx.postcodes, query, (p) => p.zip);
      for (let i = from; i < idx.postcodes.length && idx.postcodes[i]!.zip.startsWith(query) && i < from + req.limit; i++) {
        const pc = idx.postcodes[i]!;
        add({
          feature: (rel) => postcodeFeature(pc, region(pc.place.state), rel),
          relevance: Math.max(0.5, query.length / 5),
          tier: 1,
          typeRank: 1,
          weight: 0,
        });
      }
    }
  }

  // Words without the ZIP; a state named at the end narrows the places.
  const rawParts = req.text
    .split(',')
    .map((p) => (zipMatch ? p.replace(zipMatch[1]!, ' ') : p))
    .filter((p) => normaliseText(p));
  const parts = rawParts.map((p, i) => searchKey(p, req.autocomplete && i === rawParts.length - 1));
  const words = parts.join(' ').split(' ').filter(Boolean);
  const suffix = words.length ? stateSuffix(idx, words, parts.length > 1, req.autocomplete) : undefined;
  const stateFilter = suffix && new Set(suffix.states.map((s) => s.code));
  const rest = suffix ? words.slice(0, words.length - suffix.used) : words;

  if (wants(req.types, 'region')) {
    const whole = words.join(' ');
    if (suffix && rest.length === 0 && !zipMatch) {
      for (const r of suffix.states) add({ feature: (rel) => regionFeature(r, rel), relevance: 1, tier: 2, typeRank: 3, weight: 1 });
    } else if (whole && !zipMatch) {
      for (const r of idx.regions) {
        const exact = r.key === whole || r.code === whole;
        if (exact || (req.autocomplete && whole.length >= 2 && r.key.startsWith(whole))) {
          add({
            feature: (rel) => regionFeature(r, rel),
            relevance: exact ? 1 : Math.max(0.5, whole.length / r.key.length),
            tier: exact ? 2 : 1,
            typeRank: 3,
            weight: 1,
          });
        }
      }
    }
  }

  if (wants(req.types, 'place') && rest.length && !/^\d+$/.test(rest.join(''))) {
    // Address-level text: the place is in the last comma part not taken by the state ("100 Main St, Austin, TX"),
    // as the longest tail of its words that names one ("100 main st austin" → "austin").
    const stateTookLastPart = suffix !== undefined && parts.length > 1 && parts[parts.length - 1]!.split(' ').length === suffix.used;
    const lastWords = (i: number) => (parts[i] ?? '').split(' ').filter(Boolean);
    const cityWords =
      parts.length < 2 ? rest : stateTookLastPart ? lastWords(parts.length - 2) : lastWords(parts.length - 1).slice(0, suffix ? -suffix.used : undefined);
    const tails = cityWords.map((_, i) => cityWords.slice(i).join(' '));
    for (const text of tails) {
      if (/^\d/.test(text)) continue;
      const found = placesMatching(idx, text, req.autocomplete).filter((p) => !stateFilter || stateFilter.has(p.state));
      if (!found.length) continue;
      for (const p of found) {
        const exact = p.key === text;
        add({
          feature: (rel) => placeFeature(p, region(p.state), rel),
          relevance: exact ? 1 : Math.max(0.5, text.length / p.key.length),
          tier: exact ? 2 : 1,
          typeRank: 2,
          weight: p.zipCount * proximityFactor(p.lon, p.lat),
        });
      }
      break;
    }
  }

  candidates.sort((a, b) => b.tier - a.tier || b.typeRank - a.typeRank || b.weight - a.weight || b.relevance - a.relevance || a.order - b.order);
  const features = candidates.slice(0, req.limit).map((c) => c.feature(Math.round(c.relevance * 100) / 100));
  return response(req.language?.includes('en') ? features.map((f) => withLanguage(f, 'en')) : features);
}

/** The ZIP centroid nearest to a point within `maxMiles` (optionally in one state). */
export function nearestPostcode(
  lon: number,
  lat: number,
  idx: GeocoderIndex = geocoderIndex(),
  opts: { maxMiles?: number; state?: string } = {},
): Postcode | undefined {
  const maxMiles = opts.maxMiles ?? NEAREST_ZIP_MILES;
  let best: Postcode | undefined;
  let bestMiles = Infinity;
  const cx = Math.floor(lon);
  const cy = Math.floor(lat);
  for (let dx = -1; dx <= 1; dx++) {
    for (let dy = -1; dy <= 1; dy++) {
      for (const pc of idx.grid.get(`${cx + dx},${cy + dy}`) ?? []) {
        if (opts.state && pc.place.state !== opts.state) continue;
        const d = milesBetween(lon, lat, pc.lon, pc.lat);
        if (d < bestMiles) {
          bestMiles = d;
          best = pc;
        }
      }
    }
  }
  return bestMiles <= maxMiles ? best : undefined;
}

/** The state a point is in: its boundary, or near a border or coast (outside every simplified boundary) the nearest ZIP's state. */
export function stateAtPoint(lon: number, lat: number, idx: GeocoderIndex = geocoderIndex()): string | undefined {
  return idx.stateAt(lon, lat) ?? nearestPostcode(lon, lat, idx)?.place.state;
}

export function reverseGeocode(req: ReverseRequest, idx: GeocoderIndex = geocoderIndex()): V5Response {
  const response = (features: V5Feature[]): V5Response => ({ type: 'FeatureCollection', query: [req.lon, req.lat], features, attribution: ATTRIBUTION });
  if (!usAllowed(req.country)) return response([]);
  const state = stateAtPoint(req.lon, req.lat, idx);
  if (!state) return response([]);
  const region = idx.regionByCode.get(state)!;
  const pc = wants(req.types, 'postcode') || wants(req.types, 'place') ? nearestPostcode(req.lon, req.lat, idx, { state }) : undefined;
  const features: V5Feature[] = [];
  if (pc && wants(req.types, 'postcode')) features.push(postcodeFeature(pc, region));
  if (pc && wants(req.types, 'place')) features.push(placeFeature(pc.place, region));
  if (wants(req.types, 'region')) features.push(regionFeature(region));
  const limited = features.slice(0, req.limit);
  return response(req.language?.includes('en') ? limited.map((f) => withLanguage(f, 'en')) : limited);
}
