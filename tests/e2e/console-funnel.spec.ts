/**
 * The console's overview counts what really happened on the brand sites: the test walks a
 * borrower through ipaydayloans in Chromium (an ad landing with this run's campaign, the amount
 * slider, the apply page, step 1 and on to a submitted lead) and makes one more visit that only
 * lands; the overview filtered by that campaign then shows exactly those visits, apply views,
 * steps, submissions and stored leads. The events go out after idle by sendBeacon and are
 * written in batches, so the overview is read again until it shows them (never a fixed sleep).
 */
import { expect, test, type Page } from '@playwright/test';
import { VISIT_STORAGE_KEY } from '../../engine/browser/visit';
import { step } from './apply-form.fixtures';
import { addUser, clearNetworkAttempts, CONSOLE, run, signIn, withStore } from './console.fixtures';
import { brandUrl } from './helpers';
import { contactAndIncome, uniquePhone } from './sale.fixtures';

const campaign = `e2e-brands-${run}`;
const landing = `/payday-loans?utm_campaign=${campaign}&utm_source=e2e-brands`;
const email = `funnel-${run}@example.org`;
const visitIdOf = (page: Page) => page.evaluate((key) => (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { id?: string }).id, VISIT_STORAGE_KEY);
// the first page a fresh server renders can take a while to hydrate on a busy machine
const hydrated = (page: Page) => expect(page.locator('html[data-hydrated]')).toHaveCount(1, { timeout: 30_000 });

/** The funnel table's stage → count, as the overview shows them. */
const funnelCounts = (page: Page) =>
  page
    .getByRole('table', { name: 'The funnel, stage by stage' })
    .locator('tbody tr')
    .evaluateAll((rows) => Object.fromEntries(rows.map((r) => [r.children[0]?.textContent ?? '', r.children[1]?.textContent ?? ''])));

test.beforeAll(() => clearNetworkAttempts());

test('the overview filtered by a campaign shows exactly the visits, apply views, steps and leads the test made on a brand site', async ({ page, browser }) => {
  test.setTimeout(300_000);
  // A borrower: the ad's landing page, the amount slider, its call to action, the three steps, submitted.
  await page.goto(brandUrl('ipaydayloans', landing));
  await hydrated(page);
  await expect.poll(() => visitIdOf(page)).toMatch(/^v[0-9a-f]{32}$/);
  const visitId = (await visitIdOf(page))!;
  await page.getByRole('slider', { name: 'Loan amount' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('link', { name: 'Check Your Rate' }).click();
  await expect(step(page)).toContainText('Step 1 of 3');
  await hydrated(page);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await page.getByLabel('ZIP code').fill('78701');
  await expect(page.getByText('Austin, Texas')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(step(page)).toContainText('Step 2 of 3');
  await contactAndIncome(page, email, uniquePhone());
  await page.getByRole('button', { name: 'Submit my request' }).click();
  await expect
    .poll(() => withStore((db) => db.selectFrom('leads').select('visit_id').where('email', '=', email).execute()), { timeout: 30_000 })
    .toEqual([{ visit_id: visitId }]);

  // Someone else lands from the same ad and leaves.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(brandUrl('ipaydayloans', landing));
  await hydrated(otherPage);
  await expect.poll(() => visitIdOf(otherPage)).toMatch(/^v[0-9a-f]{32}$/);
  expect(await visitIdOf(otherPage)).not.toBe(visitId);

  // The operator's overview for today and this campaign.
  const consoleContext = await browser.newContext();
  const operator = await consoleContext.newPage();
  await signIn(operator, addUser('analyst'));
  const today = new Date().toISOString().slice(0, 10);
  const overviewUrl = `${CONSOLE}/?from=${today}&to=${today}&campaign=${encodeURIComponent(campaign)}`;
  await expect
    .poll(
      async () => {
        await operator.goto(overviewUrl);
        return funnelCounts(operator);
      },
      { timeout: 45_000, intervals: [500, 1000, 2000] },
    )
    .toMatchObject({ Visits: '2', 'Apply page views': '1', 'Form step 1': '1', 'Form step 2': '1', Submitted: '1', 'Stored leads': '1' });
  await expect(operator.getByRole('table', { name: 'By campaign' }).getByRole('row').filter({ hasText: campaign })).toHaveCount(1);
  await other.close();
  await consoleContext.close();
});
