/**
 * "Stop calls and emails" as a borrower meets it: linked from every brand's footer and from the
 * thank-you screen, usable by keyboard alone, axe-clean at 320 px; once sent, the next request
 * with that phone is not sold (the borrower is told honestly that no lender was found).
 */
import { expect, test } from '@playwright/test';
import { E2E_DB_FILE } from '../../playwright.config';
import { getCatalog } from '../../engine/site/catalog';
import { openStore, type Store } from '../../engine/store/db';
import { brandUrl, expectNoAxeViolations } from './helpers';
import { fillAndSubmit, uniquePhone } from './sale.fixtures';
import { smallTapTargets } from './tapTargets';

let db: Store;
test.beforeAll(() => {
  db = openStore({ url: '', file: E2E_DB_FILE });
});
test.afterAll(() => db?.destroy());

const uniqueEmail = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;

test('every brand links "Stop calls and emails" from its footer to a page that answers', async ({ page }) => {
  // 24 pages, each rendered for the first time by this server.
  test.setTimeout(300_000);
  for (const id of getCatalog().brands.keys()) {
    await page.goto(brandUrl(id, '/'));
    const link = page.locator('footer').getByRole('link', { name: 'Stop calls and emails' });
    await expect(link, id).toHaveAttribute('href', '/stop-calls-and-emails');
    const res = await page.goto(brandUrl(id, '/stop-calls-and-emails'));
    expect(res?.status(), id).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stop calls and emails');
  }
});

test('from the thank-you screen, by keyboard: the opt-out is recorded and the next request with that phone is not sold', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 720 });
  const phone = uniquePhone();
  await fillAndSubmit(page, { brand: 'ipaydayloans', path: '/apply?requested_amount=800', email: uniqueEmail('optout-first'), phone });
  await expect(page.getByRole('heading', { name: /^You're matched with/ })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'Stay on this page' }).click();
  await page.getByRole('link', { name: 'Changed your mind? Stop calls and emails' }).click();
  await expect(page).toHaveURL(/\/stop-calls-and-emails$/);
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await expectNoAxeViolations(page);
  expect(await smallTapTargets(page)).toEqual([]);

  // Nothing entered: the reason is announced and the phone field is focused.
  const form = page.locator('form', { has: page.getByLabel('Phone number') });
  await page.getByLabel('Phone number').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('main').getByRole('alert')).toHaveText('Enter the phone number or the email address you gave on your request.');
  await expect(page.getByLabel('Phone number')).toBeFocused();
  await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');

  await page.keyboard.type(`(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email address')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Stop calls and emails' })).toBeFocused();
  await page.keyboard.press('Enter');
  const done = page.locator('[data-opt-out="done"]');
  await expect(done).toBeFocused();
  await expect(done).toContainText('Your choice is recorded.');
  await expect(form).toHaveCount(0);
  await expectNoAxeViolations(page);

  const email = uniqueEmail('optout-again');
  await fillAndSubmit(page, { brand: 'ipaydayloans', path: '/apply?requested_amount=800', email, phone });
  await expect(page.getByRole('heading', { name: 'No lender right now' })).toBeVisible({ timeout: 45_000 });
  const lead = await db.selectFrom('leads').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  expect(await db.selectFrom('lead_sales').select(['status', 'buyer_id']).where('lead_id', '=', lead.id).executeTakeFirst()).toEqual({
    status: 'suppressed',
    buyer_id: null,
  });
});
