/**
 * US cities per state, derived from the `zipcodes` package by scripts/derive-data.ts into
 * data/generated/cities.json (server-side only; read once on first use), with each city's nearest
 * cities in its state worked out there too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATES } from './states';

export interface City {
  name: string;
  slug: string;
  /** lowercase two-letter state code */
  stateCode: string;
  /** first ZIP code of the city */
  zip: string;
  zipCount: number;
  lat: number;
  lon: number;
}

export type Row = [name: string, slug: string, zip: string, zipCount: number, lat: number, lon: number];

/** cities.json: each state's cities by slug, and for each city the indices of its nearest ones (NEARBY_DERIVED of them, or every other city of a smaller state), flat. */
export interface CitiesFile {
  source: string;
  states: Record<string, Row[]>;
  nearby?: Record<string, number[]>;
}

/**
 * How many nearest cities the derived data lists for each city: as many as a city page shows. A
 * city page's nearby list is then a lookup; a longer one is searched for (nearbyCities).
 */
export const NEARBY_DERIVED = 6;

interface Index {
  /** each state's cities by slug (compareText), as cities.json lists them */
  byState: Map<string, City[]>;
  /** each state's cities by slug, for a binary search: byState's own list when the file is in that order (a Map per state cost ~1 MB more) */
  bySlugInState: Map<string, City[]>;
  /** every city by slug, the largest of a slug first: a slug without a state is the first of its run */
  bySlug: City[];
  /** each state's nearest-city table (indices into byState's list), when cities.json holds a valid one */
  nearby: Map<string, Uint16Array | Uint32Array>;
}

/**
 * Text order without the ICU collator: String#localeCompare loads its collation tables (~2 MB of
 * resident memory) the first time it runs. Case-insensitive, then lower case first — the order
 * localeCompare gives city names and slugs (ASCII letters, digits, spaces and - & 1 5 0 6 / 9 . ').
 */
export const compareText = (a: string, b: string): number => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a > b ? -1 : a < b ? 1 : 0;
};

/** The first index of `list` (ordered by slug) whose slug is not before `slug`. */
function firstAtOrAfter(list: readonly City[], slug: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareText(list[mid]!.slug, slug) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The index, once per process: Next loads each route's server code with a module registry of its
 * own (and the front door is bundled apart), so a module-level variable would hold one copy of
 * the index per route that uses it. It is read-only after it is built.
 */
const SHARED = Symbol.for('loansites.cities');
const holder = globalThis as { [SHARED]?: Index };

export const CITIES_FILE = () => join(process.cwd(), 'data/generated/cities.json');

/** How many neighbours the table lists for each of a state's `size` cities. */
const nearbyStride = (size: number): number => Math.min(NEARBY_DERIVED, Math.max(0, size - 1));

/**
 * A state's nearest-city table as stored, or undefined when it does not fit the state's cities
 * (a cities.json derived before the table existed, or from other data): the search then answers.
 */
function nearbyTable(list: unknown, size: number): Uint16Array | Uint32Array | undefined {
  if (!Array.isArray(list) || list.length !== size * nearbyStride(size)) return undefined;
  const table = size <= 0xffff ? new Uint16Array(list.length) : new Uint32Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const k = list[i] as unknown;
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k >= size) return undefined;
    table[i] = k;
  }
  return table;
}

function inSlugOrder(list: readonly City[]): boolean {
  for (let i = 1; i < list.length; i++) if (compareText(list[i - 1]!.slug, list[i]!.slug) > 0) return false;
  return true;
}

function load(): Index {
  const shared = holder[SHARED];
  if (shared) return shared;
  let raw: CitiesFile;
  try {
    raw = JSON.parse(readFileSync(CITIES_FILE(), 'utf8')) as CitiesFile;
  } catch (err) {
    throw new Error(`City data is missing (${CITIES_FILE()}): run \`npm install\` or \`npx tsx scripts/derive-data.ts\`. ${(err as Error).message}`);
  }
  const byState = new Map<string, City[]>();
  const bySlugInState = new Map<string, City[]>();
  const nearby = new Map<string, Uint16Array | Uint32Array>();
  for (const state of STATES) {
    const cities = (raw.states[state.code] ?? []).map(([name, slug, zip, zipCount, lat, lon]): City => ({
      name,
      slug,
      stateCode: state.code,
      zip,
      zipCount,
      lat,
      lon,
    }));
    byState.set(state.code, cities);
    bySlugInState.set(state.code, inSlugOrder(cities) ? cities : [...cities].sort((a, b) => compareText(a.slug, b.slug)));
    const table = nearbyTable(raw.nearby?.[state.code], cities.length);
    if (table) nearby.set(state.code, table);
  }
  const bySlug = [...byState.values()].flat().sort((a, b) => compareText(a.slug, b.slug) || bySize(a, b));
  return (holder[SHARED] = { byState, bySlugInState, bySlug, nearby });
}

