/**
 * The borrower's side of the sale on embedded defaults (no buyer documents: the built-in demo
 * lender, served by this same server): after submit, "Finding a lender for you…", then the
 * match and the demo lender's page — on a general and a title brand — or an honest "no lender
 * right now" for an amount the demo lender refuses. Keyboard, axe, 44 px targets, 320 px; a
 * reload does not send the request again.
 */
import { expect, test, type Page } from '@playwright/test';
import { E2E_DB_FILE } from '../../playwright.config';
import { openStore, type Store } from '../../engine/store/db';
import { brandUrl, expectNoAxeViolations } from './helpers';
import { smallTapTargets } from './tapTargets';
import { fillAndSubmit } from './sale.fixtures';

let db: Store;
test.beforeAll(() => {
  db = openStore({ url: '', file: E2E_DB_FILE });
});
test.afterAll(() => db?.destroy());

const uniqueEmail = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
const saleOfEmail = async (email: string) => {
  const lead = await db.selectFrom('leads').select('id').where('email', '=', email).executeTakeFirst();
  return lead && db.selectFrom('lead_sales').selectAll().where('lead_id', '=', lead.id).executeTakeFirst();
};
const OFFER_PAGE = /\/demo-lender\/offer\?o=o2\.[A-Za-z0-9_-]+$/;
const matched = (page: Page) => page.getByRole('heading', { name: /^You're matched with Demo Lender/ });

for (const b of [
  { brand: 'ipaydayloans', path: '/apply?requested_amount=800', price: 1200, amount: '$800 USD', how: 'stays, then continues by keyboard' },
  {
    brand: 'ustitleloans',
    path: '/apply-title-loans?requestedamount=2500',
    price: 2000,
    amount: '$2,500 USD',
    title: true,
    how: 'is taken there by the announced redirect',
  },
]) {
  test(`${b.brand}: the borrower is matched with the demo lender and ${b.how}`, async ({ page }) => {
    test.setTimeout(90_000);
    const email = uniqueEmail(b.brand);
    await fillAndSubmit(page, { ...b, email });
    await expect(page.getByText('Finding a lender for you…').or(matched(page))).toBeVisible();
    await expect(matched(page)).toBeVisible({ timeout: 45_000 });
    await expect(page.getByText('This is the built-in demo lender: a demonstration, not a real lender or a real loan.')).toBeVisible();
    await expect(page.getByText(/Taking you to Demo Lender .* in \d+ seconds?\./)).toBeVisible();
    expect(await saleOfEmail(email)).toMatchObject({ status: 'sold', buyer_id: 'demo-lender', price_cents: b.price });
    if (b.title) {
      // Nothing pressed: the announced redirect follows after its countdown.
      await expect(page).toHaveURL(OFFER_PAGE, { timeout: 30_000 });
    } else {
      const stay = page.getByRole('button', { name: 'Stay on this page' });
      await stay.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByText(/Taking you to/)).toHaveCount(0);
      await expectNoAxeViolations(page);
      expect(await smallTapTargets(page)).toEqual([]);
      const go = page.getByRole('link', { name: /^Continue to Demo Lender/ });
      await go.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(OFFER_PAGE);
    }
    // The demo lender's page, on the brand's own host: the offer from the link, said to be a demonstration.
    expect(new URL(page.url()).hostname).toBe(`${b.brand}.localhost`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Demo Lender: your demo offer');
    await expect(page.getByText('Demonstration — not a real lender.')).toBeVisible();
    await expect(page.getByRole('definition').first()).toHaveText(b.amount);
    await expect(page.getByText(`Demo Lender paid $${(b.price / 100).toFixed(2)} for this request`)).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await smallTapTargets(page)).toEqual([]);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Back to the site' })).toBeFocused();

    // Back and reload: the request is not sent again.
    await page.goBack();
    await page.reload();
    expect(await db.selectFrom('leads').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });
}

test('an amount the demo lender refuses: an honest "no lender right now" with next steps, at 320 px', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 320, height: 740 });
  const email = uniqueEmail('unsold');
  await fillAndSubmit(page, { brand: 'ipaydayloans', path: '/apply?requested_amount=5000', email });
  await expect(page.getByRole('heading', { name: 'No lender right now' })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText('Your request was not sold, and you do not owe anything.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Free credit counseling (NFCC)' })).toHaveAttribute('href', 'https://www.nfcc.org/');
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Continue to/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  expect(await smallTapTargets(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  expect(await saleOfEmail(email)).toMatchObject({ status: 'unsold', buyer_id: null });
});

test('a forged or damaged link to the demo lender gets a 4xx page that says so, never a crash', async ({ page }) => {
  for (const [o, status, heading] of [
    [`o2.${'A'.repeat(80)}`, 403, 'This offer link is not genuine'],
    ['"><script>alert(1)</script>', 400, 'This offer link is damaged'],
    ['', 400, 'This link has no offer in it'],
  ] as const) {
    const res = await page.goto(brandUrl('ipaydayloans', `/demo-lender/offer?o=${encodeURIComponent(o)}`));
    expect(res?.status()).toBe(status);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.getByText('Demonstration — not a real lender.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the site' })).toHaveAttribute('href', '/');
  }
  await expectNoAxeViolations(page);
});
