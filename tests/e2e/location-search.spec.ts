import { expect, test, type Page } from '@playwright/test';
import { createRequire } from 'node:module';
import { brandUrl, expectNoAxeViolations, gotoHydrated, rawGet } from './helpers';

const require = createRequire(import.meta.url);

/** Open the panel from the search page's button, by keyboard. */
async function openPanel(page: Page) {
  const opener = page.getByRole('button', { name: 'Enter a street, city, state, or ZIP code' });
  await expect(opener).toBeEnabled();
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Search locations' });
  await expect(dialog).toBeVisible();
  const input = dialog.getByPlaceholder('Enter a street, city, state, or ZIP code to search');
  // Focused 100 ms after opening.
  await expect(input).toBeFocused();
  return { dialog, input };
}

for (const [brand, searchPath, cityPath] of [
  ['usbadcreditloans', '/title-loans/location/search', '/title-loans/location/austin'],
  ['usinstallmentloans', '/installment-loans/search', '/city/austin-tx'],
  ['ustitleloans', '/title-loans/search', '/title-loans/austin'],
] as const) {
  test(`${brand}: type a city in the search panel, pick it by keyboard → its city page`, async ({ page }) => {
    await page.goto(brandUrl(brand, searchPath));
    const { dialog, input } = await openPanel(page);
    await input.pressSequentially('Austin, TX');
    const result = dialog.getByRole('button', { name: 'Austin, Texas, United States' });
    await expect(result).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(result).toBeFocused();
    const response = page.waitForResponse((r) => r.url().includes('/_next/data/') || r.url().endsWith(cityPath));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(brandUrl(brand, cityPath));
    expect((await response).status()).toBe(200);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Austin');
    expect((await rawGet(cityPath, `${brand}.localhost`)).status).toBe(200);
  });
}

