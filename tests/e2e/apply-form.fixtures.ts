/**
 * Stand-ins for the servers the application form talks to that are not on the apply-form branch
 * yet. After merging, the lead switches tests/e2e/apply-form.spec.ts to the real ones:
 * - serveGeocoder: the embedded geocoder (Mapbox Geocoding v5 shape), served from a fixture;
 * - serveLeads: POST /api/leads, answered here; each body is checked against
 *   schemas/api/lead.schema.json (AJV, 2020-12) by the tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { expect, type Page } from '@playwright/test';

export const validateLead = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(process.cwd(), 'schemas/api/lead.schema.json'), 'utf8')) as object);

/** ZIP → v5 FeatureCollection, as GET /api/geocoding/v5/mapbox.places/{zip}.json?types=postcode&country=us&limit=1 answers. */
const GEOCODER_FIXTURE: Record<string, [city: string, code: string, state: string]> = {
  '78701': ['Austin', 'US-TX', 'Texas'],
  '10001': ['New York', 'US-NY', 'New York'],
  '48201': ['Detroit', 'US-MI', 'Michigan'],
};

export async function serveGeocoder(page: Page) {
  await page.route('**/api/geocoding/v5/mapbox.places/*', async (route) => {
    const url = new URL(route.request().url());
    expect(url.searchParams.get('types')).toBe('postcode');
    expect(url.searchParams.get('country')).toBe('us');
    const zip = /\/(\d{5})\.json$/.exec(url.pathname)?.[1] ?? '';
    const hit = GEOCODER_FIXTURE[zip];
    const features = hit
      ? [{ id: `postcode.${zip}`, type: 'Feature', place_type: ['postcode'], text: zip, place_name: `${hit[0]}, ${hit[2]} ${zip}, United States`, context: [{ id: `place.${zip}`, text: hit[0] }, { id: `region.${hit[1]}`, short_code: hit[1], text: hit[2] }, { id: 'country.us', short_code: 'us', text: 'United States' }] }]
      : [];
    await route.fulfill({ json: { type: 'FeatureCollection', query: [zip], features } });
  });
}

/** Answers POST /api/leads: records each body, replies with the given statuses in turn (the last one repeats). */
export async function serveLeads(page: Page, statuses: number[] = [201]) {
  const bodies: Record<string, unknown>[] = [];
  await page.route('**/api/leads', async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    bodies.push(body);
    const status = statuses[Math.min(bodies.length - 1, statuses.length - 1)]!;
    await route.fulfill(status < 300 ? { status, json: { id: 'lead-0001', status: 'received' } } : { status, json: { error: 'Service unavailable' } });
  });
  return bodies;
}
