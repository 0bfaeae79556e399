/**
 * A request that reached the server whose answer never reached the browser (a dropped
 * connection): the real server stores and sells it, the test lets the post through and then cuts
 * the answer off. Whatever the borrower does next — change an answer and send again, or send
 * the same answers again after their visit has renewed — the form ends on that one request's
 * sale, never on "please try again" for good and never with a second lead.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { E2E_DB_FILE } from '../../playwright.config';
import { VISIT_STORAGE_KEY } from '../../engine/browser/visit';
import { openStore, type Store } from '../../engine/store/db';
import { step, uniqueEmail } from './apply-form.fixtures';
import { brandUrl, expectNoAxeViolations } from './helpers';
import { contactAndIncome, incomeStep } from './sale.fixtures';

let db: Store;
test.beforeAll(() => {
  db = openStore({ url: '', file: E2E_DB_FILE });
});
test.afterAll(() => db?.destroy());

const EARLIER = 'We had already received the request you sent earlier';
const NOT_SENT = 'The changes you made after sending it were not sent';
const RETRY = "We couldn't send your request. Your answers are kept — please try again.";

const leadsOf = (email: string) => db.selectFrom('leads').select('id').where('email', '=', email).execute();
const saleOf = async (email: string) => {
  const [lead] = await leadsOf(email);
  return lead && db.selectFrom('lead_sales').select(['status', 'buyer_id']).where('lead_id', '=', lead.id).executeTakeFirst();
};
const visitOf = (page: Page) => page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? '{}') as { id?: string }, VISIT_STORAGE_KEY);
const formAlert = (page: Page) => page.locator('form[aria-labelledby]').getByRole('alert');
const matched = (page: Page) => page.getByRole('heading', { name: /^You're matched with Demo Lender/ });

/** route.fetch runs in Node, which does not resolve *.localhost: fetch from loopback with the brand's Host header. */
const fetchViaLoopback = (route: Route) => {
  const url = new URL(route.request().url());
  const host = url.host;
  url.hostname = '127.0.0.1';
  return route.fetch({ url: url.toString(), headers: { ...route.request().headers(), host } });
};

/** Every POST /api/leads goes to the server; the first one's answer is then dropped. The statuses the server gave, in order. */
async function loseFirstAnswer(page: Page) {
  const statuses: number[] = [];
  await page.route('**/api/leads', async (route) => {
    const answer = await fetchViaLoopback(route);
    statuses.push(answer.status());
    if (statuses.length === 1) await route.abort('connectionreset');
    else await route.fulfill({ response: answer });
  });
  return statuses;
}

/** The demo lender buys an $800 request (sale.spec.ts); step 3 filled and the consent ticked, once the tab has its visit. */
async function fillForm(page: Page, email: string) {
  await page.goto(brandUrl('ipaydayloans', '/apply?requested_amount=800'));
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await page.getByLabel('ZIP code').fill('78701');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(step(page)).toContainText('Step 2 of 3');
  await contactAndIncome(page, email, `512${String(2000000 + Math.floor(Math.random() * 7999999))}`);
  await expect.poll(async () => (await visitOf(page)).id).toMatch(/^v[0-9a-f]{32}$/);
}

test('an answer lost, an answer changed, sent again: the form follows the request that was taken, and says the change was not sent', async ({ page }) => {
  test.setTimeout(90_000);
  const statuses = await loseFirstAnswer(page);
  const email = uniqueEmail('lost-answer');
  await fillForm(page, email);
  await page.getByRole('button', { name: 'Submit my request' }).click();
  await expect(formAlert(page)).toContainText(RETRY);
  await expect.poll(() => leadsOf(email)).toHaveLength(1);

  await page.getByLabel('Monthly income after tax').fill('3200');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect.poll(() => statuses).toEqual([201, 409]);
  await expect(step(page)).toHaveText('Thank you — your request is on its way');
  await expect(page.getByText(EARLIER)).toBeVisible();
  await expect(page.getByText(NOT_SENT)).toBeVisible();
  await expect(page.getByText('Finding a lender for you…').or(matched(page))).toBeVisible();
  await expect(matched(page)).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page.getByRole('link', { name: /^Continue to Demo Lender/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Your consent certificate/ })).toHaveAttribute('href', /^\/certificate\//);
  await expectNoAxeViolations(page);

  expect(statuses).toEqual([201, 409]);
  expect(await leadsOf(email)).toHaveLength(1);
  expect(await saleOf(email)).toMatchObject({ status: 'sold', buyer_id: 'demo-lender' });
});

test('an answer lost, the visit renewed, the same answers sent again: the same request (200), with nothing said about changes', async ({ page, context }) => {
  test.setTimeout(90_000);
  const statuses = await loseFirstAnswer(page);
  const email = uniqueEmail('lost-answer-visit');
  await fillForm(page, email);
  await page.getByRole('button', { name: 'Submit my request' }).click();
  await expect(formAlert(page)).toContainText(RETRY);

  // Half an hour idle begins a new visit with a new id from the server; another tab from another ad gets one now
  // (one without campaign parameters would go on with this tab's visit).
  const other = await context.newPage();
  await other.goto(brandUrl('ipaydayloans', '/?utm_campaign=lost-answer-other'));
  await expect.poll(async () => (await visitOf(other)).id).toMatch(/^v[0-9a-f]{32}$/);
  const renewed = (await visitOf(other)).id!;
  await other.close();
  const before = await visitOf(page);
  expect(renewed).not.toBe(before.id);
  await page.evaluate(([key, visit]) => sessionStorage.setItem(key, JSON.stringify(visit)), [
    VISIT_STORAGE_KEY,
    { ...before, id: renewed, last: Date.now() },
  ] as const);

  await page.getByRole('button', { name: 'Try again' }).click();
  // one stored request, answered as a retry of it: not a "different request" (409)
  await expect.poll(() => statuses).toEqual([201, 200]);
  await expect(step(page)).toHaveText('Thank you — your request is on its way');
  await expect(page.getByText('Finding a lender for you…').or(matched(page))).toBeVisible();
  await expect(page.getByText(EARLIER)).toHaveCount(0);
  expect(await leadsOf(email)).toHaveLength(1);
});

test('an answer lost, the page reloaded, the income typed again and sent: the request that was taken, not a second lead', async ({ page }) => {
  test.setTimeout(90_000);
  const statuses = await loseFirstAnswer(page);
  const email = uniqueEmail('lost-answer-reload');
  await fillForm(page, email);
  await page.getByRole('button', { name: 'Submit my request' }).click();
  await expect(formAlert(page)).toContainText(RETRY);
  await expect.poll(() => leadsOf(email)).toHaveLength(1);

  // A reload opens the step it was on with what was kept; the date of birth and the income never are.
  await page.reload();
  await expect(step(page)).toContainText('Step 3 of 3');
  await expect(page.getByLabel('Monthly income after tax')).toHaveValue('');
  await incomeStep(page);
  await page.getByRole('button', { name: 'Submit my request' }).click();

  // the same key as the request sent before the reload: that request, whether the body matches it (200) or not (409)
  await expect.poll(() => statuses.length).toBe(2);
  expect([200, 409]).toContain(statuses[1]);
  await expect(step(page)).toHaveText('Thank you — your request is on its way');
  await expect(page.getByText('Finding a lender for you…').or(matched(page))).toBeVisible();
  expect(await leadsOf(email)).toHaveLength(1);
  // received: a new form fill in this tab starts with a new key
  expect(await page.evaluate(() => sessionStorage.getItem('loansites.applyForm.sentKey'))).toBeNull();
});