/** Larger first (more ZIP codes), then by name: a stable order for lists. */
export const bySize = (a: City, b: City): number => b.zipCount - a.zipCount || compareText(a.slug, b.slug);

export const citiesOf = (stateCode: string): readonly City[] => load().byState.get(stateCode.toLowerCase()) ?? [];

export function cityInState(stateCode: string, slug: string): City | undefined {
  const list = load().bySlugInState.get(stateCode.toLowerCase()) ?? [];
  const city = list[firstAtOrAfter(list, slug)];
  return city?.slug === slug ? city : undefined;
}

/** A city slug without a state: the largest city of that name in any state. */
export function cityAnywhere(slug: string): City | undefined {
  const list = load().bySlug;
  const city = list[firstAtOrAfter(list, slug)];
  return city?.slug === slug ? city : undefined;
}

const EARTH_RADIUS_MILES = 3958.8;
const RAD = Math.PI / 180;

/** The haversine term from the latitudes' cosines: 0 for the same place, growing with the distance. */
const haversine = (a: { lat: number; lon: number }, b: { lat: number; lon: number }, cosA: number, cosB: number): number =>
  Math.sin(((b.lat - a.lat) * RAD) / 2) ** 2 + cosA * cosB * Math.sin(((b.lon - a.lon) * RAD) / 2) ** 2;

const milesOf = (h: number): number => EARTH_RADIUS_MILES * 2 * Math.asin(Math.sqrt(h));

/** Great-circle distance in miles. */
export const milesBetween = (a: { lat: number; lon: number }, b: { lat: number; lon: number }): number =>
  milesOf(haversine(a, b, Math.cos(a.lat * RAD), Math.cos(b.lat * RAD)));

/**
 * The state's cities (in citiesOf order) as points on the unit sphere, x y z per city, and the
 * cities' order by latitude with their latitudes, worked out once per state: every city page of
 * the state asks for its nearest cities. The squared chord between two such points is 4 × the
 * haversine term, so cities are ranked without a sine per city; and no city whose latitude alone
 * puts it farther than the farthest kept one is looked at (a city page of a large state looked at
 * all of its ~1,800 cities).
 */
interface StatePoints {
  xyz: Float64Array;
  /** indices into the state's cities, by latitude */
  byLat: Int32Array;
  /** the latitudes in radians, in byLat order */
  lats: Float64Array;
}
function pointsOf(cities: readonly City[]): StatePoints {
  const xyz = new Float64Array(cities.length * 3);
  cities.forEach((c, k) => xyz.set(unitPoint(c), k * 3));
  const byLat = Int32Array.from(cities.keys()).sort((a, b) => cities[a]!.lat - cities[b]!.lat);
  const lats = Float64Array.from(byLat, (k) => cities[k]!.lat * RAD);
  return { xyz, byLat, lats };
}
const pointsByState = new Map<string, StatePoints>();
function statePoints(stateCode: string, cities: readonly City[]): StatePoints {
  let points = pointsByState.get(stateCode);
  if (!points || points.byLat.length !== cities.length) pointsByState.set(stateCode, (points = pointsOf(cities)));
  return points;
}

