/**
 * The application form on a phone in Canada (WeLoans) and Australia (Fast Loans Australia), and
 * what every brand's form does for a borrower on the move: the browser's back and forward
 * between steps, a reload, going offline at submit, no JavaScript, the first screen, the
 * thank-you card below the sticky header. Against the real server and its store (read back here).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { E2E_DB_FILE } from '../../playwright.config';
import { openStore, type Store } from '../../engine/store/db';
import { continueButton, leadPosts, step, uniqueEmail, validateLead } from './apply-form.fixtures';
import { brandUrl, expectNoAxeViolations } from './helpers';

let db: Store;
test.beforeAll(() => {
  db = openStore({ url: '', file: E2E_DB_FILE });
});
test.afterAll(() => db?.destroy());
const leadsByEmail = (email: string) => db.selectFrom('leads').selectAll().where('email', '=', email).execute();
async function open(page: Page, brand: string, path: string) {
  await page.goto(brandUrl(brand, path));
  await expect(continueButton(page)).toBeEnabled();
}
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 120; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the field');
}
/** Steps 2 and 3 filled with the mouse (the keyboard journeys are above each). */
async function contactAndIncome(page: Page, email: string, phone: string) {
  await page.getByLabel('First name').fill('Ana');
  await page.getByLabel('Last name').fill('Roy');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Mobile phone number').fill(phone);
  await continueButton(page).click();
  await expect(step(page)).toContainText('Step 3 of 3');
  await page.getByLabel('Main source of income').selectOption('employment');
  await page.getByLabel('Monthly income after tax').fill('3100');
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await page.getByLabel('Month', { exact: true }).fill('4');
  await page.getByLabel('Day', { exact: true }).fill('2');
  await page.getByLabel('Year', { exact: true }).fill('1988');
  await page.getByRole('checkbox').check();
}

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('WeLoans: keyboard only, axe on every step; M5V 2T6 is Ontario; one lead stored in CAD with the CASL consent', async ({ page }) => {
    const bodies = leadPosts(page);
    const email = uniqueEmail('weloans');
    await open(page, 'weloans', '/apply?requested_amount=1500');
    await page.getByText('Representative example and costs').click();
    await expect(page.getByText(/at 34\.99% APR/)).toBeVisible();
    await expect(page.getByText(/35\.99%/)).toHaveCount(0);
    await expectNoAxeViolations(page);
    await tabTo(page, page.getByLabel('Postal code'));
    await page.keyboard.type('m5v2t6');
    await expect(page.getByText('Ontario', { exact: true })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(step(page)).toContainText('Step 2 of 3');
    await expect(page.getByText('10 digits, for example 416-555-0123')).toBeVisible();
    await expectNoAxeViolations(page);
    for (const text of ['Ana', 'Roy', email, '416 555 0187']) {
      await page.keyboard.press('Tab');
      await page.keyboard.type(text);
    }
    await page.keyboard.press('Enter');
    await expect(step(page)).toContainText('Step 3 of 3');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Employment');
    await page.keyboard.press('Tab');
    await page.keyboard.type('3100');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    for (const text of ['4', '2', '1988']) {
      await page.keyboard.press('Tab');
      await page.keyboard.type(text);
    }
    await page.keyboard.press('Tab');
    const consent = page.getByRole('checkbox', { name: /express consent to WeLoans/ });
    await expect(consent).toBeFocused();
    await expect(page.getByText(/unsubscribe link in any email/)).toBeVisible();
    await page.keyboard.press('Space');
    await expect(consent).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Submit my request' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(step(page)).toHaveText('Thank you — your request is on its way', { timeout: 20_000 });
    // Embedded defaults: the built-in demo lender takes the request (it refuses only New York and amounts over $3,000).
    await expect(page.getByRole('heading', { name: /^You're matched with Demo Lender/ })).toBeVisible({ timeout: 45_000 });
    await expectNoAxeViolations(page);

    expect(bodies).toHaveLength(1);
    expect(validateLead(bodies[0]), JSON.stringify(validateLead.errors)).toBe(true);
    expect(bodies[0]).toMatchObject({ country: 'CA', zip: 'M5V 2T6', phone: '4165550187', amount: 1500, consent: { version: 'casl-2026-11' } });
    const rows = await leadsByEmail(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ brand: 'weloans', country: 'CA', region: 'ON', currency: 'CAD', amount: 1500 });
  });

  test('WeLoans: a Quebec postal code is refused before contact details, and nothing is sent', async ({ page }) => {
    const bodies = leadPosts(page);
    await open(page, 'weloans', '/apply');
    await page.getByLabel('Postal code').fill('H2X 1Y4');
    await continueButton(page).click();
    await expect(step(page)).toHaveText("We can't take a request from Quebec");
    await expect(page.getByText(/WeLoans cannot connect borrowers in Quebec with a lender/)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Change postal code' }).click();
    await expect(page.getByLabel('Postal code')).toHaveValue('H2X 1Y4');
    expect(bodies).toHaveLength(0);
  });

  test('the browser back and forward buttons move between steps; a reload keeps earlier steps, never date of birth or income', async ({ page }) => {
    await open(page, 'weloans', '/apply');
    await page.getByLabel('Postal code').fill('M5V 2T6');
    await continueButton(page).click();
    await expect(step(page)).toContainText('Step 2 of 3');
    await page.getByLabel('First name').fill('Ana');
    await page.getByLabel('Last name').fill('Roy');
    await page.getByLabel('Email address').fill('ana@example.org');
    await page.getByLabel('Mobile phone number').fill('416-555-0187');
    await continueButton(page).click();
    await expect(step(page)).toContainText('Step 3 of 3');
    await page.getByLabel('Monthly income after tax').fill('3100');
    await page.getByLabel('Year', { exact: true }).fill('1988');

    await page.goBack();
    await expect(step(page)).toContainText('Step 2 of 3');
    await expect(page).toHaveURL(/\/apply$/);
    await page.goBack();
    await expect(step(page)).toContainText('Step 1 of 3');
    await page.goForward();
    await expect(step(page)).toContainText('Step 2 of 3');
    await expect(page.getByLabel('Email address')).toHaveValue('ana@example.org');

    await page.reload();
    await expect(step(page)).toContainText('Step 2 of 3');
    await expect(page.getByLabel('First name')).toHaveValue('Ana');
    await expect(page.getByLabel('Mobile phone number')).toHaveValue('416-555-0187');
    await page.goBack();
    await expect(step(page)).toContainText('Step 1 of 3');
    await expect(page.getByLabel('Postal code')).toHaveValue('M5V 2T6');
    // what the form keeps (the visit's own entry holds a timestamp, whose digits may be anything)
    const stored = await page.evaluate(() =>
      JSON.stringify(Object.entries({ ...sessionStorage, ...localStorage }).filter(([key]) => key.startsWith('loansites.applyForm'))),
    );
    expect(stored).toContain('ana@example.org');
    expect(stored).not.toMatch(/1988|3100|dob|monthlyIncome/);
    await continueButton(page).click();
    await continueButton(page).click();
    await expect(step(page)).toContainText('Step 3 of 3');
    await expect(page.getByLabel('Monthly income after tax')).toHaveValue('');
    await expect(page.getByLabel('Year', { exact: true })).toHaveValue('');
  });

  test('offline at submit: sent by itself once the connection is back, with the same key; exactly one lead', async ({ page, context }) => {
    const bodies = leadPosts(page);
    const email = uniqueEmail('offline');
    await open(page, 'ipaydayloans', '/apply');
    await page.getByLabel('ZIP code').fill('78701');
    await continueButton(page).click();
    await contactAndIncome(page, email, '(512) 555-0123');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Submit my request' }).click();
    await expect(page.locator('form[aria-labelledby]').getByRole('alert')).toContainText("we'll send it by ourselves as soon as your connection is back");
    await context.setOffline(false);
    await expect(step(page)).toHaveText('Thank you — your request is on its way', { timeout: 20_000 });
    const keys = new Set(bodies.map((b) => b.idempotencyKey));
    expect(keys.size).toBe(1);
    await expect.poll(async () => (await leadsByEmail(email)).length).toBe(1);
  });

  test('the thank-you heading is below the sticky header, not under it', async ({ page }) => {
    await open(page, 'ipaydayloans', '/apply');
    await page.getByLabel('ZIP code').fill('78701');
    await continueButton(page).click();
    await contactAndIncome(page, uniqueEmail('thanks'), '(512) 555-0123');
    await page.getByRole('button', { name: 'Submit my request' }).click();
    await expect(step(page)).toHaveText('Thank you — your request is on its way', { timeout: 20_000 });
    const headerBottom = await page
      .locator('header')
      .first()
      .evaluate((h) => h.getBoundingClientRect().bottom);
    const box = (await step(page).boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(headerBottom);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
  });

  for (const [brand, path] of [
    ['ipaydayloans', '/apply'],
    ['weloans', '/apply'],
    ['fastloansau', '/apply'],
  ] as const) {
    test(`${brand}${path}: the first screen shows an input`, async ({ page }) => {
      await page.goto(brandUrl(brand, path));
      const first = page.locator('main input:not([type="hidden"]):not([tabindex="-1"]), main select').first();
      const box = (await first.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(844);
    });
  }
});

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true });

  test('Fast Loans Australia: 2000 is NSW; licence and collection notice shown, axe on every step; one lead stored in AUD', async ({ page }) => {
    const bodies = leadPosts(page);
    const email = uniqueEmail('fastloansau');
    await open(page, 'fastloansau', '/apply?requested_amount=1800');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expect(page.getByText(/Australian Credit Licence 000000/)).toBeVisible();
    await expect(page.getByText(/^Lenders must make reasonable inquiries/)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel('Postcode').fill('2000');
    await expect(page.getByText('New South Wales', { exact: true })).toBeVisible();
    await continueButton(page).click();
    await expect(step(page)).toContainText('Step 2 of 3');
    await expectNoAxeViolations(page);
    await contactAndIncome(page, email, '+61 412 345 678');
    await expect(page.getByText(/^Collection notice: Fast Loans Australia/)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Submit my request' }).click();
    await expect(step(page)).toHaveText('Thank you — your request is on its way', { timeout: 20_000 });
    await expectNoAxeViolations(page);
    expect(bodies).toHaveLength(1);
    expect(validateLead(bodies[0]), JSON.stringify(validateLead.errors)).toBe(true);
    expect(bodies[0]).toMatchObject({ country: 'AU', zip: '2000', phone: '0412345678', amount: 1800, consent: { version: 'au-2026-11' } });
    const rows = await leadsByEmail(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ brand: 'fastloansau', country: 'AU', region: 'NSW', currency: 'AUD', amount: 1800 });
  });

  test('WeLoans at 320 px: the first step fits, and M5V 2T6 goes on to contact details', async ({ page }) => {
    await open(page, 'weloans', '/apply');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.getByLabel('Postal code').fill('M5V 2T6');
    await continueButton(page).click();
    await expect(step(page)).toContainText('Step 2 of 3');
    await expectNoAxeViolations(page);
  });
});

test('a postal code pasted with spaces around it (or a ZIP+4) is taken whole, not cut short', async ({ page }) => {
  for (const [brand, label, pasted, kept, place] of [
    ['ipaydayloans', 'ZIP code', ' 78701', '78701', 'Austin, Texas'],
    ['ipaydayloans', 'ZIP code', '78701-1234', '78701', 'Austin, Texas'],
    ['weloans', 'Postal code', ' m5v  2t6', 'm5v 2t6', 'Ontario'],
    ['fastloansau', 'Postcode', ' 2000', '2000', 'New South Wales'],
  ] as const) {
    await open(page, brand, '/apply');
    await page.getByLabel(label).fill(''); // the session keeps the code of the round before
    await page.keyboard.insertText(pasted); // as a phone's keyboard pastes
    await expect(page.getByLabel(label)).toHaveValue(kept);
    await expect(page.getByText(place, { exact: true })).toBeVisible();
  }
});

test('without JavaScript: the note offers the brand telephone and its opening hours', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(brandUrl('weloans', '/apply'));
  await expect(page.getByLabel('Postal code')).toBeVisible();
  // Playwright keeps <noscript> as raw text (scripts off without telling the parser): read it as text.
  const note = (await page.locator('form noscript').textContent()) ?? '';
  expect(note).toContain('+1-416-555-0187');
  expect(note).toContain('Monday to Friday, 9 am to 6 pm Eastern time');
  await context.close();
});
