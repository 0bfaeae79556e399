/**
 * What a borrower meets after the request, on embedded defaults (the built-in demo lender):
 * Continue to the lender loads its offer page with no failed request; the offer opens on its own
 * brand only and at its page path only; it names the kind of loan asked for and a time in the
 * borrower's region. With no lender: free help in the brand's country, and why a request with
 * opted-out contact details is not passed on — said to everyone alike.
 */
import { expect, test, type Page } from '@playwright/test';
import { brandUrl, PORT, rawGet } from './helpers';
import { fillAndSubmit, uniquePhone } from './sale.fixtures';

const uniqueEmail = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
const OPTED_OUT = 'Requests with a phone number or email address that someone asked us not to use are not passed on to lenders either.';

async function expectOptedOutExplained(page: Page) {
  await expect(page.getByText(OPTED_OUT)).toBeVisible();
  await expect(page.getByRole('link', { name: 'How stopping calls and emails works' })).toHaveAttribute('href', '/stop-calls-and-emails');
}

test('Continue to the demo lender: no failed request, the payday loan asked for, the expiry in Texas time, and the offer only on its brand and page path', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await fillAndSubmit(page, { brand: 'ipaydayloans', path: '/apply?requested_amount=800', email: uniqueEmail('offer') });
  await expect(page.getByRole('heading', { name: /^You're matched with Demo Lender/ })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'Stay on this page' }).click();
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  const go = page.getByRole('link', { name: /^Continue to Demo Lender/ });
  await go.hover();
  await go.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Demo Lender: your demo offer');
  expect(failed).toEqual([]);

  const terms = page.getByRole('definition');
  await expect(terms.nth(1)).toHaveText('Payday loan');
  // ZIP 78701 is Austin, Texas: Central time, never UTC
  await expect(terms.nth(2)).toHaveText(/^\w+day, \w+ \d{1,2}, \d{4} at \d{1,2}:\d\d [AP]M C[SD]T$/);

  const url = new URL(page.url());
  const own = await rawGet(url.pathname + url.search, `ipaydayloans.localhost:${PORT}`);
  expect(own.status).toBe(200);
  const elsewhere = await rawGet(url.pathname + url.search, `ustitleloans.localhost:${PORT}`);
  expect(elsewhere.status).toBe(403);
  expect(elsewhere.body).toContain('This offer link is not genuine');
  expect(elsewhere.body).not.toContain('$800');
  const direct = await rawGet(`/api/demo-lender/offer${url.search}`, `ipaydayloans.localhost:${PORT}`);
  expect(direct.status).toBe(404);
  expect(direct.body).not.toContain('$800');
});

for (const c of [
  {
    brand: 'weloans',
    postal: { label: 'Postal code', code: 'M5V 2T6' },
    phone: '416 555 0187',
    help: { name: 'Free credit counselling (Credit Counselling Canada)', href: 'https://creditcounsellingcanada.ca/' },
    offer: 'talk to a non-profit credit counsellor for free',
  },
  {
    brand: 'fastloansau',
    postal: { label: 'Postcode', code: '2000' },
    phone: '+61 412 345 678',
    help: { name: 'Free financial counselling (National Debt Helpline, 1800 007 007)', href: 'https://ndh.org.au/' },
    offer: 'call the National Debt Helpline on 1800 007 007 for free, confidential financial counselling',
  },
])
  test(`no lender on ${c.brand}: free help in the brand's country, not the US NFCC, and the opted-out rule said to all`, async ({ page }) => {
    test.setTimeout(90_000);
    await fillAndSubmit(page, { brand: c.brand, path: '/apply?requested_amount=5000', email: uniqueEmail(c.brand), phone: c.phone, postal: c.postal });
    await expect(page.getByRole('heading', { name: 'No lender right now' })).toBeVisible({ timeout: 45_000 });
    await expect(page.getByRole('link', { name: c.help.name })).toHaveAttribute('href', c.help.href);
    await expect(page.getByText(`You could read our guide to your options, or ${c.offer}.`)).toBeVisible();
    await expect(page.getByRole('link', { name: /NFCC/ })).toHaveCount(0);
    await expectOptedOutExplained(page);
  });

test('a borrower who opted out and applies again is told why a request is not passed on, and where the opt-out page is', async ({ page }) => {
  test.setTimeout(90_000);
  const phone = uniquePhone();
  await page.goto(brandUrl('ipaydayloans', '/stop-calls-and-emails'));
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Stop calls and emails' }).click();
  await expect(page.locator('[data-opt-out="done"]')).toContainText('Your choice is recorded.');
  await fillAndSubmit(page, { brand: 'ipaydayloans', path: '/apply?requested_amount=800', email: uniqueEmail('opted-out'), phone });
  await expect(page.getByRole('heading', { name: 'No lender right now' })).toBeVisible({ timeout: 45_000 });
  await expectOptedOutExplained(page);
  await expect(page.getByRole('link', { name: 'Free credit counseling (NFCC)' })).toHaveAttribute('href', 'https://www.nfcc.org/');
});