function unitPoint(c: { lat: number; lon: number }): [number, number, number] {
  const lat = c.lat * RAD;
  const lon = c.lon * RAD;
  return [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
}

/** The first index of the ascending `values` not below `value`. */
function firstNotBelow(values: Float64Array, value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The `count` cities of the state nearest to `city` (not itself), nearest first, ties by slug. A
 * city page asks for NEARBY_DERIVED of them: scripts/derive-data.ts has worked them out for every
 * city (the same search, below), so a page reads them from the table and only works out their
 * miles: searched on each page, with the state's points made by the first, they cost a
 * just-started server's first pages ~4 % of their CPU (V8 had not compiled the search yet).
 */
export function nearbyCities(city: City, count: number): { city: City; miles: number }[] {
  const index = load();
  const cities = index.byState.get(city.stateCode) ?? [];
  const table = index.nearby.get(city.stateCode);
  const stride = nearbyStride(cities.length);
  if (table && (count <= stride || stride === cities.length - 1)) {
    const k = firstAtOrAfter(cities, city.slug);
    // the table indexes the state's own City objects: another object of the same name is searched for
    if (cities[k] === city) {
      const out: { city: City; miles: number }[] = [];
      for (let i = k * stride, end = i + Math.min(count, stride); i < end; i++) {
        const c = cities[table[i]!]!;
        out.push({ city: c, miles: milesBetween(city, c) });
      }
      return out;
    }
  }
  return nearestBySearch(city, count, cities, statePoints(city.stateCode, cities)).map((n) => ({ city: cities[n.k]!, miles: n.miles }));
}

/**
 * For each of `cities` (one state's, in its order), the indices of its `count` nearest others,
 * nearest first, ties by slug, flat: what scripts/derive-data.ts stores for nearbyCities.
 */
export function nearbyTableOf(cities: readonly City[], count = NEARBY_DERIVED): number[] {
  const points = pointsOf(cities);
  const out: number[] = [];
  for (const city of cities) for (const n of nearestBySearch(city, count, cities, points)) out.push(n.k);
  return out;
}

/**
 * The search: cities are visited outward from the city's latitude, north and south in turn; a
 * direction ends at the first city whose latitude difference alone makes its haversine term larger
 * than the farthest kept city's (the term is at least sin²(Δlatitude / 2)), with a margin far above
 * rounding so that no city that could rank is left out. No sort of the state.
 */
function nearestBySearch(city: City, count: number, cities: readonly City[], points: StatePoints): { k: number; miles: number }[] {
  const best: { city: City; k: number; h: number; miles: number }[] = [];
  const before = (miles: number, c: City, other: { city: City; miles: number }) =>
    miles < other.miles || (miles === other.miles && compareText(c.slug, other.city.slug) < 0);
  const { xyz, byLat, lats } = points;
  const [x, y, z] = unitPoint(city);
  const lat = city.lat * RAD;
  /** Keeps city k if it ranks; whether a city this far in latitude could still rank. */
  const visit = (at: number): boolean => {
    const full = best.length === count;
    const gap = Math.sin((lats[at]! - lat) / 2) ** 2;
    if (full && gap > best[count - 1]!.h * (1 + 1e-6) + 1e-15) return false;
    const k = byLat[at]!;
    const c = cities[k]!;
    if (c.slug === city.slug) return true;
    const i = k * 3;
    const dx = xyz[i]! - x;
    const dy = xyz[i + 1]! - y;
    const dz = xyz[i + 2]! - z;
    const h = (dx * dx + dy * dy + dz * dz) / 4;
    // The distance grows with h: a city whose h is clearly past the farthest kept one is farther
    // (the margin leaves any two that could round to the same miles to the comparison below).
    if (full && h > best[count - 1]!.h * (1 + 1e-9)) return true;
    // the miles themselves from the haversine formula, as before (the chord only ranks)
    const miles = milesBetween(city, c);
    if (full && !before(miles, c, best[count - 1]!)) return true;
    let j = Math.min(best.length, count - 1);
    while (j > 0 && before(miles, c, best[j - 1]!)) j--;
    best.splice(j, 0, { city: c, k, h, miles });
    if (best.length > count) best.pop();
    return true;
  };
  if (count > 0) {
    let north = firstNotBelow(lats, lat);
    let south = north - 1;
    while (north < lats.length || south >= 0) {
      if (north < lats.length && !visit(north++)) north = lats.length;
      if (south >= 0 && !visit(south--)) south = -1;
    }
  }
  return best.map(({ k, miles }) => ({ k, miles }));
}

const sortedLists = new Map<string, readonly City[]>();
/** A state's cities in an order, sorted once per process (city pages ask on every render). */
function sortedOnce(key: string, make: () => City[]): readonly City[] {
  let list = sortedLists.get(key);
  if (!list) sortedLists.set(key, (list = make()));
  return list;
}

/** The state's cities by name. */
export const citiesByName = (stateCode: string): readonly City[] =>
  sortedOnce(`name:${stateCode}`, () => [...citiesOf(stateCode)].sort((a, b) => compareText(a.name, b.name)));

/** The state's `count` largest cities, by name. */
export const largestCitiesByName = (stateCode: string, count: number): readonly City[] =>
  sortedOnce(`largest:${count}:${stateCode}`, () => largestCities(stateCode, count).sort((a, b) => compareText(a.name, b.name)));

let byName: City[] | undefined;
/** Every city of the 50 states and DC, by name then state; memoised. */
export function allCitiesByName(): readonly City[] {
  byName ??= [...load().byState.values()].flat().sort((a, b) => compareText(a.name, b.name) || compareText(a.stateCode, b.stateCode));
  return byName;
}

/** Installment-scheme slug "{city}-{state code}", e.g. houston-tx. */
export const cityStateSlug = (city: City): string => `${city.slug}-${city.stateCode}`;

export function cityFromCityStateSlug(value: string): City | undefined {
  const m = /^(.+)-([a-z]{2})$/.exec(value);
  return m ? cityInState(m[2]!, m[1]!) : undefined;
}

/** Every distinct city slug, each once (resolving to the largest city of that name). */
export function distinctCitySlugs(): string[] {
  const out: string[] = [];
  for (const c of load().bySlug) if (out[out.length - 1] !== c.slug) out.push(c.slug);
  return out;
}

export const largestCities = (stateCode: string, count: number): City[] =>
  sortedOnce(`size:${stateCode}`, () => [...citiesOf(stateCode)].sort(bySize)).slice(0, count);
