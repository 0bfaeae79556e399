/**
 * The operators' console on http://console.localhost:<port> against the production build:
 * accounts made with the real `npm run console:user`, sign-in by keyboard (a wrong password's
 * message, the lockout), the overview's funnel equal to the traffic the test wrote through the
 * traffic writer, a lead masked for an analyst until an audited reveal and plain for an admin,
 * the leads CSV with its hostile cells neutralised, pages above a role refused with 403, CSRF
 * refused, no-store and the script-free CSP on every answer, axe on every page — and the console
 * unreachable from a brand host (404), brand pages unreachable from the console host.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { newId } from '../../engine/store/leads';
import { PING_INTERRUPTED } from '../../engine/store/sales';
import { copyVisitDims } from '../../engine/store/leadVisitDims';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { leadRow } from '../support/leadRow';
import { expectNoAxeViolations, PORT } from './helpers';
import { addUser, checkPage, clearNetworkAttempts, CONSOLE, CONSOLE_HOST, raw, run, signIn, withStore } from './console.fixtures';

const today = () => new Date().toISOString().slice(0, 10);
const campaign = `e2e-${run}`;
let leadId = '';
const leadEmail = `lead-${run}@example.org`;

// Playwright runs a file's beforeAll again in a worker each time it hands that worker more of the
// file's tests (fullyParallel): the data is made once per worker, or a second lead and sale under
// this worker's campaign would double its counts (and its sale event's id collide).
let seeded: Promise<void> | undefined;
test.beforeAll(async () => {
  await clearNetworkAttempts();
  await (seeded ??= seed());
});

async function seed(): Promise<void> {
  // 7 visits of this run's campaign, walking the funnel: 4 apply views, 3 step 1, 2 step 2, 2 submitted, 2 stored, 1 sold at $45.00
  const now = new Date();
  const visits = Array.from({ length: 7 }, (_, i) =>
    visitRow(
      `v${run}${String(i).padStart(24, '0')}`,
      { path: '/payday-loans', params: { utm_campaign: campaign, utm_source: 'e2e' } },
      {
        brand: 'ipaydayloans',
        host: 'ipaydayloans.localhost',
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
        optedOut: false,
        now,
      },
    ),
  );
  const event = (i: number, metric: string, value = 0) => ({
    visitId: visits[i]!.id,
    metric,
    path: '/apply',
    state: 'TX',
    value,
    brand: 'ipaydayloans',
    device: 'mobile',
    createdAt: now.toISOString(),
  });
  const events = [
    ...[0, 1, 2, 3].map((i) => event(i, 'apply_view')),
    ...[0, 1, 2].map((i) => event(i, 'step_1')),
    ...[0, 1].flatMap((i) => [event(i, 'step_2'), event(i, 'submitted'), event(i, 'stored')]),
  ];
  leadId = newId('ld');
  await withStore(async (db) => {
    await writeTraffic(db, { visits, events });
    await db
      .insertInto('leads')
      .values({
        id: leadId,
        ...leadRow({ email: leadEmail, phone: '5125550177', last_name: '=HYPERLINK("http://evil.example","x")', visit_id: visits[0]!.id }),
      })
      .execute();
    // its visit is stored already: the lead takes the visit's campaign, source and device as insertLead does
    await copyVisitDims(db, 'lead', [leadId]);
    await db
      .insertInto('lead_sales')
      .values({
        lead_id: leadId,
        status: 'sold',
        duplicate: 0,
        buyer_id: 'e2e-buyer',
        price_cents: 4500,
        runs: 1,
        created_at: now.toISOString(),
        decided_at: now.toISOString(),
      })
      .execute();
    await db
      .insertInto('sale_events')
      .values([
        // an earlier run's ping, out when that run lost the sale: settled by the run that took it over
        {
          id: `se_${run}_0`,
          lead_id: leadId,
          at: new Date(now.getTime() - 1000).toISOString(),
          buyer_id: 'e2e-buyer',
          step: 'ping',
          outcome: 'interrupted',
          price_cents: null,
          latency_ms: null,
          detail: `${PING_INTERRUPTED} (pg_${run})`,
        },
        {
          id: `se_${run}`,
          lead_id: leadId,
          at: now.toISOString(),
          buyer_id: 'e2e-buyer',
          step: 'ping',
          outcome: 'bid',
          price_cents: 4500,
          latency_ms: 120,
          detail: '',
        },
      ])
      .execute();
  });
}

test('a brand host never serves the console’s pages or API (404), and the console host serves no brand page', async () => {
  for (const path of ['/_console', '/_console/leads', '/_console/login', '/api/console/login', '/api/console/export', '/_next/data/x/_console/leads.json'])
    for (const method of ['GET', 'POST']) expect((await raw(method, path, `ipaydayloans.localhost:${PORT}`)).status, `${method} ${path}`).toBe(404);
  for (const path of ['/payday-loans', '/robots.txt', '/api/leads', '/_console/login']) expect((await raw('GET', path, CONSOLE_HOST)).status, path).toBe(404);
  const login = await raw('GET', '/login', CONSOLE_HOST);
  expect(login.status).toBe(200);
  expect(login.headers['cache-control']).toContain('no-store');
  expect(login.headers['content-security-policy']).toMatch(/script-src 'none'.*frame-ancestors 'none'/);
});

test('sign in: a wrong password says so; five failures lock the account even for the right password', async ({ page }) => {
  test.setTimeout(180_000);
  const email = addUser('viewer');
  await signIn(page, email, 'not the password');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('The email or password is wrong.');
  for (let i = 0; i < 4; i++) await signIn(page, email, `wrong ${i}`);
  await signIn(page, email);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Too many failed sign-ins');
  await expect(page).toHaveURL(/\/login\?error=locked/);
  await clearNetworkAttempts();
});

test('an admin: the overview equals the traffic written, the lead unmasked, the CSV safe, every page axe-clean; sign out', async ({ page }) => {
  test.setTimeout(240_000);
  const email = addUser('admin');
  await signIn(page, email);
  await expect(page).toHaveURL(`${CONSOLE}/`);
  await checkPage(page, `/?from=${today()}&to=${today()}&campaign=${campaign}`, 'Overview');
  const funnel = page.getByRole('table', { name: 'The funnel, stage by stage' });
  const row = (stage: string) => funnel.getByRole('row', { name: new RegExp(`^${stage} `) });
  await expect(row('Visits')).toHaveText(/Visits\s*7\s*100%\s*100%/);
  await expect(row('Apply page views')).toContainText('4');
  await expect(row('Form step 1')).toContainText('3');
  await expect(row('Stored leads')).toHaveText(/Stored leads\s*2\s*100%\s*28\.6%/);
  await expect(row('Sold')).toHaveText(/Sold\s*1\s*50%/);
  await expect(page.getByTestId('totals')).toContainText('$45.00');
  await expect(page.getByRole('table', { name: 'By campaign' })).toContainText(campaign);
  // The same campaign on desktops had no visit; on phones, all seven.
  await page.getByLabel('Device').selectOption('desktop');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(row('Visits')).toHaveText(/^Visits\s*0\s*—\s*—\s*visits$/);
  await page.getByLabel('Device').selectOption('mobile');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(row('Visits')).toHaveText(/Visits\s*7\s*100%\s*100%/);
  // A breakdown sorts by the header a keyboard user follows, keeping the filter.
  await page.getByRole('table', { name: 'By campaign' }).getByRole('link', { name: 'Revenue' }).press('Enter');
  await expect(page).toHaveURL(/device=mobile&sort=revenue&dir=desc$/);
  await expect(page.getByRole('table', { name: 'By campaign' }).getByRole('columnheader', { name: 'Revenue', exact: true })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(row('Visits')).toHaveText(/Visits\s*7\s*100%\s*100%/);

  await checkPage(page, `/leads?q=${encodeURIComponent(leadEmail)}`, 'Leads');
  await page.getByRole('link', { name: leadId }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Lead ${leadId}`);
  await expect(page.getByText(leadEmail)).toBeVisible();
  await expect(page.getByText('5125550177')).toBeVisible();
  const timeline = page.getByRole('table', { name: 'The sale’s timeline' });
  await expect(timeline).toContainText('e2e-buyer');
  // a ping whose answer was never recorded reads so, in words, with no latency or price
  await expect(timeline.getByRole('row').filter({ hasText: 'interrupted' })).toHaveText(
    new RegExp(
      `e2e-buyer\\s*ping\\s*interrupted\\s*—\\s*—\\s*its answer was not recorded: the sale's worker stopped or lost the sale while the ping was out \\(pg_${run}\\)`,
    ),
  );
  await checkPage(page, `/leads/${leadId}`, `Lead ${leadId}`);

  await checkPage(page, '/exports', 'Exports');
  const leadsForm = page.getByRole('form', { name: 'Leads (CSV)' });
  await leadsForm.getByLabel('From').fill(today());
  await leadsForm.getByLabel('To').fill(today());
  const [download] = await Promise.all([page.waitForEvent('download'), leadsForm.getByRole('button', { name: 'Download leads CSV' }).click()]);
  const csvText = readFileSync((await download.path())!, 'utf8');
  const line = csvText.split('\r\n').find((l) => l.startsWith(leadId))!;
  expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  expect(line).toContain(leadEmail);
  const conversionsForm = page.getByRole('form', { name: 'Google Ads offline conversions' });
  const [upload] = await Promise.all([page.waitForEvent('download'), conversionsForm.getByRole('button', { name: 'Download conversions CSV' }).click()]);
  expect(upload.suggestedFilename()).toMatch(/^google-ads-conversions-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(readFileSync((await upload.path())!, 'utf8').split('\r\n')[0]).toBe(
    'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
  );
  // a range ending before it starts (the date fields allow it): said above that form, as typed
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await conversionsForm.getByLabel('From').fill(today());
  await conversionsForm.getByLabel('To').fill(yesterday);
  await Promise.all([page.waitForURL(/\/exports\?refused=google-ads/), conversionsForm.getByRole('button', { name: 'Download conversions CSV' }).click()]);
  await expect(page.getByRole('alert')).toHaveText('Nothing was exportedThe end is before the start.');
  await expect(page.getByRole('form', { name: 'Google Ads offline conversions' }).getByLabel('To')).toHaveValue(yesterday);
  await expectNoAxeViolations(page);
  // a cost upload over the rate limit comes back here (the route's side: tests/unit/console-cost-upload-route.test.ts)
  await page.goto(`${CONSOLE}/exports?costs=limited`);
  await expect(page.getByRole('alert')).toHaveText(/^Cost report refused: nothing was importedToo many uploads: at most \d+ a minute each\./);
  await expectNoAxeViolations(page);
  // where an export over its row limit comes back to, from either form (the route's side: tests/unit/console-browser-refusals.test.ts)
  await page.goto(`${CONSOLE}/exports?refused=leads&from=${today()}&to=${today()}&too=many`);
  await expect(page.getByRole('alert')).toHaveText(/^Nothing was exportedMore than 50,000 leads are in this range, so nothing was exported\. Narrow the dates/);
  await expectNoAxeViolations(page);
  await page.goto(`${CONSOLE}/leads?from=${today()}&to=${today()}&export=too_many`);
  await expect(page.getByRole('alert')).toHaveText(
    /^Nothing was exportedMore than 50,000 leads match these filters, so nothing was exported\. Narrow the dates or add a filter/,
  );
  await expectNoAxeViolations(page);

  for (const [path, heading] of [
    ['/buyers', 'Buyers'],
    ['/brands', 'Brands'],
    ['/users', 'Users'],
    ['/audit', 'Audit log'],
  ] as const)
    await checkPage(page, path, heading);
  await expect(page.getByRole('table')).toContainText('export');

  await Promise.all([page.waitForURL(/\/login\?status=out$/), page.getByRole('button', { name: 'Sign out' }).click()]);
  await expect(page.getByRole('main').getByRole('status')).toHaveText('You are signed out.');
  expect((await page.goto(`${CONSOLE}/leads`))?.url()).toBe(`${CONSOLE}/login?next=%2Fleads`);
  await checkPage(page, '/login', 'Sign in');
});

test('an analyst sees the lead masked until an audited reveal, and is refused the admin pages (403); CSRF is refused', async ({ page }) => {
  test.setTimeout(240_000);
  const email = addUser('analyst');
  await signIn(page, email);
  // where a reveal over the rate limit comes back to (the route's side: tests/unit/console-write-limits.test.ts)
  await checkPage(page, `/leads/${leadId}?reveal=limited`, `Lead ${leadId}`);
  await expect(page.getByRole('alert')).toHaveText('Too many leads revealed in the last minute, so this one stays masked. Wait a minute and try again.');
  await expect(page.getByText('•••-•••-0177')).toBeVisible();
  await expect(page.getByText(leadEmail)).toHaveCount(0);
  // the reveal form of a page that had expired (its token no longer the session's), posted by the
  // browser: a console page saying so and the way back, not bare JSON (the route's side and API
  // clients: tests/unit/console-browser-refusals.test.ts)
  await page.locator('form[action="/api/console/reveal"] input[name="csrf"]').evaluate((el) => ((el as HTMLInputElement).value = 'expired'));
  await Promise.all([page.waitForURL(/\/refused\?why=expired/), page.getByRole('button', { name: /Reveal personal data/ }).click()]);
  await checkPage(page, new URL(page.url()).pathname + new URL(page.url()).search, 'This page had expired', 403);
  await expect(page.getByRole('alert')).toHaveText('Nothing was changed: the page you sent the form from had expired. Open it again and try again.');
  await Promise.all([page.waitForURL(`${CONSOLE}/leads/${leadId}`), page.getByRole('link', { name: 'Open the page again' }).click()]);
  await expect(page.getByText(leadEmail)).toHaveCount(0);
  // and a form the role does not allow (an admin's, left open after the role changed): which role it needs
  await checkPage(page, '/refused?why=role&permission=exports.run', 'Not for your role', 403);
  await expect(page.getByRole('alert')).toContainText('your role (analyst) may not export leads or upload costs. That needs the admin role.');
  await page.goto(`${CONSOLE}/leads/${leadId}`);
  await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/console/reveal')), page.getByRole('button', { name: /Reveal personal data/ }).click()]);
  await expect(page.getByText(leadEmail)).toBeVisible();
  expect(await withStore((db) => db.selectFrom('console_audit').select('target').where('actor', '=', email).where('action', '=', 'reveal').execute())).toEqual([
    { target: leadId },
  ]);
  for (const path of ['/exports', '/users', '/audit']) await checkPage(page, path, 'Not for your role', 403);
  await checkPage(page, '/buyers', 'Buyers');

  // a change without the session's CSRF token (as a forged form would be) is refused and changes nothing
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const forged = await raw('POST', '/api/console/logout', CONSOLE_HOST, 'csrf=forged', { cookie, 'content-type': 'application/x-www-form-urlencoded' });
  expect(forged.status).toBe(403);
  const crossSite = await raw('POST', '/api/console/reveal', CONSOLE_HOST, `lead=${leadId}`, {
    cookie,
    'content-type': 'application/x-www-form-urlencoded',
    origin: 'http://evil.example',
  });
  expect(crossSite.status).toBe(403);
  await checkPage(page, '/leads', 'Leads');
});

test('a viewer sees the aggregates only: leads and a lead are 403', async ({ page }) => {
  test.setTimeout(120_000);
  const email = addUser('viewer');
  await signIn(page, email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Overview');
  // the studio too, read-only: every role may look at the brands there
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link')).toHaveText(['Overview', 'Experiments', 'Brands', 'Studio']);
  await checkPage(page, '/leads', 'Not for your role', 403);
  await checkPage(page, `/leads/${leadId}`, 'Not for your role', 403);
  await expect(page.getByText(leadEmail)).toHaveCount(0);
});
