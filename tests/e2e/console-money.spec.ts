/**
 * One source of truth for money: real sales through a real server agree to the cent on every
 * page that shows money. A production server of its own (three stand-in buyers as buyer documents:
 * money-a takes ipaydayloans' leads at $37.50, money-b usinstallmentloans' at $21.25 and takes
 * returns, money-c weloans' — a Canadian brand — at C$30.01) gets three borrowers through the form
 * in Chromium and two direct posts to /api/leads, on two campaigns (one post without a visit);
 * money-b returns one of its leads through the signed returns API, and the Canadian dollar's rate
 * is set (0.73: C$30.01 is $21.91). Then the overview — unfiltered and filtered by brand, campaign,
 * source, landing page and device —, the buyers page, the leads CSV export and
 * `npm run leads -- --json` all show the same sales, return and revenue in US dollars, and name
 * the rate.
 */
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { freePort } from '../support/ports';
import { CURRENT_CONSENT_VERSION } from '../../engine/site/consent';
import { openStore, type Store } from '../../engine/store/db';
import { setCurrencyRate } from '../../engine/store/currencyRates';
import { VISIT_STORAGE_KEY } from '../../engine/browser/visit';
import { startInstance, type Instance } from '../support/instances';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { addUser, raw, signIn } from './console.fixtures';
import { brandUrl } from './helpers';
import { fillAndSubmit, uniquePhone } from './sale.fixtures';

/** This spec's own server (its buyers differ from the shared e2e server's demo lender), on a leased port. */
let PORT: number;
let CONSOLE_URL: string;
const run = randomBytes(4).toString('hex');
const CAMPAIGN_A = `money-a-${run}`;
const CAMPAIGN_B = `money-b-${run}`;
const SECRET = 'money-stand-in-buyer-secret-01';
const dir = mkdtempSync(join(tmpdir(), 'loansites-money-'));
const DB_FILE = join(dir, 'store.sqlite');

let server: Instance;
let buyerA: StandInBuyer;
let buyerB: StandInBuyer;
let buyerC: StandInBuyer;
let db: Store;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  PORT = await freePort(E2E_PORT + 5);
  CONSOLE_URL = `http://console.localhost:${PORT}`;
  [buyerA, buyerB, buyerC] = await Promise.all([
    startStandInBuyer('money-a', SECRET, { ping: { bid: 37.5 } }),
    startStandInBuyer('money-b', SECRET, { ping: { bid: 21.25 } }),
    startStandInBuyer('money-c', SECRET, { ping: { bid: 30.01 } }),
  ]);
  mkdirSync(join(dir, 'buyers'));
  const common = { acceptsTestLeads: true, acceptsDuplicates: true };
  writeFileSync(join(dir, 'buyers', 'money-a.json'), JSON.stringify(buyerA.document({ ...common, filters: { brands: ['ipaydayloans'] } })));
  writeFileSync(
    join(dir, 'buyers', 'money-b.json'),
    JSON.stringify(buyerB.document({ ...common, filters: { brands: ['usinstallmentloans'] }, returnWindowDays: 7 })),
  );
  writeFileSync(join(dir, 'buyers', 'money-c.json'), JSON.stringify(buyerC.document({ ...common, filters: { brands: ['weloans'] } })));
  server = await startInstance(PORT, {
    LOANSITES_DB_FILE: DB_FILE,
    DATABASE_URL: '',
    LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
    BUYER_MONEY_A_SECRET: SECRET,
    BUYER_MONEY_B_SECRET: SECRET,
    BUYER_MONEY_C_SECRET: SECRET,
    LEAD_DESTINATIONS: '',
    RATE_LIMIT_LEADS: '1000',
    RATE_LIMIT_FORM_TRACE: '1000',
  });
  db = openStore({ url: '', file: DB_FILE });
});

