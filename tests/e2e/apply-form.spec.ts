/**
 * The application form on a general brand (ipaydayloans) and a title brand
 * (ustitleloans): amount pre-fill, every step by keyboard only, axe on every step,
 * the state gate, Back, reload, 320 px, announced errors, no JavaScript — against the real
 * server: the embedded geocoder, POST /api/leads into the e2e store (read back here), the
 * outbox delivering to a test buyer, and the encrypted form trace. Only the failure cases
 * (a geocoder or a lead post that fails) are answered in the browser by the test.
 */
import { type Locator, type Page } from '@playwright/test';
import { expect, networkQuiet, test } from './network';
import { E2E_BUYER_PORT, E2E_BUYER_SECRET, E2E_DB_FILE } from '../../playwright.config';
import { consentText } from '../../engine/site/consent';
import { openStore, type Store } from '../../engine/store/db';
import { openFormTrace } from '../../engine/store/leads';
import { startBuyer } from '../support/buyer';
import { continueButton, leadPosts, serveLeads, step, uniqueEmail, validateLead } from './apply-form.fixtures';
import { brandUrl, expectNoAxeViolations } from './helpers';
import { ZIP_LOOKUP_TIMEOUT_MS } from '../../blocks/applyForm/zip';
import { fakeThirdParties } from './thirdParties';

let db: Store;
test.beforeAll(() => {
  db = openStore({ url: '', file: E2E_DB_FILE });
});
test.afterAll(() => db?.destroy());
const leadsByEmail = (email: string) => db.selectFrom('leads').selectAll().where('email', '=', email).execute();
/** The form's own alerts (Next's route announcer is an alert too). */
const formAlert = (page: Page) => page.locator('form[aria-labelledby]').getByRole('alert');

async function open(page: Page, brand: string, path: string) {
  await page.goto(brandUrl(brand, path));
  await expect(continueButton(page)).toBeEnabled(); // hydrated
}

