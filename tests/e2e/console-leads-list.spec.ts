/**
 * The console's leads list in a browser: an analyst filters by status and campaign through the
 * plain GET form and pages through the result (keyset links, no script), a wrong value is a
 * message on the page rather than an error, the admin's CSV export of the same filter has exactly
 * those rows, and personal data cannot be probed by prefix: a viewer may not open the list at all,
 * an analyst (who sees phones masked) is told to type the whole number and is shown nothing.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { copyVisitDims } from '../../engine/store/leadVisitDims';
import { leadRow } from '../support/leadRow';
import { expectNoAxeViolations } from './helpers';
import { addUser, clearNetworkAttempts, CONSOLE, run, signIn, withStore } from './console.fixtures';

const campaign = `list-${run}`;
const leadId = (i: number) => `ld_list${run}${String(i).padStart(3, '0')}`;
// 11 leads of this run's campaign: the sold ones are 0, 2, 4, 6, 8, 10 (6 leads); one sold lead of another campaign
const SOLD = [0, 2, 4, 6, 8, 10].map(leadId);
const phone = (i: number) => `5125${run.replace(/\D/g, '').padEnd(4, '7').slice(0, 4)}${String(i).padStart(2, '0')}`;

test.beforeAll(async () => {
  await clearNetworkAttempts();
  const now = new Date();
  const visits = [campaign, `other-${run}`].map((c, i) =>
    visitRow(
      `vlist${run}${String(i).padStart(18, '0')}`,
      { path: '/payday-loans', params: { utm_campaign: c, utm_source: 'e2e' } },
      { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'Mozilla/5.0', optedOut: false, now },
    ),
  );
  await withStore(async (db) => {
    await writeTraffic(db, { visits, events: [] });
    for (let i = 0; i < 12; i++) {
      const at = new Date(now.getTime() - i * 1000).toISOString();
      await db
        .insertInto('leads')
        .values({
          id: leadId(i),
          ...leadRow({ created_at: at, email: `list-${run}-${i}@example.org`, phone: phone(i), visit_id: visits[i === 11 ? 1 : 0]!.id }),
        })
        .execute();
      await db
        .insertInto('lead_sales')
        .values({
          lead_id: leadId(i),
          status: i % 2 === 0 || i === 11 ? 'sold' : 'unsold',
          duplicate: 0,
          buyer_id: 'e2e-buyer',
          price_cents: 2500,
          runs: 1,
          created_at: at,
          decided_at: at,
        })
        .execute();
    }
    // written straight into the table: the leads take their visit's campaign as insertLead gives it them
    await copyVisitDims(
      db,
      'lead',
      Array.from({ length: 12 }, (_, i) => leadId(i)),
    );
  });
});

const listedIds = async (page: Page) => page.locator('tbody tr td:first-child a').allTextContents();

test('an analyst filters the leads by status and campaign and pages through them; the export of the same filter has the same rows', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, addUser('analyst'));
  await page.goto(`${CONSOLE}/leads`);
  await page.getByLabel('Status').selectOption('sold');
  await page.getByLabel('Campaign').fill(campaign);
  await page.getByLabel(/Per page/).fill('4');
  await Promise.all([page.waitForURL(/status=sold/), page.getByRole('button', { name: 'Find' }).click()]);
  await expect(page.locator('tbody tr')).toHaveCount(4);
  await expectNoAxeViolations(page);
  const seen = await listedIds(page);
  await page.getByRole('link', { name: 'Next page' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(2);
  seen.push(...(await listedIds(page)));
  await expect(page.getByRole('link', { name: 'Next page' })).toHaveCount(0);
  expect(seen).toEqual(SOLD);
  // back to the first page by its link: the same four
  await page.getByRole('link', { name: 'Previous page' }).click();
  // waits for the page the link loads: read at once, the rows are those of the page being left
  await expect(page.locator('tbody tr td:first-child a')).toHaveText(SOLD.slice(0, 4));
  // the analyst's view is masked, and an analyst has no export
  await expect(page.locator('tbody tr').first()).toContainText('•••-•••-');
  await expect(page.getByRole('button', { name: /Download these leads/ })).toHaveCount(0);

  // a wrong value is said on the page, not a server error
  const bad = await page.goto(`${CONSOLE}/leads?status=lost&from=2026-02-30&state=ZZ`);
  expect(bad?.status()).toBe(200);
  await expect(page.getByRole('alert')).toContainText('The status must be one of sold, unsold, duplicate, suppressed, returned, test.');
  await expect(page.getByRole('alert')).toContainText('Dates must be real days written YYYY-MM-DD.');
  await expect(page.getByRole('alert')).toContainText('There is no state, province or territory ZZ; a state is its code, such as TX, ON or NSW.');
  await expectNoAxeViolations(page);

  // the admin exports the same filter: the same leads, no more
  const adminPage = await (await browser.newContext()).newPage();
  await signIn(adminPage, addUser('admin'));
  await adminPage.goto(`${CONSOLE}/leads?status=sold&campaign=${campaign}`);
  const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('button', { name: 'Download these leads (CSV)' }).click()]);
  const lines = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toMatch(/^lead_id,/);
  // a line a lead, then the converted totals of those leads
  expect(lines.slice(1, -1).map((l) => l.split(',')[0])).toEqual([...SOLD].reverse());
  expect(lines.at(-1)).toMatch(new RegExp(`^total,.*${SOLD.length} sold;`));
});

test('a viewer cannot prefix-search a phone; an analyst is told to type the whole number; an admin finds leads by its start', async ({ browser }) => {
  test.setTimeout(120_000);
  const prefix = phone(0).slice(0, 9);
  const viewer = await (await browser.newContext()).newPage();
  await signIn(viewer, addUser('viewer'));
  const refused = await viewer.goto(`${CONSOLE}/leads?q=${prefix}`);
  expect(refused?.status()).toBe(403);
  await expect(viewer.getByRole('heading', { level: 1 })).toHaveText('Not for your role');
  expect(await viewer.content()).not.toContain(leadId(0));

  const analyst = await (await browser.newContext()).newPage();
  await signIn(analyst, addUser('analyst'));
  await analyst.goto(`${CONSOLE}/leads?q=${prefix}`);
  await expect(analyst.getByRole('alert')).toHaveText('Your role sees phone numbers masked, so search needs the whole phone number (not its start).');
  await expect(analyst.locator('tbody')).toContainText('Nothing in this range.');
  expect(await analyst.content()).not.toContain(leadId(0));
  // the whole number still finds its lead, masked
  await analyst.goto(`${CONSOLE}/leads?q=${phone(3)}`);
  expect(await listedIds(analyst)).toEqual([leadId(3)]);

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, addUser('admin'));
  await admin.goto(`${CONSOLE}/leads?q=${prefix}`);
  expect((await listedIds(admin)).sort()).toEqual(Array.from({ length: 10 }, (_, i) => leadId(i)).sort());
  await expect(admin.locator('tbody')).toContainText(phone(0));
});
