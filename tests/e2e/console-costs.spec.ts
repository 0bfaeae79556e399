/**
 * Ad costs from the console: an admin uploads a cost report on the Exports page (a real
 * multipart post from Chromium, with the session's CSRF token) and the overview then shows that
 * campaign's cost, cost per lead and profit; a report with a control character in a campaign
 * is refused with its line number and changes nothing; a report writing its days day-first is
 * refused read month-first, saying to choose day-first, and imported once that is chosen; an analyst gets no upload form and a post of theirs is refused.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { writeTraffic } from '../../engine/store/traffic';
import { insertLead } from '../../engine/store/leads';
import { visitRow } from '../../engine/store/trafficRules';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';
import { trafficEvent } from '../support/trafficEvent';
import { addUser, checkPage, CONSOLE, CONSOLE_HOST, raw, signIn, withStore } from './console.fixtures';

const campaign = `costs-${randomBytes(4).toString('hex')}`;
const yesterday = new Date(Date.now() - 86_400_000);
const day = yesterday.toISOString().slice(0, 10);

test.beforeAll(async () => {
  // Two visits of the campaign yesterday, both stored leads; one sold for $40.00.
  await withStore(async (db) => {
    const v = (n: number) => `v${randomBytes(15).toString('hex')}${n}0`.slice(0, 33);
    const visits = [v(1), v(2)];
    await writeTraffic(db, {
      visits: visits.map((id) =>
        visitRow(
          id,
          { path: '/payday-loans', params: { utm_campaign: campaign } },
          { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'iPhone', optedOut: false, now: yesterday },
        ),
      ),
      events: visits.map((id) => trafficEvent(id, 'stored', yesterday.toISOString(), { state: 'TX' })),
    });
    const lead = await insertLead(db, leadRow({ visit_id: visits[0], created_at: yesterday.toISOString() }), []);
    await recordSaleRow(db, { leadId: lead.id, buyer: 'acme', priceCents: 4000, at: yesterday });
  });
});

test('an admin uploads a cost report; the overview shows the campaign’s cost per lead and profit', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, addUser('admin'));
  await checkPage(page, '/exports', 'Exports');
  const upload = page.getByRole('form', { name: 'Ad costs (CSV upload)' });

  // A report with a terminal escape in a campaign (no visit's campaign has one): refused whole, the line named.
  await upload.getByLabel('Platform').selectOption('generic');
  await upload
    .getByLabel('Cost report')
    .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(`day,campaign,cost\n${day},${campaign},1\n${day},spring\u001b[2J,2\n`) });
  await upload.getByRole('button', { name: 'Upload costs' }).click();
  await expect(page.getByRole('alert')).toContainText('Cost report refused: nothing was imported');
  await expect(page.getByRole('alert')).toContainText('line 3: the campaign "spring\\x1b[2J" holds a control character');

  // An Australian account's report writes the day first: read month-first (the form's default), its
  // 25th is no month, and the refusal says to choose day-first; chosen, it is imported.
  const auReport = { name: 'au.csv', mimeType: 'text/csv', buffer: Buffer.from(`Day,Campaign,Cost\n25/10/2025,${campaign}-au,2.00\n`) };
  await expect(upload.getByLabel('Dates with slashes')).toHaveValue('month-first');
  await upload.getByLabel('Platform').selectOption('google');
  await upload.getByLabel('Currency, if the file has none').fill('AUD');
  await upload.getByLabel('Cost report').setInputFiles(auReport);
  await upload.getByRole('button', { name: 'Upload costs' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'line 2: the day "25/10/2025" is not a date written month-first (M/D/YYYY); if this file writes the day first, choose day-first',
  );
  // the refused upload's choices are the form's again: only the date order is chosen anew
  await expect(upload.getByLabel('Platform')).toHaveValue('google');
  await expect(upload.getByLabel('Currency, if the file has none')).toHaveValue('AUD');
  await upload.getByLabel('Dates with slashes').selectOption('day-first');
  await upload.getByLabel('Cost report').setInputFiles(auReport);
  await upload.getByRole('button', { name: 'Upload costs' }).click();
  await expect(page.getByRole('status')).toContainText('1 day-campaign rows from google imported (2025-10-25 … 2025-10-25)');
  await expect(upload.getByLabel('Dates with slashes')).toHaveValue('day-first');

  // A Google Ads report in dollars: $30.00 and 12 clicks for the campaign yesterday.
  await upload.getByLabel('Platform').selectOption('google');
  await upload.getByLabel('Currency, if the file has none').fill('USD');
  await upload.getByLabel('Cost report').setInputFiles({
    name: 'google.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`Campaign report\nDay,Campaign,Cost,Clicks,Impr.\n${day},${campaign},30.00,12,400\n`),
  });
  await upload.getByRole('button', { name: 'Upload costs' }).click();
  await expect(page.getByRole('status')).toContainText('1 day-campaign rows from google imported');
  await checkPage(page, `/exports?costs=${new URL(page.url()).searchParams.get('costs')}`, 'Exports');

  await page.goto(`${CONSOLE}/?from=${day}&to=${day}&campaign=${campaign}`);
  const totals = page.getByTestId('totals');
  // 2 leads: $15.00 a lead; $40.00 earned less $30.00 spent
  await expect(totals.locator('div', { hasText: 'Cost per lead' })).toContainText('$15.00');
  await expect(totals.locator('div', { hasText: 'Profit' })).toContainText('$10.00');
  await expect(totals.locator('div', { hasText: 'ROAS' })).toContainText('1.33×');
  const row = page.getByRole('table', { name: 'By campaign' }).getByRole('row', { name: new RegExp(campaign) });
  await expect(row).toContainText('$30.00');
  await expect(row).toContainText('$15.00');
  await checkPage(page, `/?from=${day}&to=${day}&campaign=${campaign}`, 'Overview');
});

test('an analyst has no upload form, and a post of theirs is refused', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, addUser('analyst'));
  await checkPage(page, '/exports', 'Not for your role', 403);
  await expect(page.getByRole('button', { name: 'Upload costs' })).toHaveCount(0);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await raw('POST', '/api/console/costs', CONSOLE_HOST, '--b\r\nContent-Disposition: form-data; name="csrf"\r\n\r\nx\r\n--b--\r\n', {
    cookie,
    'content-type': 'multipart/form-data; boundary=b',
  });
  expect(res.status).toBe(403);
  const stored = await withStore((db) => db.selectFrom('ad_costs').select('day').where('campaign', '=', campaign).where('source', '=', 'generic').execute());
  expect(stored).toEqual([]);
});