/** Keyboard only: Tab until the field has focus. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 120; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the field');
}

const general = { brand: 'ipaydayloans', path: '/apply', param: 'requested_amount' };
const title = { brand: 'ustitleloans', path: '/apply-title-loans', param: 'requestedamount' };

for (const b of [general, title]) {
  test(`${b.brand}: ${b.path}?${b.param}=2500 shows $2,500, and the page offers no hand-off back to itself`, async ({ page }) => {
    await open(page, b.brand, `${b.path}?v1=landing-page&${b.param}=2500`);
    await expect(page.getByLabel('Loan amount')).toHaveValue('2,500');
    await expect(page.locator(`main form[action="${b.path}"], form[action="${b.path}"]`)).toHaveCount(0);
    // beside the amount, one tap away (folded so that the ZIP code is on a phone's first screen)
    await page.getByText('Representative example and costs').click();
    await expect(page.getByText(/^Representative example: a \$[\d,]+ (title )?loan repaid in 12 monthly installments/)).toBeVisible();
    // In the HTML at its final size: hydrating moves nothing (cumulative layout shift).
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) total += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
        }),
    );
    expect(shift).toBeLessThan(0.01);
  });
}

test('ipaydayloans: every step by keyboard only, axe on each; one lead stored with the consent snapshot and the visit; its form trace decrypts to the post', async ({
  page,
}) => {
  // every step with axe and a stored lead read back: some 20 s alone, three times that on a loaded CI machine
  test.slow();
  // ipaydayloans has a tag-manager container: answered in the browser, as third parties are offline here
  await fakeThirdParties(page.context());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const bodies = leadPosts(page);
  const email = uniqueEmail('ana');
  // The visit: an ad click with a source and a gclid; visit tracking stores them and the session uuid.
  await page.goto(brandUrl('ipaydayloans', '/?source1=spring&gclid=abc'));
  await expect.poll(() => page.evaluate(() => localStorage.getItem('dXVpZA==')), { timeout: 15_000 }).toMatch(/^cc[0-9a-f]{32}$/);
  const uuid = await page.evaluate(() => localStorage.getItem('dXVpZA=='));
  await open(page, 'ipaydayloans', '/apply?requested_amount=2500');
  await expect(page.getByRole('list', { name: 'Progress' }).locator('[aria-current="step"]')).toContainText('Your loan');
  await expect(step(page)).toContainText('Step 1 of 3');
  await expectNoAxeViolations(page);

  await tabTo(page, page.getByLabel('ZIP code'));
  await page.keyboard.type('78701');
  await expect(page.getByText('Austin, Texas')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(step(page)).toContainText('Step 2 of 3');
  await expect(step(page)).toBeFocused();
  await expect(page.getByRole('list', { name: 'Progress' }).locator('[aria-current="step"]')).toContainText('Contact details');
  await expectNoAxeViolations(page);

  await page.keyboard.press('Tab');
  await expect(page.getByLabel('First name')).toBeFocused();
  await page.keyboard.type('Ana');
  await page.keyboard.press('Tab');
  await page.keyboard.type('García');
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type('(512) 555-0123');
  await page.keyboard.press('Enter');
  await expect(step(page)).toContainText('Step 3 of 3');
  await expect(step(page)).toBeFocused();
  await expectNoAxeViolations(page);

  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Main source of income')).toBeFocused();
  await page.keyboard.type('Employment');
  await page.keyboard.press('Tab');
  await page.keyboard.type('2800');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('radio', { name: 'Weekly' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: 'Every two weeks' })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Month', { exact: true })).toBeFocused();
  await page.keyboard.type('3');
  await page.keyboard.press('Tab');
  await page.keyboard.type('27');
  await page.keyboard.press('Tab');
  await page.keyboard.type('1990');
  await page.keyboard.press('Tab');
  const consent = page.getByRole('checkbox', { name: /express written consent for iPaydayLoans/ });
  await expect(consent).toBeFocused();
  await expect(consent).not.toBeChecked();
  await expect(page.getByText(/My consent is not a condition of obtaining any loan/)).toBeVisible();
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Submit my request' })).toBeFocused();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Enter');

  await expect(step(page)).toHaveText('Thank you — your request is on its way');
  await expect(step(page)).toBeFocused();
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  await expect(page.getByRole('link', { name: 'How it works', exact: true })).toHaveAttribute('href', '/how-it-works');
  await expectNoAxeViolations(page);

  expect(bodies).toHaveLength(1);
  const body = bodies[0]!;
  expect(validateLead(body), JSON.stringify(validateLead.errors)).toBe(true);
  expect(body).toMatchObject({
    amount: 2500,
    zip: '78701',
    firstName: 'Ana',
    lastName: 'García',
    email,
    phone: '5125550123',
    incomeSource: 'employment',
    monthlyIncome: 2800,
    payFrequency: 'biweekly',
    dateOfBirth: '1990-03-27',
    consent: { accepted: true, version: 'tcpa-2026-11' },
    tracking: { source: 'spring', clickId: 'ggabc', uuid },
  });
  expect(body).not.toHaveProperty('vehicle');
  expect(body).not.toHaveProperty('website');

  // Stored once, with the consent text shown and the visit it came from; date of birth and income sealed.
  const [row, ...more] = await leadsByEmail(email);
  expect(more).toHaveLength(0);
  expect(row).toMatchObject({
    brand: 'ipaydayloans',
    amount: 2500,
    state: 'tx',
    city: 'Austin',
    source: 'spring',
    click_id: 'ggabc',
    session_uuid: uuid,
    consent_version: 'tcpa-2026-11',
  });
  expect(row!.consent_text).toBe(consentText('tcpa-2026-11', 'iPaydayLoans'));
  expect(row!.consent_text).toContain('My consent is not a condition of obtaining any loan');
  expect(row!.sealed).not.toContain('1990');

  // The form trace: sealed in the browser, opened and stored by the server — the same request and its answer.
  await expect
    .poll(
      async () =>
        (await db.selectFrom('form_traces').select('trace').where('brand', '=', 'ipaydayloans').execute()).filter((t) => openFormTrace(t.trace).includes(email))
          .length,
      { timeout: 15_000 },
    )
    .toBe(1);
  // sealed at rest (engine/store/leads.ts): opened with the lead keys, as `npm run traces -- --forms` does
  const traceRow = (await db.selectFrom('form_traces').selectAll().where('brand', '=', 'ipaydayloans').execute()).find((t) =>
    openFormTrace(t.trace).includes(email),
  )!;
  expect(traceRow.trace).not.toContain(email);
  const trace = JSON.parse(openFormTrace(traceRow.trace)) as {
    type: string;
    request: { url: string; body: unknown };
    response: { status: number; body: { id: string } };
  };
  expect(trace).toMatchObject({
    type: 'general',
    request: { url: expect.stringMatching(/\/api\/leads$/), body },
    response: { status: 201, body: { id: row!.id, status: 'received' } },
  });
  expect(errors, 'no hydration or script errors').toEqual([]);
});

test('ustitleloans: purpose and vehicle by keyboard, a double click stores one lead; the buyer, down at first, gets it once when it comes back', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const bodies = leadPosts(page);
  const email = uniqueEmail('title');
  await open(page, 'ustitleloans', '/apply-title-loans?v1=tt-campaign&requestedamount=2500');
  await expect(page.getByLabel('Loan amount')).toHaveValue('2,500');
  await tabTo(page, page.getByLabel('ZIP code'));
  await page.keyboard.type('78701');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('What is the loan for?')).toBeFocused();
  await page.keyboard.type('Auto R');
  await expect(page.getByLabel('What is the loan for?')).toHaveValue('Auto Repair');
  for (const [label, text] of [
    ['Model year', '2016'],
    ['Make', 'Toyota'],
    ['Model', 'Camry'],
    ['Approximate mileage', '85000'],
  ] as const) {
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(label, { exact: true })).toBeFocused();
    await page.keyboard.type(text);
  }
  await expectNoAxeViolations(page);
  await page.keyboard.press('Enter');
  await expect(step(page)).toContainText('Step 2 of 3');

  await page.getByLabel('First name').fill('Ana');
  await page.getByLabel('Last name').fill('García');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Mobile phone number').fill('512-555-0123');
  await continueButton(page).click();
  await expect(step(page)).toContainText('Step 3 of 3');
  await page.getByLabel('Main source of income').selectOption('benefits');
  await page.getByLabel('Monthly income after tax').fill('1,900');
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await page.getByLabel('Month', { exact: true }).fill('11');
  await page.getByLabel('Day', { exact: true }).fill('2');
  await page.getByLabel('Year', { exact: true }).fill('1975');
  await page.getByRole('checkbox', { name: /US Title Loans/ }).check();
  await page.getByRole('button', { name: 'Submit my request' }).dblclick();

  await expect(step(page)).toHaveText('Thank you — your request is on its way');
  await expect(page.getByRole('link', { name: 'Title loans explained' })).toHaveAttribute('href', '/title-loans');
  expect(bodies.length).toBeLessThanOrEqual(2); // a second click may post; the idempotency key makes it the same lead
  const body = bodies[0]!;
  expect(validateLead(body), JSON.stringify(validateLead.errors)).toBe(true);
  expect(body).toMatchObject({
    amount: 2500,
    purpose: 'Auto Repair',
    vehicle: { year: 2016, make: 'Toyota', model: 'Camry', mileage: 85000 },
    phone: '5125550123',
    dateOfBirth: '1975-11-02',
    tracking: { source: 'tt-campaign' },
  });
  const rows = await leadsByEmail(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ brand: 'ustitleloans', loan_kind: 'title', purpose: 'Auto Repair', state: 'tx' });
  const id = rows[0]!.id;

  // The buyer was down when the lead was stored: the outbox keeps it and retries.
  const delivery = () => db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', id).executeTakeFirstOrThrow();
  await expect.poll(async () => (await delivery()).attempts, { timeout: 15_000 }).toBeGreaterThan(0);
  expect((await delivery()).status).toBe('pending');
  const buyer = await startBuyer(E2E_BUYER_SECRET, E2E_BUYER_PORT);
  try {
    await expect.poll(async () => (await delivery()).status, { timeout: 30_000 }).toBe('delivered');
    expect(buyer.received.filter((r) => r.id === id)).toHaveLength(1);
    expect(buyer.received.find((r) => r.id === id)!.body).toMatchObject({
      brand: 'ustitleloans',
      purpose: 'Auto Repair',
      dateOfBirth: '1975-11-02',
      monthlyIncome: 1900,
      consent: { version: 'tcpa-2026-11' },
    });
  } finally {
    await buyer.close();
  }
});

for (const [brand, path, zip, stateName] of [
  ['ipaydayloans', '/apply', '10001', 'New York'],
  ['ustitleloans', '/apply-title-loans', '10001', 'New York'],
  ['ustitleloans', '/apply-title-loans', '48201', 'Michigan'],
] as const) {
  test(`${brand}: a ${stateName} ZIP (${zip}) is gated before contact details`, async ({ page }) => {
    const bodies = leadPosts(page);
    await open(page, brand, path);
    await page.getByLabel('ZIP code').fill(zip);
    if (path === '/apply-title-loans') {
      await page.getByLabel('What is the loan for?').selectOption('Medical');
      await page.getByLabel('Model year').fill('2012');
      await page.getByLabel('Make', { exact: true }).fill('Ford');
      await page.getByLabel('Model', { exact: true }).fill('Focus');
      await page.getByLabel('Approximate mileage').fill('120000');
    }
    await continueButton(page).click();
    await expect(step(page)).toHaveText(`We can't take a request from ${stateName}`);
    await expect(step(page)).toBeFocused();
    await expect(page.getByText(/so we can't take a (title loan )?request from there/)).toBeVisible();
    await expect(page.getByText('Nothing you typed has been sent or passed to a lender.')).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveCount(0);
    await expectNoAxeViolations(page);
    // "go back and change it": the phone's back button is the ZIP's step, not the page before the form
    await page.goBack();
    await expect(step(page)).toContainText('Step 1 of 3');
    await expect(page.getByLabel('ZIP code')).toHaveValue(zip);
    await continueButton(page).click();
    await expect(step(page)).toHaveText(`We can't take a request from ${stateName}`);
    await page.getByRole('button', { name: 'Change ZIP code' }).click();
    await expect(page.getByLabel('ZIP code')).toHaveValue(zip);
    expect(bodies).toHaveLength(0);
  });
}

test('a Michigan ZIP is fine on a general brand (only title brands exclude it)', async ({ page }) => {
  await open(page, 'ipaydayloans', '/apply');
  await page.getByLabel('ZIP code').fill('48201');
  await expect(page.getByText('Detroit, Michigan')).toBeVisible();
  await continueButton(page).click();
  await expect(step(page)).toContainText('Your contact details');
});

test('an Alabama ZIP: the date of birth asks for 19, the age of majority there, and says so to an 18-year-old before anything is sent', async ({ page }) => {
  const bodies = await serveLeads(page, [201]);
  await open(page, 'ipaydayloans', '/apply');
  await page.getByLabel('ZIP code').fill('35203');
  await expect(page.getByText('Birmingham, Alabama')).toBeVisible();
  await continueButton(page).click();
  await page.getByLabel('First name').fill('Ana');
  await page.getByLabel('Last name').fill('García');
  await page.getByLabel('Email address').fill(uniqueEmail('alabama'));
  await page.getByLabel('Mobile phone number').fill('2055550123');
  await continueButton(page).click();
  const dateOfBirth = page.getByRole('group', { name: /Date of birth/ });
  await expect(dateOfBirth).toHaveAccessibleDescription(/You must be 19 or older\./);
  // eighteen and a half: of age in Texas, not in Alabama
  const born = new Date();
  born.setUTCDate(1);
  born.setUTCFullYear(born.getUTCFullYear() - 19);
  born.setUTCMonth(born.getUTCMonth() + 6);
  await page.getByLabel('Month', { exact: true }).fill(String(born.getUTCMonth() + 1));
  await page.getByLabel('Day', { exact: true }).fill('1');
  await page.getByLabel('Year', { exact: true }).fill(String(born.getUTCFullYear()));
  await page.getByLabel('Year', { exact: true }).press('Tab');
  await expect(dateOfBirth).toHaveAccessibleDescription(/Error: You must be 19 or older to request a loan in Alabama/);
  expect(bodies).toHaveLength(0);
});

test("the later steps' code is not in the first load: it is fetched when the borrower first touches the form, and step 2 follows", async ({ page }) => {
  // The honeypot's label is in step 3's code only.
  const LATER = 'Leave this field empty';
  const scripts: Promise<string>[] = [];
  page.on('response', (r) => void (r.request().resourceType() === 'script' && scripts.push(r.text().catch(() => ''))));
  const laterFetched = async () => (await Promise.all(scripts)).some((text) => text.includes(LATER));
  await open(page, 'ipaydayloans', '/apply');
  await networkQuiet(page);
  expect(await laterFetched()).toBe(false);
  await page.getByLabel('ZIP code').fill('78701');
  await expect.poll(laterFetched).toBe(true);
  await continueButton(page).click();
  await expect(step(page)).toContainText('Your contact details');
  await expect(page.getByLabel('First name')).toBeVisible();
});

test("offline when the next step's code is needed: Continue says so on screen, keeps the answers, and works once the connection is back", async ({ page }) => {
  await open(page, 'ipaydayloans', '/apply');
  await networkQuiet(page);
  // The later steps' code cannot be fetched: the connection dropped after the page loaded.
  await page.route('**/_next/static/chunks/**', (route) => route.abort('internetdisconnected'));
  await page.getByLabel('ZIP code').fill('78701');
  await continueButton(page).click();
  // The form's own alert (Next's route announcer is an empty alert of the page).
  const notice = page.locator('form').getByRole('alert');
  await expect(notice).toContainText("We couldn't open the next step: you seem to be offline. Your answers are kept");
  await expect(step(page)).toContainText('Step 1 of 3');
  await expect(page.getByLabel('ZIP code')).toHaveValue('78701');
  await page.unroute('**/_next/static/chunks/**');
  await continueButton(page).click();
  await expect(step(page)).toContainText('Your contact details');
  await expect(notice).toHaveCount(0);
});

test('when the ZIP lookup fails, the visitor goes on with the ZIP alone (the server decides the state)', async ({ page }) => {
  await page.route('**/api/geocoding/v5/mapbox.places/*', (route) => route.fulfill({ status: 503, body: 'down' }));
  await page.goto(brandUrl('ipaydayloans', '/apply'));
  await expect(continueButton(page)).toBeEnabled();
  await page.getByLabel('ZIP code').fill('78701');
  await continueButton(page).click();
  await expect(step(page)).toContainText('Your contact details');
});

test('a geocoder that does not answer holds Continue a few seconds, then the visitor goes on with the ZIP alone', async ({ page }) => {
  await page.route('**/api/geocoding/v5/mapbox.places/*', () => undefined); // never answered
  await open(page, 'ipaydayloans', '/apply');
  await page.getByLabel('ZIP code').fill('78701');
  await continueButton(page).click();
  await expect(step(page)).toContainText('Your contact details', { timeout: ZIP_LOOKUP_TIMEOUT_MS + 5000 });
});

test('a ZIP code no place has is refused on step 1, with focus on it, before any contact detail is asked', async ({ page }) => {
  await open(page, 'ipaydayloans', '/apply');
  const zip = page.getByLabel('ZIP code');
  await zip.fill('00000');
  await continueButton(page).click();
  await expect(formAlert(page)).toContainText('ZIP code: We could not find ZIP code 00000; check it and try again');
  await expect(step(page)).toContainText('Step 1 of 3');
  await expect(zip).toBeFocused();
  await expect(zip).toHaveAttribute('aria-invalid', 'true');
  await expect(zip).toHaveAccessibleDescription(/Error: We could not find ZIP code 00000/);
  await expectNoAxeViolations(page);
  await zip.fill('78701');
  await expect(page.getByText('Austin, Texas')).toBeVisible();
  await continueButton(page).click();
  await expect(step(page)).toContainText('Your contact details');
});

test('Back keeps what was typed; a reload keeps the earlier steps (never date of birth or income)', async ({ page }) => {
  await open(page, 'ipaydayloans', '/apply?requested_amount=2500');
  await page.getByLabel('Loan amount').fill('3000');
  await page.getByLabel('ZIP code').fill('78701');
  await continueButton(page).click();
  await page.getByLabel('First name').fill('Ana');
  await page.getByLabel('Email address').fill('ana@example.com');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(step(page)).toContainText('Step 1 of 3');
  await expect(page.getByLabel('Loan amount')).toHaveValue('3,000');
  await expect(page.getByLabel('ZIP code')).toHaveValue('78701');
  await continueButton(page).click();
  await expect(page.getByLabel('First name')).toHaveValue('Ana');
  await expect(page.getByLabel('Email address')).toHaveValue('ana@example.com');

  // The reload keeps the step it was on and what was typed before; date of birth and income are never stored.
  await page.reload();
  await expect(continueButton(page)).toBeEnabled();
  await expect(step(page)).toContainText('Step 2 of 3');
  await expect(page.getByLabel('First name')).toHaveValue('Ana');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Loan amount')).toHaveValue('3,000');
  await expect(page.getByLabel('ZIP code')).toHaveValue('78701');
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toMatch(/dob|monthlyIncome/);
});

test('errors: said in words, linked to their fields and announced', async ({ page }) => {
  await open(page, 'ipaydayloans', '/apply');
  await page.getByLabel('Loan amount').fill('');
  await continueButton(page).click();
  const summary = formAlert(page);
  await expect(summary).toContainText('2 answers need a correction');
  await expect(summary).toContainText('ZIP code: Enter a 5-digit ZIP code');
  const amount = page.getByLabel('Loan amount');
  await expect(amount).toBeFocused();
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(amount).toHaveAccessibleDescription(/Error: Enter the amount you need/);
  await expectNoAxeViolations(page);
  // typed and left: announced in the polite live region; fixed: the error goes
  await page.getByLabel('ZIP code').fill('123');
  await page.getByLabel('ZIP code').press('Tab');
  const liveRegion = page.locator('p[aria-live="polite"].sr-only');
  await expect(liveRegion).toHaveText('ZIP code: Enter a 5-digit ZIP code, for example 78701');
  await page.getByLabel('ZIP code').fill('78701');
  await expect(page.getByLabel('ZIP code')).not.toHaveAttribute('aria-invalid', 'true');
  // the same mistake again is said again: the live region is given new words to read, not left as it was
  const said = await liveRegion.evaluateHandle((region) => {
    const added: string[] = [];
    new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => added.push(n.textContent ?? '')))).observe(region, {
      childList: true,
      subtree: true,
    });
    return added;
  });
  await page.getByLabel('ZIP code').fill('12');
  await page.getByLabel('ZIP code').press('Tab');
  await expect.poll(() => said.evaluate((added) => added.join(' | '))).toBe('ZIP code: Enter a 5-digit ZIP code, for example 78701');
});

test('one click on Continue straight from a wrong answer checks the step, lists the errors and takes the focus to the first; one on Back goes back', async ({
  page,
}) => {
  await open(page, 'ipaydayloans', '/apply');
  const zip = page.getByLabel('ZIP code');
  await zip.fill('123');
  await continueButton(page).click();
  await expect(formAlert(page)).toContainText('ZIP code: Enter a 5-digit ZIP code, for example 78701');
  await expect(zip).toBeFocused();
  await zip.fill('78701');
  await continueButton(page).click();
  await page.getByLabel('Email address').fill('ana@example');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(step(page)).toContainText('Step 1 of 3');
});

test('a failed send keeps the answers; Try again reuses the same idempotency key', async ({ page }) => {
  const bodies = await serveLeads(page, [503, 201]);
  await open(page, 'ipaydayloans', '/apply');
  await page.getByLabel('ZIP code').fill('78701');
  await continueButton(page).click();
  await page.getByLabel('First name').fill('Ana');
  await page.getByLabel('Last name').fill('García');
  await page.getByLabel('Email address').fill('ana@example.com');
  await page.getByLabel('Mobile phone number').fill('5125550123');
  await continueButton(page).click();
  await page.getByLabel('Main source of income').selectOption('employment');
  await page.getByLabel('Monthly income after tax').fill('2800');
  await page.getByRole('radio', { name: 'Weekly' }).check();
  await page.getByLabel('Month', { exact: true }).fill('3');
  await page.getByLabel('Day', { exact: true }).fill('27');
  await page.getByLabel('Year', { exact: true }).fill('1990');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Submit my request' }).click();
  await expect(formAlert(page)).toContainText("We couldn't send your request. Your answers are kept — please try again.");
  await expect(page.getByLabel('Monthly income after tax')).toHaveValue('2800');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(step(page)).toHaveText('Thank you — your request is on its way');
  expect(bodies).toHaveLength(2);
  expect(bodies[1]!.idempotencyKey).toBe(bodies[0]!.idempotencyKey);
});

test('at 320 px: no sideways scrolling, tap targets of at least 44 px, the whole first step usable', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await open(page, 'ustitleloans', '/apply-title-loans');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const form = page.locator('form[aria-labelledby]');
  for (const target of await form.locator('input:not([tabindex="-1"]), select, button').all()) {
    const box = (await target.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(320);
    expect(box.height).toBeGreaterThanOrEqual(44);
  }
  await page.getByLabel('ZIP code').fill('78701');
  await continueButton(page).click();
  await expect(formAlert(page)).toContainText('Loan purpose: Choose what the loan is for');
  await expectNoAxeViolations(page);
});

test('without JavaScript: the first step is in the HTML, with a note instead of a button that does nothing', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(brandUrl('ipaydayloans', '/apply?requested_amount=2500'));
  await expect(page.getByLabel('Loan amount')).toBeVisible();
  await expect(page.getByLabel('ZIP code')).toBeVisible();
  // The note is a <noscript>. Playwright turns scripts off without telling the HTML parser, so
  // Chromium keeps <noscript> as raw text here; a browser with JavaScript off shows it.
  expect(await page.locator('form noscript').textContent()).toContain('This form needs JavaScript to send your request.');
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await context.close();
});

/** A form provider's loader, as the test serves it: draws a form into the container, reports ready, posts leads to its proxy URL. */
const PARTNER_LOADER = `(function () {
  var s = document.currentScript, d = s.dataset, c = document.getElementById(d.container);
  c.innerHTML = '<form><label>Name <input name="n"></label> <button type="submit">Send to partner</button><p role="status"></p></form>';
  var f = c.querySelector('form');
  f.addEventListener('submit', function (e) {
    e.preventDefault();
    fetch('https://forms.partner.test/leads?campaign=' + d.campaign + '&leadType=' + d.leadType, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: f.n.value, amount: Number(d.amount) }) })
      .then(function (r) { return r.json(); })
      .then(function (j) { f.querySelector('p').textContent = 'Partner received ' + j.leadId; });
  });
  window.dispatchEvent(new CustomEvent('loansites:form-ready'));
})();`;

