/**
 * Where a lead came from, as its console page shows it: the visit it applied on (landing page,
 * referrer, campaign, click ids) and what the lead itself carried to buyers — the browser's first
 * touch. A borrower who came from an ad and applied later in a new tab, or after the visit ended,
 * applies on a visit without a campaign; the page still shows the ad's campaign and click id the
 * lead was sent with.
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
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { leadRow } from '../support/leadRow';

const dir = mkdtempSync(join(tmpdir(), 'loansites-lead-attribution-'));
let db: Store;
const admin = { email: 'ops@example.com', role: 'admin' as const, csrf: 'c', may: [] };
const LATER_TAB = `v${'1'.repeat(32)}`;

beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'a.sqlite') });
  await migrateStore(db);
  const ctx = { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'iPhone', optedOut: false, now: new Date() };
  // the tab the borrower applied in: opened on its own, no campaign parameters
  await writeTraffic(db, { visits: [visitRow(LATER_TAB, { path: '/payday-loans' }, ctx)], events: [] });
  await db
    .insertInto('leads')
    .values([{ id: 'ld_later_tab', ...leadRow({ visit_id: LATER_TAB, source: 'préstamos 😀', source2: 'fb', click_id: 'ggGC1' }) }])
    .execute();
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

describe('a lead page says where the lead came from', () => {
  it('shows the campaign, source and click id the lead was sent with beside a visit that had none', async () => {
    const detail = (await leadDetail(db, 'admin', 'ld_later_tab', false))!;
    const text = textOf(
      renderToStaticMarkup(createElement(LeadPage, { viewer: admin, id: 'ld_later_tab', detail, canReveal: false, canTrace: false, trace: 'closed' })),
    );
    expect(text).toContain('Landing page /payday-loans');
    expect(text).toContain('Source sent with the lead préstamos 😀 / fb');
    expect(text).toContain('Click id sent with the lead ggGC1');
  });
});
