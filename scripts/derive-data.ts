/**
 * Derives the city table from the `zipcodes` package (US ZIP codes with their city and state),
 * reproducibly: same package version in → byte-identical data/generated/cities.json out, with
 * each city's nearest cities in its state (engine/geo/cities.ts nearbyTableOf: a city page reads
 * them instead of searching). Run at install (postinstall) and before dev; the build reads the result.
 */
import './check-node.cjs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { STATES, slugify } from '../engine/geo/states';
import { displayPlaceName } from '../engine/geo/names';
import { compareText, nearbyTableOf, type CitiesFile, type City, type Row } from '../engine/geo/cities';
import { deriveGeocoder } from './derive-geocoder';

const require = createRequire(import.meta.url);
const zipcodes = require('zipcodes') as { codes: Record<string, { zip: string; city: string; state: string; latitude: number; longitude: number }> };
const version = (require('zipcodes/package.json') as { version: string }).version;

type Acc = { name: string; slug: string; zips: string[]; lat: number; lon: number };
const wanted = new Set(STATES.map((s) => s.code.toUpperCase()));
const byState = new Map<string, Map<string, Acc>>();

for (const zip of Object.keys(zipcodes.codes).sort()) {
  const r = zipcodes.codes[zip]!;
  if (!wanted.has(r.state) || !r.city) continue;
  // Display spelling ("Mcallen" → "McAllen"): engine/geo/names.ts; the slug is the same either way.
  const name = displayPlaceName(r.city.trim().replace(/\s+/g, ' '));
  const slug = slugify(name);
  if (!slug) continue;
  const cities = byState.get(r.state) ?? new Map<string, Acc>();
  byState.set(r.state, cities);
  const acc = cities.get(slug);
  if (acc) acc.zips.push(r.zip);
  else cities.set(slug, { name, slug, zips: [r.zip], lat: r.latitude, lon: r.longitude });
}

const out: Record<string, Row[]> = {};
const nearby: Record<string, number[]> = {};
const started = performance.now();
for (const s of STATES) {
  // the order the engine's binary search by slug uses, so that a state's list is searched as it is
  const cities = [...(byState.get(s.code.toUpperCase())?.values() ?? [])].sort((a, b) => compareText(a.slug, b.slug));
  out[s.code] = cities.map((c) => [c.name, c.slug, c.zips[0]!, c.zips.length, c.lat, c.lon]);
  nearby[s.code] = nearbyTableOf(
    cities.map((c): City => ({ name: c.name, slug: c.slug, stateCode: s.code, zip: c.zips[0]!, zipCount: c.zips.length, lat: c.lat, lon: c.lon })),
  );
}
const nearbyMs = performance.now() - started;
const file = join(process.cwd(), 'data/generated/cities.json');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify({ source: `zipcodes@${version}`, states: out, nearby } satisfies CitiesFile));
const total = Object.values(out).reduce((n, list) => n + list.length, 0);
console.log(
  `derive-data: ${total} cities in ${Object.keys(out).length} states from zipcodes@${version}, with their nearest cities (${nearbyMs.toFixed(0)} ms) → data/generated/cities.json`,
);

// The embedded geocoder's data (places, ZIP codes, state boundaries): scripts/derive-geocoder.ts.
console.log(deriveGeocoder());