test('script provider: the loader comes after the page, with campaign, lead type, amount and v1; once ready, its lead post is traced (encrypted, opened by the server)', async ({
  page,
}) => {
  const loaderRequests: string[] = [];
  await page.route('https://forms.partner.test/loader.js', (route) => {
    loaderRequests.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: PARTNER_LOADER });
  });
  await page.route('https://forms.partner.test/leads*', (route) =>
    route.fulfill({ headers: { 'access-control-allow-origin': '*' }, json: { accepted: true, leadId: 'p-123' } }),
  );
  await page.goto(brandUrl('acmetitle', '/apply-title-loans/partner?requestedamount=2500&v1=partner-campaign'));
  const container = page.locator('#partner-form');
  await expect(container.getByRole('button', { name: 'Send to partner' })).toBeVisible();
  await expect(page.getByText('Loading the application form…')).toHaveCount(0);
  expect(loaderRequests).toHaveLength(1);
  const dataset = await page.evaluate(() => ({
    ...(document.querySelector('script[src="https://forms.partner.test/loader.js"]') as HTMLScriptElement).dataset,
  }));
  expect(dataset).toMatchObject({ container: 'partner-form', campaign: 'theme', leadType: '18', amount: '2500', v1: 'partner-campaign' });

  const marker = `partner-${Date.now()}`;
  await container.getByLabel('Name').fill(marker);
  await container.getByRole('button', { name: 'Send to partner' }).click();
  await expect(container.getByText('Partner received p-123')).toBeVisible();
  const traced = async () =>
    (await db.selectFrom('form_traces').selectAll().where('brand', '=', 'acmetitle').execute())
      .map((t) => ({ ...t, trace: openFormTrace(t.trace) }))
      .filter((t) => t.trace.includes(marker));
  await expect.poll(async () => (await traced()).length, { timeout: 15_000 }).toBe(1);
  expect(JSON.parse((await traced())[0]!.trace)).toMatchObject({
    type: 'title',
    request: {
      url: 'https://forms.partner.test/leads?campaign=theme&leadType=18',
      search: { campaign: 'theme', leadType: '18' },
      body: { name: marker, amount: 2500 },
    },
    response: { status: 200, body: { accepted: true, leadId: 'p-123' } },
  });
});
