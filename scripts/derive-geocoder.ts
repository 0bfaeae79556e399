/**
 * The embedded geocoder's data, derived reproducibly from packages (same versions in →
 * byte-identical data/generated/geocoder.json out):
 * - ZIP codes with their city, state and coordinates from `zipcodes`;
 * - places (cities): the ZIP codes of one city in one state, centred on their mean, weighted by
 *   ZIP count (the packages carry no population; a city's ZIP count follows it closely);
 * - state boundaries from `us-atlas` (states-10m.json, longitude/latitude), turned from TopoJSON
 *   into GeoJSON with `topojson-client`, coordinates rounded to 5 decimals (about 1 m).
 * engine/geo/geocoder/data.ts reads the file; the schema of a row is written down there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import { STATES, slugify } from '../engine/geo/states';

const require = createRequire(import.meta.url);

export function deriveGeocoder(outDir = join(process.cwd(), 'data/generated')): string {
  const zipcodes = require('zipcodes') as { codes: Record<string, { zip: string; city: string; state: string; latitude: number; longitude: number }> };
  const topology = require('us-atlas/states-10m.json') as Topology<{ states: GeometryCollection<{ name: string }> }>;
  const versions = ['zipcodes', 'us-atlas', 'topojson-client'].map((p) => `${p}@${(require(`${p}/package.json`) as { version: string }).version}`);

  const byName = new Map(STATES.map((s) => [s.name.toLowerCase(), s]));
  const wanted = new Set(STATES.map((s) => s.code));

  // Regions: one per state (50 + DC), with its FIPS code (the TopoJSON id) and boundary.
  const regions: [code: string, name: string, fips: string][] = [];
  const shapes: Feature<Polygon | MultiPolygon, { code: string }>[] = [];
  const round = (p: Position): Position => [Math.round(p[0]! * 1e5) / 1e5, Math.round(p[1]! * 1e5) / 1e5];
  for (const geometry of topology.objects.states.geometries) {
    const name = (geometry.properties as { name: string }).name;
    const state = byName.get(name.toLowerCase());
    if (!state) continue; // territories
    const f = feature(topology, geometry) as Feature<Polygon | MultiPolygon>;
    const g = f.geometry;
    const coordinates = g.type === 'Polygon' ? g.coordinates.map((ring) => ring.map(round)) : g.coordinates.map((poly) => poly.map((ring) => ring.map(round)));
    regions.push([state.code, name, String(geometry.id)]);
    shapes.push({ type: 'Feature', properties: { code: state.code }, geometry: { type: g.type, coordinates } as Polygon | MultiPolygon });
  }
  regions.sort((a, b) => a[0].localeCompare(b[0]));
  shapes.sort((a, b) => a.properties.code.localeCompare(b.properties.code));

  // Places and postcodes.
  type Acc = { name: string; state: string; slug: string; zips: string[]; lat: number; lon: number };
  const places = new Map<string, Acc>();
  const postcodes: [zip: string, place: string, lat: number, lon: number][] = [];
  for (const zip of Object.keys(zipcodes.codes).sort()) {
    const r = zipcodes.codes[zip]!;
    const state = r.state?.toLowerCase();
    if (!state || !wanted.has(state) || !r.city || !/^\d{5}$/.test(r.zip)) continue;
    if (!Number.isFinite(r.latitude) || !Number.isFinite(r.longitude) || (r.latitude === 0 && r.longitude === 0)) continue;
    const name = r.city.trim().replace(/\s+/g, ' ');
    const slug = slugify(name);
    if (!slug) continue;
    const key = `${state}/${slug}`;
    const acc = places.get(key) ?? { name, state, slug, zips: [], lat: 0, lon: 0 };
    places.set(key, acc);
    acc.zips.push(r.zip);
    acc.lat += r.latitude;
    acc.lon += r.longitude;
    postcodes.push([r.zip, key, r.latitude, r.longitude]);
  }
  const placeRows = [...places.values()]
    .sort((a, b) => a.state.localeCompare(b.state) || a.slug.localeCompare(b.slug))
    .map(
      (p) =>
        [p.name, p.state, p.slug, p.zips.length, Math.round((p.lat / p.zips.length) * 1e4) / 1e4, Math.round((p.lon / p.zips.length) * 1e4) / 1e4] as const,
    );
  const placeIndex = new Map(placeRows.map((p, i) => [`${p[1]}/${p[2]}`, i]));

  const out = {
    source: versions.join(', '),
    /** [code, name, fips] */
    regions,
    /** [name, state code, slug, zip count, lat, lon] */
    places: placeRows,
    /** [zip, index into places, lat, lon] */
    postcodes: postcodes.map(([zip, key, lat, lon]) => [zip, placeIndex.get(key)!, lat, lon]),
    /** GeoJSON FeatureCollection of state boundaries, properties.code = state code */
    shapes: { type: 'FeatureCollection', features: shapes },
  };
  const file = join(outDir, 'geocoder.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(out));
  return `derive-data: ${regions.length} regions, ${placeRows.length} places, ${postcodes.length} ZIP codes from ${versions.join(', ')} → data/generated/geocoder.json`;
}
