/**
 * A lead's place on its console page: a US lead has a city; a Canadian or Australian one only
 * the province or state its postal code names, and reads without a stray comma.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import LeadPage from '../../pages/_console/leads/[id]';
import { leadDetail } from '../../engine/console/leadQueries';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { leadRow } from '../support/leadRow';

const dir = mkdtempSync(join(tmpdir(), 'loansites-lead-place-'));
let db: Store;
beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'p.sqlite') });
  await migrateStore(db);
  await db
    .insertInto('leads')
    .values([
      { id: 'ld_place_us', ...leadRow() },
      { id: 'ld_place_ca', ...leadRow({ brand: 'weloans', country: 'CA', region: 'ON', state: 'on', city: '', zip: 'M5V 2T6', currency: 'CAD' }) },
      { id: 'ld_place_au', ...leadRow({ brand: 'fastloansau', country: 'AU', region: 'NT', state: 'nt', city: '', zip: '0800', currency: 'AUD' }) },
    ])
    .execute();
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('the place of a lead on its console page', () => {
  it.each([
    ['ld_place_us', 'Austin, TX 78701'],
    ['ld_place_ca', 'ON M5V 2T6'],
    ['ld_place_au', 'NT 0800'],
  ])('%s: %s', async (id, place) => {
    const detail = (await leadDetail(db, 'admin', id, false))!;
    const html = renderToStaticMarkup(
      createElement(LeadPage, {
        viewer: { email: 'admin@example.com', role: 'admin', csrf: 'c', may: [] },
        id,
        detail,
        canReveal: false,
        canTrace: false,
        trace: 'closed',
      }),
    );
    expect(html).toContain(`<dt class="font-medium text-slate-700">Place</dt><dd class="break-all">${place}</dd>`);
  });
});
