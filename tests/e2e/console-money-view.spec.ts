/**
 * The overview as an operator in New York reading in US dollars: they set their time zone on
 * Your account, an admin sets the Canadian dollar's rate on Settings, and the overview then shows
 * a sale made at 03:30 UTC on the evening before, a CAD sale converted with the rate named, the
 * lead cuts by buyer (acceptance, response p50/p95) and sub-id, grouping by week, and the totals
 * beside the previous period's with that period named — each page axe-clean and script-free.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { writeTraffic } from '../../engine/store/traffic';
import { insertLead } from '../../engine/store/leads';
import { addEvents } from '../../engine/store/sales';
import { visitRow } from '../../engine/store/trafficRules';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';
import { trafficEvent } from '../support/trafficEvent';
import { addUser, checkPage, CONSOLE, signIn, withStore } from './console.fixtures';

const r = randomBytes(4).toString('hex');
const campaign = `view-${r}`;
const buyerA = `view-a-${r}`;
const buyerB = `view-b-${r}`;
const EVENING = new Date('2026-11-10T03:30:00.000Z'); // 22:30 on 9 November in New York
const AFTERNOON = new Date('2026-11-10T15:00:00.000Z');
const BEFORE = new Date('2026-11-08T12:00:00.000Z');

test.beforeAll(async () => {
  await withStore(async (db) => {
    const v = (n: number) => `v${r}${'0'.repeat(23)}${n}`.slice(0, 33);
    const at = [EVENING, AFTERNOON, AFTERNOON, BEFORE];
    await writeTraffic(db, {
      visits: at.map((t, i) =>
        visitRow(
          v(i),
          { path: '/payday-loans', params: { utm_campaign: campaign } },
          { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'iPhone', optedOut: false, now: t },
        ),
      ),
      events: at.map((t, i) => trafficEvent(v(i), 'stored', t.toISOString())),
    });
    const lead = (i: number, extra = {}) =>
      insertLead(db, leadRow({ visit_id: v(i), created_at: at[i]!.toISOString(), source2: `sub-${r}`, ...extra }), []).then((l) => l.id);
    const l1 = await lead(0);
    const l2 = await lead(1, { brand: 'weloans', currency: 'CAD' });
    const l3 = await lead(2);
    const l4 = await lead(3);
    await recordSaleRow(db, { leadId: l1, buyer: buyerA, priceCents: 4000, at: EVENING });
    await recordSaleRow(db, { leadId: l2, buyer: buyerB, priceCents: 10000, at: AFTERNOON }); // C$100.00
    await db
      .insertInto('lead_sales')
      .values({ lead_id: l3, status: 'unsold', duplicate: 0, runs: 1, created_at: AFTERNOON.toISOString(), decided_at: AFTERNOON.toISOString() })
      .execute();
    await recordSaleRow(db, { leadId: l4, buyer: buyerA, priceCents: 1000, at: BEFORE });
    await addEvents(db, [
      { lead_id: l1, buyer_id: buyerA, step: 'ping', outcome: 'bid', latency_ms: 120, at: EVENING.toISOString() },
      { lead_id: l3, buyer_id: buyerA, step: 'ping', outcome: 'no-bid', latency_ms: 300, at: AFTERNOON.toISOString() },
      { lead_id: l2, buyer_id: buyerB, step: 'ping', outcome: 'bid', latency_ms: 80, at: AFTERNOON.toISOString() },
    ]);
  });
});

test('an operator in New York sees their days, the CAD sale converted at the rate named, the buyer cuts and the previous period', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, addUser('admin'));

  await checkPage(page, '/account', 'Your account');
  await page.getByLabel('Time zone').fill('Asia/Kolkata');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('off UTC by a fraction of an hour');
  await page.getByLabel('Time zone').fill('America/New_York');
  await page.getByLabel('Currency').selectOption('USD');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText('Saved: the overview now shows your time zone and currency.');

  const overview = `/?from=2026-11-09&to=2026-11-10&campaign=${campaign}&compare=1`;
  // The Canadian dollar's rate, set on Settings (and changed: the newest applies).
  await checkPage(page, '/settings', 'Settings');
  await page.getByLabel('One unit in US dollars').fill('0.7');
  await page.getByRole('button', { name: 'Save rate' }).click();
  await expect(page.getByRole('status')).toHaveText('Rate saved.');
  await page.getByLabel('One unit in US dollars').fill('0.73');
  await page.getByRole('button', { name: 'Save rate' }).click();
  await expect(page.getByRole('table', { name: 'Rates in use' })).toContainText('1 CAD = 0.730000 USD');

  await checkPage(page, overview, 'Overview');
  await expect(page.getByTestId('range')).toContainText('(America/New_York)');
  await expect(page.getByTestId('rates')).toHaveText('CAD converted at 1 CAD = 0.730000 USD.');
  // $40.00 + C$100.00 × 0.73
  await expect(page.getByTestId('totals').locator('div', { hasText: /^Revenue\$/ })).toContainText('$113.00');

  const days = page.getByRole('table', { name: /Visits, leads and sales per day/ });
  await expect(days.getByRole('row', { name: /^2026-11-09/ })).toContainText('$40.00');
  await expect(days.getByRole('row', { name: /^2026-11-10/ })).toContainText('$73.00');

  const compared = page.getByRole('table', { name: 'Compared with the previous period, 2026-11-07 to 2026-11-08' });
  const revenue = compared.getByRole('row', { name: /^Revenue \$/ });
  await expect(revenue).toContainText('$10.00');
  await expect(revenue).toContainText('+$103.00');
  await expect(revenue).toContainText('+1,030%');

  const a = page.getByRole('table', { name: 'By buyer' }).getByRole('row', { name: new RegExp(buyerA) });
  // offered 2, sold 1, rejected 1, acceptance 50 %, p50 120 ms, p95 300 ms
  await expect(a.getByRole('cell')).toHaveText([buyerA, '2', '1', '1', '0', '0%', '$40.00', '—', '—', '—', '$20.00', '$40.00', '—', '50%', '120 ms', '300 ms']);
  const sub = page.getByRole('table', { name: 'By sub-id' }).getByRole('row', { name: new RegExp(`sub-${r}`) });
  await expect(sub.getByRole('cell').nth(1)).toHaveText('3');
  await expect(sub.getByRole('cell').nth(3)).toHaveText('1');

  await page.goto(`${CONSOLE}/?from=2026-11-09&to=2026-11-10&campaign=${campaign}&grain=week`);
  // 9 November is a Monday: both sales are in its week
  await expect(page.getByRole('table', { name: /per week/ }).getByRole('row', { name: /week of 2026-11-09/ })).toContainText('$113.00');
});