test.afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await Promise.all([buyerA?.close(), buyerB?.close(), buyerC?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const saleOf = async (email: string) => {
  const lead = await db.selectFrom('leads').select('id').where('email', '=', email).executeTakeFirst();
  const sale = lead && (await db.selectFrom('lead_sales').select(['status', 'buyer_id', 'price_cents']).where('lead_id', '=', lead.id).executeTakeFirst());
  return sale ? { id: lead.id, ...sale } : undefined;
};

/** Waits for the lead of `email` to be sold to `buyer` at `cents`; its id. */
async function soldTo(email: string, buyer: string, cents: number): Promise<string> {
  await expect.poll(() => saleOf(email), { timeout: 60_000 }).toMatchObject({ status: 'sold', buyer_id: buyer, price_cents: cents });
  return (await saleOf(email))!.id;
}

const visitIdOf = (page: Page) => page.evaluate((key) => (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { id?: string }).id, VISIT_STORAGE_KEY);

/**
 * A borrower through the form, until the page says the server has their request: the search for a
 * lender, or its result. Their browser closes after; closed at the submit, a slow machine lost the
 * request on its way.
 */
async function apply(page: Page, opts: Parameters<typeof fillAndSubmit>[1]) {
  await fillAndSubmit(page, opts);
  await expect(
    page
      .getByText('Finding a lender for you…')
      .or(page.getByRole('heading', { name: /^You're matched with/ }))
      .first(),
  ).toBeVisible({
    timeout: 45_000,
  });
}

/** A lead posted straight to /api/leads from a brand page (as an integration would), with that page's visit or none. */
async function directPost(page: Page, brand: string, landing: string, email: string, withVisit: boolean) {
  await page.goto(brandUrl(brand, landing, PORT));
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1, { timeout: 30_000 });
  await expect.poll(() => visitIdOf(page)).toMatch(/^v[0-9a-f]{32}$/);
  const visitId = withVisit ? await visitIdOf(page) : undefined;
  const body = {
    idempotencyKey: `money-${run}-${email}`.replace(/[^a-z0-9-]/gi, '-'),
    amount: 900,
    zip: '78701',
    firstName: 'Ana',
    lastName: 'Diaz',
    email,
    phone: uniquePhone(),
    incomeSource: 'employment',
    monthlyIncome: 3200,
    payFrequency: 'biweekly',
    dateOfBirth: '1990-04-02',
    consent: { accepted: true, version: CURRENT_CONSENT_VERSION },
    tracking: { source: 'integration', ...(visitId ? { visitId } : {}) },
  };
  const status = await page.evaluate(
    async (b) => (await fetch('/api/leads', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })).status,
    body,
  );
  expect(status).toBe(201);
}

/** The overview's totals, label → value, for a query string. */
async function totals(page: Page, query: string) {
  await page.goto(`${CONSOLE_URL}/?${query}`);
  return page
    .getByTestId('totals')
    .locator('div')
    .evaluateAll((divs) => Object.fromEntries(divs.map((d) => [d.querySelector('dt')?.textContent ?? '', d.querySelector('dd')?.textContent ?? ''])));
}

/** A table's rows as header → cell text. */
const tableRows = (page: Page, name: string | RegExp) =>
  page.getByRole('table', { name }).evaluate((t) => {
    const head = [...t.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
    return [...t.querySelectorAll('tbody tr')].map((tr) => Object.fromEntries([...tr.children].map((td, i) => [head[i] ?? String(i), td.textContent ?? ''])));
  });

const usd = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;

test('real sales to three buyers in two currencies and a return: the overview (each filter), the buyers page, the CSV export and npm run leads agree to the cent', async ({
  page,
  browser,
}) => {
  test.setTimeout(480_000);
  /** Each borrower in a browser of their own (a visit of their own). */
  const borrower = async (work: (p: Page) => Promise<void>) => {
    const context = await browser.newContext();
    try {
      await work(await context.newPage());
    } finally {
      await context.close();
    }
  };
  // Two borrowers through the form, each from an ad of its own campaign.
  const journeyA = `money-journey-a-${run}@example.org`;
  const journeyB = `money-journey-b-${run}@example.org`;
  await borrower((p) => apply(p, { brand: 'ipaydayloans', path: `/apply?utm_campaign=${CAMPAIGN_A}&utm_source=money-ads`, email: journeyA, port: PORT }));
  await soldTo(journeyA, 'money-a', 3750);
  await borrower((p) => apply(p, { brand: 'usinstallmentloans', path: `/apply?utm_campaign=${CAMPAIGN_B}`, email: journeyB, port: PORT }));
  const returnedLead = await soldTo(journeyB, 'money-b', 2125);

  // Two direct posts: one from a visit of campaign B on a landing page, one without a visit.
  const postA = `money-post-a-${run}@example.org`;
  const postB = `money-post-b-${run}@example.org`;
  await borrower((p) => directPost(p, 'ipaydayloans', `/payday-loans?utm_campaign=${CAMPAIGN_B}`, postA, true));
  await borrower((p) => directPost(p, 'usinstallmentloans', '/', postB, false));
  await soldTo(postA, 'money-a', 3750);
  await soldTo(postB, 'money-b', 2125);
  // A Canadian borrower on weloans, sold in Canadian dollars; an admin has set the rate.
  const canadian = `money-canadian-${run}@example.org`;
  await borrower((p) =>
    apply(p, {
      brand: 'weloans',
      path: '/apply',
      email: canadian,
      phone: '416 555 0187',
      postal: { label: 'Postal code', code: 'M5V 2T6' },
      port: PORT,
    }),
  );
  await soldTo(canadian, 'money-c', 3001);
  await setCurrencyRate(db, 'CAD', 730_000, 'admin@example.com');
  // Every borrower used this same Chromium: one device class, whatever its user agent reads as.
  const devices = await db.selectFrom('leads').select('device').distinct().execute();
  expect(devices).toHaveLength(1);
  const device = devices[0]!.device;
  const otherDevice = device === 'mobile' ? 'tablet' : 'mobile';

  // money-b returns journey B's lead through the signed returns API.
  const body = JSON.stringify({ leadId: returnedLead, reason: 'invalid-contact', note: 'phone disconnected' });
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const returned = await raw(
    'POST',
    '/api/buyers/returns',
    `usinstallmentloans.localhost:${PORT}`,
    body,
    { 'content-type': 'application/json', 'x-loansites-buyer': 'money-b', 'x-loansites-signature': signature },
    undefined,
    PORT,
  );
  expect(returned.status, returned.body).toBe(201);

  // What the test made: 5 sales ($117.50 and C$30.01 = $21.91: $139.41), one returned ($21.25 back), $118.16 kept.
  const email = addUser('admin', DB_FILE);
  await signIn(page, email, undefined, CONSOLE_URL);
  await expect(page).toHaveURL(`${CONSOLE_URL}/`);
  const want = (sold: number, soldCents: number, returns: number, returnedCents: number) => ({
    Sold: `${sold} for ${usd(soldCents)}`,
    Returned: `${returns}, ${usd(returnedCents)} given back`,
    Revenue: usd(soldCents - returnedCents),
  });
  const pick = (t: Record<string, string>) => ({ Sold: t.Sold, Returned: t.Returned, Revenue: t.Revenue });
  // The visits' dimensions reach the store in the browsers' event batches: read again until they are there.
  for (const [query, expected] of [
    ['', want(5, 13941, 1, 2125)],
    ['brand=ipaydayloans', want(2, 7500, 0, 0)],
    ['brand=weloans', want(1, 2191, 0, 0)],
    ['brand=usinstallmentloans', want(2, 4250, 1, 2125)],
    [`campaign=${CAMPAIGN_A}`, want(1, 3750, 0, 0)],
    [`campaign=${CAMPAIGN_B}`, want(2, 5875, 1, 2125)],
    [`brand=ipaydayloans&campaign=${CAMPAIGN_B}`, want(1, 3750, 0, 0)],
    ['source=money-ads', want(1, 3750, 0, 0)],
    ['landing=/payday-loans', want(1, 3750, 0, 0)],
    [`device=${device}`, want(5, 13941, 1, 2125)],
    [`device=${otherDevice}`, want(0, 0, 0, 0)],
  ] as const)
    await expect.poll(async () => pick(await totals(page, query)), { message: `the overview ?${query}`, timeout: 30_000 }).toEqual(expected);
  // The day's row says both: the sales and the return.
  await totals(page, '');
  await expect(page.getByTestId('rates')).toHaveText('CAD converted at 1 CAD = 0.730000 USD.');
  const days = await tableRows(page, 'Visits, leads and sales per day');
  expect(days.map((d) => [d.Sold, d.Returned, d.Revenue])).toEqual([['5', '1 (-$21.25)', '$118.16']]);
  const byCampaign = await tableRows(page, 'By campaign');
  expect(Object.fromEntries(byCampaign.filter((r) => r.Sold !== '0').map((r) => [r.Value, [r.Sold, r.Revenue]]))).toEqual({
    [CAMPAIGN_A]: ['1', '$37.50'],
    [CAMPAIGN_B]: ['2', '$37.50'],
    '(none)': ['2', '$43.16'],
  });

  // The buyers page.
  await page.goto(`${CONSOLE_URL}/buyers`);
  const buyers = await tableRows(page, /^Buyers, /);
  expect(Object.fromEntries(buyers.map((b) => [b.Buyer, [b.Won, b.Revenue, b.Returned]]))).toEqual({
    'money-a': ['2', '$75.00', '0'],
    'money-b': ['2', '$21.25', '1 (50%), $21.25 back'],
    'money-c': ['1', '$21.91', '0'],
  });
  await expect(page.getByTestId('rates')).toHaveText('CAD converted at 1 CAD = 0.730000 USD.');
  // money-c's own page: the day's revenue converted, the rate named.
  await page.goto(`${CONSOLE_URL}/buyers/money-c`);
  await expect(page.getByTestId('rates')).toHaveText('CAD converted at 1 CAD = 0.730000 USD.');
  const trend = await tableRows(page, /^Daily trend/);
  expect(trend.filter((d) => d.Wins !== '0').map((d) => [d.Wins, d.Revenue, d.Returns])).toEqual([['1', '$21.91', '0']]);

  // The leads CSV export: each lead's price in its currency and converted, the return's refund, and the total line.
  await page.goto(`${CONSOLE_URL}/exports`);
  const leadsForm = page.getByRole('form', { name: 'Leads (CSV)' });
  const [download] = await Promise.all([page.waitForEvent('download'), leadsForm.getByRole('button', { name: 'Download leads CSV' }).click()]);
  const [head, ...lines] = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  const col = (line: string, name: string) => line.split(',')[head!.split(',').indexOf(name)] ?? '';
  const cents = (text: string) => Math.round(Number(text || 0) * 100);
  const sold = lines.filter((l) => col(l, 'sold_at'));
  expect(sold).toHaveLength(5);
  expect(sold.reduce((s, l) => s + cents(col(l, 'price_converted')), 0)).toBe(13941);
  expect(lines.reduce((s, l) => s + cents(col(l, 'refund_converted')), 0)).toBe(2 * 2125); // each refund, and the total line's
  expect(sold.filter((l) => col(l, 'currency') === 'CAD').map((l) => [col(l, 'price'), col(l, 'price_converted'), col(l, 'rate')])).toEqual([
    ['30.01', '21.91', '1 CAD = 0.730000 USD'],
  ]);
  const total = lines.at(-1)!;
  expect([col(total, 'lead_id'), col(total, 'price_converted'), col(total, 'refund_converted'), col(total, 'rate')]).toEqual([
    'total',
    '139.41',
    '21.25',
    'CAD converted at 1 CAD = 0.730000 USD.',
  ]);
  expect(lines.filter((l) => col(l, 'returned_at')).map((l) => col(l, 'lead_id'))).toEqual([returnedLead]);

  // npm run leads -- --json
  const listed = JSON.parse(
    execFileSync('npm', ['run', '--silent', 'leads', '--', '--json', '--since', '1d'], {
      env: { ...process.env, LOANSITES_DB_FILE: DB_FILE, DATABASE_URL: '' },
      encoding: 'utf8',
    }),
  ) as {
    leads: { sale: { status: string; priceConverted: number | null; refundConverted: number | null } }[];
    totals: { revenue: number };
    rates: { note: string };
  };
  const money = listed.leads.filter((l) => l.sale.status === 'sold' || l.sale.status === 'returned');
  expect(money).toHaveLength(5);
  expect(Math.round(money.reduce((s, l) => s + l.sale.priceConverted! * 100 - (l.sale.refundConverted ?? 0) * 100, 0))).toBe(11816);
  expect(Math.round(listed.totals.revenue * 100)).toBe(11816);
  expect(listed.rates.note).toBe('CAD converted at 1 CAD = 0.730000 USD.');
});
