/**
 * - validateLead: schemas/api/lead.schema.json compiled (AJV, 2020-12), to check what the form posts;
 * - serveLeads: POST /api/leads answered in the browser with the given statuses, for the one
 *   thing the real server will not do on demand: fail (503) and then succeed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import type { Page } from '@playwright/test';

export const validateLead = new Ajv2020({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(join(process.cwd(), 'schemas/api/lead.schema.json'), 'utf8')) as object,
);

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

/** A fresh address per journey, so each test finds its own stored lead. */
export const uniqueEmail = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.org`;

/** Every POST /api/leads the page makes (the real server answers). */
export function leadPosts(page: Page) {
  const bodies: Record<string, unknown>[] = [];
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/leads' && bodies.push(r.postDataJSON() as Record<string, unknown>));
  return bodies;
}

/** The form step's heading (focused on each step change). */
export const step = (page: Page) => page.locator('h3[tabindex="-1"]');
export const continueButton = (page: Page) => page.getByRole('button', { name: 'Continue' });