test('the panel: clear button, Cancel, Escape, focus trapped, no axe violations', async ({ page }) => {
  await page.goto(brandUrl('usbadcreditloans', '/payday-loans/location/search'));
  const { dialog, input } = await openPanel(page);
  await input.pressSequentially('hous');
  await expect(dialog.getByRole('button', { name: 'Houston, Texas, United States' })).toBeVisible();
  await expectNoAxeViolations(page);

  // Tab cycles inside the dialog.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  }
  await dialog.getByRole('button', { name: 'Clear search' }).click();
  await expect(input).toHaveValue('');
  await expect(dialog.getByRole('listitem')).toHaveCount(0);

  // A place the geocoder does not know says so, and what to try instead.
  await input.pressSequentially('Qwxzville');
  await expect(dialog.getByText('No places match “Qwxzville”. Try a city, a state or a ZIP code.')).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Clear search' }).click();
  await expect(dialog.getByText(/No places match/)).toBeHidden();

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await openPanel(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(brandUrl('usbadcreditloans', '/payday-loans/location/search'));
});

test('tap targets in the panel are at least 44×44 px', async ({ page }) => {
  await page.goto(brandUrl('ustitleloans', '/title-loans/search'));
  const { dialog, input } = await openPanel(page);
  await input.pressSequentially('787');
  await expect(dialog.getByRole('button', { name: /^Austin, Texas 787/ }).first()).toBeVisible();
  for (const button of await dialog.getByRole('button').all()) {
    const box = (await button.boundingBox())!;
    expect(box.height, await button.innerText()).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
  }
});

test('the header search button opens the panel on the brand search page', async ({ page }) => {
  await page.goto(brandUrl('ustitleloans', '/'));
  await page.getByRole('link', { name: 'Search locations' }).click();
  await expect(page.getByRole('dialog', { name: 'Search locations' })).toBeVisible();
  await expect(page).toHaveURL(/\/title-loans\/search/);
});

test.describe('Use my location, permission granted', () => {
  test.use({ geolocation: { longitude: -97.74, latitude: 30.27 }, permissions: ['geolocation'] });
  test('opens the state page of the position', async ({ page }) => {
    await page.goto(brandUrl('usbadcreditloans', '/payday-loans/location/search'));
    const { dialog } = await openPanel(page);
    await dialog.getByRole('button', { name: 'Use my location' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(brandUrl('usbadcreditloans', '/payday-loans/location/texas'));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Texas');
  });

  // The home page may not ask for the position (Permissions-Policy geolocation=()), and Chromium
  // keeps the first page's policy for the pages the router shows after it.
  test('also when the search page was reached by a link from a page that may not ask for it', async ({ page }) => {
    await gotoHydrated(page, brandUrl('ustitleloans', '/'));
    await page.getByRole('link', { name: 'Search locations' }).click();
    const dialog = page.getByRole('dialog', { name: 'Search locations' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Use my location' }).click();
    await expect(page).toHaveURL(brandUrl('ustitleloans', '/title-loans/texas'));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Texas');
  });
});

test.describe('Use my location, while the browser looks the position up', () => {
  test.use({ geolocation: { longitude: -97.74, latitude: 30.27 }, permissions: ['geolocation'] });
  test('the button says "Locating…" (busy, told to screen readers) until the answer; it is back after a failure', async ({ page, context }) => {
    // The browser's answer (a first fix can take seconds) is held until the test lets it go.
    await page.addInitScript(() => {
      const geo = navigator.geolocation;
      const ask = geo.getCurrentPosition.bind(geo);
      const held: (() => void)[] = [];
      (window as unknown as { heldPositions: (() => void)[] }).heldPositions = held;
      geo.getCurrentPosition = (found, failed, options) => void held.push(() => ask(found, failed, options));
    });
    const held = () => page.evaluate(() => (window as unknown as { heldPositions: unknown[] }).heldPositions.length);
    const release = () => page.evaluate(() => (window as unknown as { heldPositions: (() => void)[] }).heldPositions.shift()!());
    await page.goto(brandUrl('ustitleloans', '/title-loans/search'));
    const idle = page.getByRole('button', { name: 'Use my location' });
    const busy = page.getByRole('button', { name: 'Locating…' });
    const told = page.getByRole('status').filter({ hasText: 'Locating…' });
    await expect(idle).toBeEnabled();
    await expect(told).toHaveCount(0);

    await idle.click();
    await expect.poll(held).toBe(1);
    await expect(busy).toBeVisible();
    await expect(busy).toHaveAttribute('aria-busy', 'true');
    await expect(busy).toHaveAttribute('aria-disabled', 'true');
    await expect(told).toHaveCount(1);
    await expectNoAxeViolations(page);
    // focus stays on it, and pressing it again while busy asks nothing more
    await expect(busy).toBeFocused();
    await page.keyboard.press('Enter');
    expect(await held()).toBe(1);
    // the answer is a failure (permission taken back meanwhile): the button is back, nothing else shown
    await context.clearPermissions();
    await release();
    await expect(idle).toBeVisible();
    await expect(idle).toHaveAttribute('aria-busy', 'false');
    await expect(idle).not.toHaveAttribute('aria-disabled');
    await expect(told).toHaveCount(0);
    await expect(page).toHaveURL(brandUrl('ustitleloans', '/title-loans/search'));

    await context.grantPermissions(['geolocation']);
    await idle.click();
    await expect.poll(held).toBe(1);
    await expect(busy).toBeVisible();
    await release();
    await expect(page).toHaveURL(brandUrl('ustitleloans', '/title-loans/texas'));
  });
});

test.describe('Use my location, a slow answer', () => {
  test.use({ geolocation: { longitude: -149.9, latitude: 61.2 }, permissions: ['geolocation'] });
  test('an answer that comes after the borrower followed a link or closed the panel takes them nowhere', async ({ page }) => {
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    // The reverse lookup of the position is slow (as over a mobile network) until released.
    let release = () => {};
    await page.route('**/mapbox.places/-149.9,61.2.json*', async (route) => {
      await new Promise<void>((resolve) => (release = resolve));
      await route.continue();
    });
    const settled = (count: number, url: string) =>
      expect.poll(() => warnings.filter((w) => w.startsWith('[geolocation]')).length >= count || page.url() !== url).toBe(true);

    await page.goto(brandUrl('ustitleloans', '/title-loans/search'));
    const asked = page.waitForRequest((r) => r.url().includes('/mapbox.places/-149.9,61.2.json'));
    const button = page.getByRole('button', { name: 'Use my location' });
    await expect(button).toBeEnabled();
    await button.click();
    await asked;
    await page.getByRole('link', { name: 'California' }).first().click();
    const california = brandUrl('ustitleloans', '/title-loans/california');
    await expect(page).toHaveURL(california);
    release();
    await settled(1, california);
    expect(page.url()).toBe(california);

    await page.goto(brandUrl('usbadcreditloans', '/payday-loans/location/search'));
    const { dialog } = await openPanel(page);
    const askedAgain = page.waitForRequest((r) => r.url().includes('/mapbox.places/-149.9,61.2.json'));
    await dialog.getByRole('button', { name: 'Use my location' }).click();
    await askedAgain;
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    const search = brandUrl('usbadcreditloans', '/payday-loans/location/search');
    release();
    await settled(2, search);
    expect(page.url()).toBe(search);
  });
});

test.describe('Use my location, permission denied', () => {
  test.use({ permissions: [] });
  test('does nothing visible and stays on the page', async ({ page, context }) => {
    await context.clearPermissions();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(brandUrl('ustitleloans', '/title-loans/search'));
    const before = await page.locator('main').innerText();
    const button = page.getByRole('button', { name: 'Use my location' });
    await expect(button).toBeEnabled();
    await button.click();
    await expect.poll(() => warnings.some((w) => w.includes('[geolocation]'))).toBe(true);
    await expect(page).toHaveURL(brandUrl('ustitleloans', '/title-loans/search'));
    expect(await page.locator('main').innerText()).toBe(before);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test('address autocomplete: suggestions by keyboard fill the field, ZIP code, city and state; clear empties', async ({ page }) => {
  await page.goto(brandUrl('usinstallmentloans', '/installment-loans/search'));
  const field = page.getByRole('combobox', { name: 'Street address or ZIP code' });
  await expect(field).toBeEnabled();
  await field.focus();
  await page.keyboard.type('78701');
  const list = page.getByRole('listbox', { name: 'Address suggestions' });
  await expect(list.getByRole('option').first()).toContainText('78701, Austin, TX');
  await expect(field).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(field).toHaveAttribute('aria-activedescendant', /option-0$/);
  await page.keyboard.press('Enter');
  await expect(field).toHaveValue('78701, Austin, TX');
  await expect(page.getByRole('textbox', { name: 'ZIP code' })).toHaveValue('78701');
  await expect(page.getByRole('textbox', { name: 'City' })).toHaveValue('Austin');
  await expect(page.getByRole('textbox', { name: 'State' })).toHaveValue('TX');
  await expect(list).toBeHidden();
  await expectNoAxeViolations(page);

  // Suggestions hide after the field loses focus.
  await field.fill('');
  await field.pressSequentially('hous');
  await expect(list.getByRole('option').first()).toContainText('Houston, TX');
  await page.keyboard.press('Tab');
  await expect(list).toBeHidden();

  await page.getByRole('button', { name: 'Clear address' }).click();
  await expect(field).toHaveValue('');
  await expect(page.getByRole('textbox', { name: 'ZIP code' })).toHaveValue('');
});

test('address autocomplete: a highlight left beyond a shorter answer that arrives later is dropped', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(brandUrl('usinstallmentloans', '/installment-loans/search'));
  const field = page.getByRole('combobox', { name: 'Street address or ZIP code' });
  await expect(field).toBeEnabled();
  await field.focus();
  await field.pressSequentially('hous');
  const list = page.getByRole('listbox', { name: 'Address suggestions' });
  await expect(list.getByRole('option')).toHaveCount(8);
  // The next answer is slow (as over a mobile network): the old suggestions stay while it loads.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const asked = page.waitForRequest((r) => r.url().includes('/mapbox.places/houston%2C%20tx.json'));
  await page.route('**/mapbox.places/houston%2C%20tx.json*', async (route) => {
    await released;
    await route.continue();
  });
  await field.pressSequentially('ton, tx');
  await asked;
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await expect(field).toHaveAttribute('aria-activedescendant', /option-3$/);
  release();
  await expect(list.getByRole('option')).toHaveCount(1);
  // A screen reader is not pointed at an option that is gone, and Enter chooses nothing rather than throwing.
  await expect(field).not.toHaveAttribute('aria-activedescendant', /option-3$/);
  await page.keyboard.press('Enter');
  await expect(field).toHaveValue('houston, tx');
  await page.keyboard.press('ArrowDown');
  await expect(field).toHaveAttribute('aria-activedescendant', /option-0$/);
  await page.keyboard.press('Enter');
  await expect(field).toHaveValue(/Houston, TX/);
  expect(errors).toEqual([]);
});

test('the search form without JavaScript still works', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(brandUrl('usbadcreditloans', '/payday-loans/location/search'));
  await page.getByRole('combobox', { name: 'State' }).selectOption('texas');
  await page.getByRole('button', { name: 'Show my state' }).click();
  await expect(page).toHaveURL(brandUrl('usbadcreditloans', '/payday-loans/location/texas'));
  await context.close();
});

test('an unmodified Mapbox client (@mapbox/mapbox-sdk) works against the embedded geocoder', async () => {
  // Node does not resolve *.localhost as browsers do: point brand hosts at this machine.
  const dns = require('node:dns') as { lookup: (...args: unknown[]) => void };
  const lookup = dns.lookup;
  dns.lookup = (host: unknown, ...rest: unknown[]) => {
    const callback = rest[rest.length - 1] as (err: null, address: string | { address: string; family: number }[], family?: number) => void;
    const options = rest.length > 1 ? rest[0] : undefined;
    if (typeof host !== 'string' || !host.endsWith('.localhost')) return lookup(host, ...rest);
    if (typeof options === 'object' && options && (options as { all?: boolean }).all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  };
  test.info().annotations.push({ type: 'note', description: 'dns.lookup patched for *.localhost' });
  try {
    const mbxGeocoding = require('@mapbox/mapbox-sdk/services/geocoding') as (opts: { accessToken: string; origin: string }) => {
      forwardGeocode(q: Record<string, unknown>): {
        send(): Promise<{ statusCode: number; body: { features: { place_name: string; properties: { short_code?: string } }[] } }>;
      };
      reverseGeocode(q: Record<string, unknown>): {
        send(): Promise<{ statusCode: number; body: { features: { place_name: string; properties: { short_code?: string } }[] } }>;
      };
    };
    // Mapbox clients check that the token looks like one (three dot-separated parts).
    const client = mbxGeocoding({ accessToken: 'pk.eyJ1IjoibG9hbnNpdGVzIn0.c2lnbmF0dXJl', origin: brandUrl('ustitleloans', '/api') });
    const fwd = await client
      .forwardGeocode({
        query: 'Austin',
        countries: ['us'],
        limit: 8,
        types: ['place', 'postcode'],
        proximity: [-97.7, 30.3],
        language: ['en'],
        autocomplete: true,
      })
      .send();
    expect(fwd.statusCode).toBe(200);
    expect(fwd.body.features[0]!.place_name).toBe('Austin, Texas, United States');
    const rev = await client.reverseGeocode({ query: [-97.74, 30.27], types: ['region'], countries: ['us'] }).send();
    expect(rev.body.features[0]!.properties.short_code).toBe('US-TX');
    const bad = await client
      .forwardGeocode({ query: ' ' })
      .send()
      .catch((e: { statusCode: number }) => e);
    expect((bad as { statusCode: number }).statusCode).toBe(400);
  } finally {
    dns.lookup = lookup;
  }
});
