/**
 * The embedded geocoder's tables, read once from data/generated/geocoder.json (written by
 * scripts/derive-geocoder.ts) and indexed for prefix search and point lookups.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import whichPolygon from 'which-polygon';
import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';

export interface Region {
  /** lowercase two-letter code */
  code: string;
  /** as on maps: "Texas", "District of Columbia" */
  name: string;
  fips: string;
  /** normalised name, for search */
  key: string;
  center: [number, number];
}

export interface Place {
  index: number;
  name: string;
  state: string;
  slug: string;
  zipCount: number;
  lat: number;
  lon: number;
  key: string;
}

export interface Postcode {
  zip: string;
  place: Place;
  lat: number;
  lon: number;
}

export interface GeocoderIndex {
  source: string;
  regions: Region[];
  regionByCode: Map<string, Region>;
  places: Place[];
  /** places sorted by key, for prefix ranges */
  placesByKey: Place[];
  /** sorted by zip */
  postcodes: Postcode[];
  postcodeByZip: Map<string, Postcode>;
  /** state code containing a [lon, lat] point, from the boundaries */
  stateAt(lon: number, lat: number): string | undefined;
  /** postcodes bucketed in 1° cells, "lonCell,latCell" */
  grid: Map<string, Postcode[]>;
}

interface Raw {
  source: string;
  regions: [string, string, string][];
  places: [string, string, string, number, number, number][];
  postcodes: [string, number, number, number][];
  shapes: FeatureCollection<Polygon | MultiPolygon, { code: string }>;
}

/**
 * Lower case, accents and punctuation dropped, spaces single, and a one-letter word joined to the
 * next: "St. Louis" → "st louis". The ZIP tables write an apostrophe after one letter as a space
 * ("Coeur D Alene", "O Fallon", "Land O Lakes") or not at all ("Diberville"), and visitors write it
 * ("Coeur d'Alene", "D'Iberville") or a space: joined, every spelling is one key ("coeur dalene",
 * "ofallon", "diberville"). Any other apostrophe is dropped ("Lee's Summit" → "lees summit").
 */
export const normaliseText = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019.]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/(^| )([a-z]) (?=[a-z])/g, '$1$2');

/** Abbreviations in place names, written out: "St Louis" and "Saint Louis" are one key. */
const WORDS: Record<string, string> = { st: 'saint', ste: 'sainte', ft: 'fort', mt: 'mount', pt: 'point' };

/**
 * A name's search key: normalised, abbreviations written out. `typing`: the last word may be
 * unfinished ("st" may become "Stockton"), so it is left as typed.
 */
export function searchKey(text: string, typing = false): string {
  const words = normaliseText(text).split(' ');
  return words.map((w, i) => (typing && i === words.length - 1 ? w : (WORDS[w] ?? w))).join(' ');
}

export const GEOCODER_FILE = () => join(process.cwd(), 'data/generated/geocoder.json');

/** Once per process, not once per route that uses it (as engine/geo/cities.ts's index). */
const SHARED = Symbol.for('loansites.geocoder');
const holder = globalThis as { [SHARED]?: GeocoderIndex };

export function geocoderIndex(): GeocoderIndex {
  const shared = holder[SHARED];
  if (shared) return shared;
  let raw: Raw;
  try {
    raw = JSON.parse(readFileSync(GEOCODER_FILE(), 'utf8')) as Raw;
  } catch (err) {
    throw new Error(`Geocoder data is missing (${GEOCODER_FILE()}): run \`npm install\` or \`npx tsx scripts/derive-data.ts\`. ${(err as Error).message}`);
  }
  const places: Place[] = raw.places.map(([name, state, slug, zipCount, lat, lon], i) => ({
    index: i,
    name,
    state,
    slug,
    zipCount,
    lat,
    lon,
    key: searchKey(name),
  }));
  const postcodes: Postcode[] = raw.postcodes.map(([zip, p, lat, lon]) => ({ zip, place: places[p]!, lat, lon }));
  const grid = new Map<string, Postcode[]>();
  for (const pc of postcodes) {
    const cell = `${Math.floor(pc.lon)},${Math.floor(pc.lat)}`;
    const list = grid.get(cell);
    if (list) list.push(pc);
    else grid.set(cell, [pc]);
  }
  // A region's centre: the ZIP-count-weighted mean of its places (inside the state, unlike a bbox centre for most shapes).
  const sums = new Map<string, [number, number, number]>();
  for (const p of places) {
    const s = sums.get(p.state) ?? [0, 0, 0];
    sums.set(p.state, [s[0] + p.lon * p.zipCount, s[1] + p.lat * p.zipCount, s[2] + p.zipCount]);
  }
  const regions: Region[] = raw.regions.map(([code, name, fips]) => {
    const s = sums.get(code) ?? [0, 0, 1];
    return { code, name, fips, key: searchKey(name), center: [round4(s[0] / s[2]), round4(s[1] / s[2])] };
  });
  const query = whichPolygon(raw.shapes);
  const index: GeocoderIndex = {
    source: raw.source,
    regions,
    regionByCode: new Map(regions.map((r) => [r.code, r])),
    places,
    placesByKey: [...places].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index)),
    postcodes,
    postcodeByZip: new Map(postcodes.map((p) => [p.zip, p])),
    stateAt: (lon, lat) => query([lon, lat])?.code,
    grid,
  };
  return (holder[SHARED] = index);
}

const round4 = (n: number) => Math.round(n * 1e4) / 1e4;

/** First index in a sorted array whose key is ≥ `prefix` (binary search). */
export function lowerBound<T>(sorted: readonly T[], prefix: string, keyOf: (item: T) => string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(sorted[mid]!) < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
