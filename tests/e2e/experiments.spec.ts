/**
 * An experiment on a landing page, end to end (the payday brand's /payday-loans hero-headline
 * experiment, declared in brands/ipaydayloans.json): two browsers with different assignments see
 * different variants of the same URL, each answered from the page cache, a reload keeps the
 * variant, nothing shifts; a crawler without the cookie gets a variant and the page's own
 * canonical URL; a lead made in each browser is counted for its variant on the console's
 * experiment page, which runs no script, passes axe and fits a 390 px phone.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { step } from './apply-form.fixtures';
import { addUser, checkPage, clearNetworkAttempts, CONSOLE, raw, run, signIn, withStore } from './console.fixtures';
import { brandUrl, layoutShiftSources, layoutShifts, watchLayoutShifts } from './helpers';
import { contactAndIncome, uniquePhone } from './sale.fixtures';

const EXPERIMENT = 'payday-hero-headline';
const HOST = 'ipaydayloans.localhost';
const campaign = `e2e-experiment-${run}`;
const landing = `/payday-loans?utm_campaign=${campaign}`;
const HEADINGS = { control: 'Payday Loans Online', 'cash-before-payday': 'Cash Before Payday, Without the Runaround' } as const;
type Variant = keyof typeof HEADINGS;
const hydrated = (page: Page) => expect(page.locator('html[data-hydrated]')).toHaveCount(1, { timeout: 30_000 });
const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];

/** A browser whose experiments' cookie already holds `variant` (as the server would have set it), watching layout shifts. */
async function visitorIn(browser: import('@playwright/test').Browser, variant: Variant): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'lsx', value: `${randomBytes(8).toString('hex')}|${EXPERIMENT}:${variant}`, domain: HOST, path: '/' }]);
  await watchLayoutShifts(context);
  return { context, page: await context.newPage() };
}

test.beforeAll(() => clearNetworkAttempts());

test('each visitor sees their variant from the cache, keeps it on reload, and their lead counts for it on the console', async ({ browser }) => {
  test.setTimeout(300_000);
  const visitors = {} as Record<Variant, { context: BrowserContext; page: Page }>;
  for (const variant of Object.keys(HEADINGS) as Variant[]) {
    const { context, page } = await visitorIn(browser, variant);
    visitors[variant] = { context, page };
    // the first answer may render the variant's page; the next ones are its cache entry
    for (let i = 0; i < 2; i++) await page.goto(brandUrl('ipaydayloans', '/payday-loans'));
    const cached = await page.reload();
    expect(cached?.headers()['x-nextjs-cache'], `${variant} from the cache`).toBe('HIT');
    expect(cached?.headers()['x-loansites-experiment']).toBe(`${EXPERIMENT}=${variant}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HEADINGS[variant]);
    await hydrated(page);
    // A variant swapped in after the first paint moves the page by a line or more (0.05 and up at this
    // size); under CI load the header once moved by 0.0023 at 147 ms (its nav and search link, before
    // hydration, nothing to do with the experiment). Below 0.01 nothing a visitor can see moves, as
    // in mobile.spec.ts.
    expect(await layoutShifts(page), `${variant}: nothing shifts (${await layoutShiftSources(page)})`).toBeLessThan(0.01);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe('https://ipaydayloans.com/payday-loans');
  }

  // A lead from each, landing from this run's campaign, then the apply form to the end.
  for (const variant of Object.keys(HEADINGS) as Variant[]) {
    const { page } = visitors[variant];
    await page.goto(brandUrl('ipaydayloans', landing));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(HEADINGS[variant]);
    await hydrated(page);
    await page.getByRole('link', { name: 'Check Your Rate' }).click();
    await expect(step(page)).toContainText('Step 1 of 3');
    await hydrated(page);
    await page.getByLabel('ZIP code').fill('78701');
    await expect(page.getByText('Austin, Texas')).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(step(page)).toContainText('Step 2 of 3');
    const email = `experiment-${variant}-${run}@example.org`;
    await contactAndIncome(page, email, uniquePhone());
    await page.getByRole('button', { name: 'Submit my request' }).click();
    await expect.poll(() => withStore((db) => db.selectFrom('leads').select('id').where('email', '=', email).execute()), { timeout: 30_000 }).toHaveLength(1);
  }

  const operatorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const operator = await operatorContext.newPage();
  await signIn(operator, addUser('analyst'));
  const today = new Date().toISOString().slice(0, 10);
  const page = `/experiments/${EXPERIMENT}?from=${today}&to=${today}&campaign=${encodeURIComponent(campaign)}`;
  const rows = () =>
    operator
      .getByRole('table', { name: /^Variants/ })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 4).map((td) => td.textContent)));
  await expect
    .poll(
      async () => {
        await operator.goto(`${CONSOLE}${page}`);
        return rows();
      },
      { timeout: 60_000, intervals: [1000, 2000] },
    )
    .toEqual([
      ['control (control)', '50 %', '1', '1'],
      ['cash-before-payday', '50 %', '1', '1'],
    ]);
  await expect(operator.getByTestId('verdict')).toContainText('Collecting');
  await checkPage(operator, page, `Experiment ${EXPERIMENT}`);
  expect(await operator.evaluate(() => document.documentElement.scrollWidth), 'fits 390 px').toBeLessThanOrEqual(390);
  await checkPage(operator, '/experiments', 'Experiments');
  await expect(operator.getByRole('link', { name: EXPERIMENT })).toBeVisible();
  for (const v of Object.values(visitors)) await v.context.close();
  await operatorContext.close();
});

test('a crawler without the cookie gets a variant, a cookie to keep it and the page’s own canonical URL; nothing is redirected', async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 12 && seen.size < 2; i++) {
    const res = await raw('GET', '/payday-loans', HOST, '', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    expect(res.status).toBe(200);
    const cookie = String(res.headers['set-cookie'] ?? '');
    const variant = new RegExp(`^lsx=[0-9a-f]{16}\\|${EXPERIMENT}:(control|cash-before-payday);`).exec(cookie)?.[1] as Variant | undefined;
    expect(variant, cookie).toBeDefined();
    expect(res.body).toContain(`>${HEADINGS[variant!]}</h1>`);
    expect(canonicalOf(res.body)).toBe('https://ipaydayloans.com/payday-loans');
    seen.add(variant!);
    // the cookie it was given brings the same page back
    const again = await raw('GET', '/payday-loans', HOST, '', { cookie: cookie.split(';')[0]! });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toContain(`>${HEADINGS[variant!]}</h1>`);
  }
  expect(seen.size).toBe(2);
});
