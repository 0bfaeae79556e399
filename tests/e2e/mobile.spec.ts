/**
 * Issue 16: what a borrower on a phone meets — tap targets, no layout shift, the amount widgets
 * in the HTML without JavaScript, the sticky apply button, the phone menu, state pages the brand
 * cannot serve, and the lower-case redirect. At 390 × 844 and 320 × 640 on every page template of
 * three brands (payday, title, installment).
 */
import { type Page } from '@playwright/test';
import { expect, networkQuiet, test } from './network';
import { request as httpRequest } from 'node:http';
import { brandUrl, expectNoAxeViolations, gotoHydrated, PORT } from './helpers';
import { test as sharedTab } from './sharedPage.fixtures';
import { smallTapTargets } from './tapTargets';

const TEMPLATES: Record<string, string[]> = {
  ipaydayloans: [
    '/',
    '/payday-loans',
    '/cash-advance',
    '/location/tx',
    '/location/tx/houston',
    '/location/ny',
    '/search',
    '/payday-loans-by-state',
    '/borrow-money/500-dollar-loan',
    '/directory/a',
    '/faqs',
    '/blog',
    '/apply',
    '/no-such-page',
  ],
  ustitleloans: [
    '/',
    '/title-loans',
    '/title-loans/texas',
    '/title-loans/houston',
    '/title-loans/texas-cities',
    '/title-loans/cities-that-start-with-a',
    '/title-loans/search',
    '/title-loans/new-york',
    '/apply-title-loans',
    '/blog',
  ],
  usinstallmentloans: ['/', '/installment-loans', '/state/texas', '/city/houston-tx', '/city/a', '/installment-loans/search', '/store', '/apply', '/faqs'],
};
const PAGES = Object.entries(TEMPLATES).flatMap(([brand, paths]) => paths.map((path) => ({ brand, path })));

for (const viewport of [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
]) {
  // only looked at: one kept tab per worker (sharedPage.fixtures.ts), not a new browser per page
  sharedTab.describe(`tap targets at ${viewport.width} px`, () => {
    sharedTab.use({ viewport });
    for (const { brand, path } of PAGES) {
      sharedTab(`${brand} ${path}: nothing a thumb uses is under 44 × 44 px (or so spaced)`, async ({ page }) => {
        await page.goto(brandUrl(brand, path));
        await expect(page.locator('h1').first()).toBeVisible();
        expect(await smallTapTargets(page)).toEqual([]);
        // The header still fits: nothing sticks out sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      });
    }
  });
}

test.describe('tap targets in the open menu and listbox (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the phone menu and the amount listbox', async ({ page }) => {
    // Escape closes the menu from the hydrated page's handler: pressed before hydration it is lost
    await gotoHydrated(page, brandUrl('ipaydayloans', '/'));
    await page.locator('header summary').click();
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    expect(await smallTapTargets(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
    await page.getByRole('combobox', { name: 'Loan amount' }).click();
    await expect(page.getByRole('listbox')).toBeVisible();
    expect(await smallTapTargets(page)).toEqual([]);
  });
});

/** Sums layout-shift entries (without recent input) from the first paint on. */
async function layoutShiftDuringLoad(page: Page, url: string): Promise<number> {
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!e.hadRecentInput) (window as unknown as { __cls: number }).__cls += e.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  await page.goto(url);
  await networkQuiet(page);
  return page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}

test.describe('no layout shift while a page loads (6× CPU slowdown, 390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  for (const { brand, path } of PAGES) {
    test(`${brand} ${path}: cumulative layout shift 0`, async ({ page }) => {
      test.setTimeout(90_000);
      // Was 0.15 on the payday home. A single 0.0007 was once seen under CI load on one search page and
      // never reproduced since; below 0.01 nothing a visitor can see moves (0.1 is "good" for Chrome).
      expect(await layoutShiftDuringLoad(page, brandUrl(brand, path))).toBeLessThan(0.01);
    });
  }
});

/**
 * The footer, the static blocks below the first two and an article's body below its fifth part are
 * laid out only when they come near the screen (content-visibility: auto, styles/globals.css), at an estimated size until then. Scrolling
 * a page through to its end must move nothing the visitor is reading, and the footer must then be
 * on screen (a wrong estimate would shift the page or leave a gap).
 */
test.describe('scrolling to the end of a page shifts nothing (off-screen parts rendered late)', () => {
  const SCROLLED: { brand: string; path: string }[] = [
    { brand: 'ipaydayloans', path: '/' },
    { brand: 'ipaydayloans', path: '/location/tx/houston' },
    // a state whose city list starts on the first screen: its tiles below it are rendered late
    { brand: 'ipaydayloans', path: '/location/ca' },
    { brand: 'ustitleloans', path: '/title-loans/texas' },
    { brand: 'usinstallmentloans', path: '/faqs' },
    // an article's body: its parts below the first screen are rendered late too
    { brand: 'ipaydayloans', path: '/blog/money-basics/debt-collector-rights-fdcpa' },
  ];
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1350, height: 940 },
  ])
    for (const { brand, path } of SCROLLED)
      test(`${brand} ${path} at ${viewport.width} px`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.addInitScript(() => {
          const w = window as unknown as { __shifts: number };
          w.__shifts = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
              if (!e.hadRecentInput) w.__shifts += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(brandUrl(brand, path));
        await networkQuiet(page);
        // A screen at a time, as a thumb would, until the end of the page and the footer are on screen.
        // A part is given its real size only at the next rendering update after it comes near the
        // screen, so each step waits two frames before it looks: otherwise the end can be "reached"
        // on the estimated size and the footer then pushed below the screen by the part's real one.
        await expect
          .poll(
            () =>
              page.evaluate(async () => {
                window.scrollBy(0, window.innerHeight * 0.8);
                await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
                const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
                const footer = document.querySelector('footer.site-footer')?.getBoundingClientRect();
                return atEnd && !!footer && footer.top < window.innerHeight && footer.bottom > 0;
              }),
            { intervals: [50], timeout: 30_000 },
          )
          .toBe(true);
        await expect(page.locator('footer.site-footer')).toBeInViewport();
        expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBeLessThan(0.01);
      });
});

test.describe("a state's city list on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('every city link is in the HTML; the tiles below the first screen are rendered only when scrolled near', async ({ page }) => {
    const response = await page.goto(brandUrl('ipaydayloans', '/location/ca'));
    await networkQuiet(page);
    const html = await response!.text();
    const tiles = page.locator('[data-kept$="-cityList"] ul a');
    const hrefs = await tiles.evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    expect(hrefs.length).toBeGreaterThan(40);
    for (const href of hrefs) expect(html).toContain(`href="${href}"`);
    // checkVisibility with contentVisibilityAuto is false for what content-visibility: auto has not rendered yet
    const rendered = (n: number) => tiles.nth(n).evaluate((a) => a.checkVisibility({ contentVisibilityAuto: true }));
    // the list's start on screen: its first tiles are drawn, the tiles a few screens down are not yet
    await tiles.first().scrollIntoViewIfNeeded();
    await expect.poll(() => rendered(0)).toBe(true);
    expect(await rendered(hrefs.length - 1)).toBe(false);
    await tiles.last().scrollIntoViewIfNeeded();
    await expect.poll(() => rendered(hrefs.length - 1)).toBe(true);
  });
});

test.describe('without JavaScript the amount widgets are in the page', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const cases: { brand: string; path: string; shows: (page: Page) => ReturnType<Page['getByRole']> }[] = [
    { brand: 'ipaydayloans', path: '/', shows: (p) => p.getByRole('heading', { name: 'How Much Instant Cash Do You Need?' }) },
    { brand: 'ustitleloans', path: '/', shows: (p) => p.getByRole('button', { name: /Get Started|Get My|Check/ }).first() },
    { brand: 'usinstallmentloans', path: '/', shows: (p) => p.getByRole('button', { name: /Get Started|Get My|Check/ }).first() },
    { brand: 'ipaydayloans', path: '/payday-loans', shows: (p) => p.getByRole('slider') },
    { brand: 'ipaydayloans', path: '/cash-advance', shows: (p) => p.getByRole('button', { name: 'Get My Quotes Now!' }) },
    { brand: 'ipaydayloans', path: '/search', shows: (p) => p.getByRole('button', { name: /Enter a street, city, state, or ZIP code/ }) },
    { brand: 'usinstallmentloans', path: '/installment-loans/search', shows: (p) => p.getByLabel(/Street address or ZIP code/).first() },
  ];
  for (const c of cases) {
    test(`${c.brand} ${c.path}`, async ({ page }) => {
      await page.goto(brandUrl(c.brand, c.path));
      await expect(c.shows(page)).toBeVisible();
      // and in the server's HTML in place: no hidden streamed segment (<div hidden id="S:…">)
      expect(await page.locator('div[hidden][id^="S:"]').count()).toBe(0);
    });
  }
});

test.describe('the sticky apply button on phones', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  const sticky = (page: Page) => page.locator('[data-sticky-apply]');

  test('appears once the hero button has scrolled away, hides back at the top, never covers the end of the page', async ({ page }) => {
    await page.goto(brandUrl('ipaydayloans', '/'));
    // the page's opening call to action: here the amount widget right under the hero (engine/site/leadIn.ts)
    const heroCta = page.locator('[data-hero-cta]');
    await expect(heroCta).toBeInViewport();
    await expect(sticky(page)).toBeHidden();
    await page.locator('footer').scrollIntoViewIfNeeded();
    await expect(sticky(page)).toBeVisible();
    await expect(sticky(page).getByRole('link', { name: 'APPLY NOW' })).toHaveAttribute('href', /^\/apply\?/);
    expect(await smallTapTargets(page)).toEqual([]);
    // at the very end of the page the last line of the footer is above the button
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(async () => {
        const bar = await sticky(page).boundingBox();
        const last = await page.locator('footer p').last().boundingBox();
        return bar && last ? last.y + last.height <= bar.y : false;
      })
      .toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(sticky(page)).toBeHidden();
  });

  test('stands aside for a bottom privacy/cookie banner', async ({ page }) => {
    await page.goto(brandUrl('ipaydayloans', '/'));
    await page.locator('footer').scrollIntoViewIfNeeded();
    await expect(sticky(page)).toBeVisible();
    await page.evaluate(() => {
      const banner = document.createElement('div');
      banner.setAttribute('data-privacy-banner', '');
      banner.style.cssText = 'position:fixed;left:0;right:0;bottom:0;height:120px;background:#fff;z-index:50';
      banner.textContent = 'Your privacy choices';
      document.body.append(banner);
    });
    await expect(sticky(page)).toBeHidden();
    await page.evaluate(() => document.querySelector('[data-privacy-banner]')?.remove());
    await expect(sticky(page)).toBeVisible();
  });

  test('not on apply pages, not on a state the brand cannot serve, not on a desktop', async ({ page }) => {
    for (const [brand, path] of [
      ['ipaydayloans', '/apply'],
      ['ustitleloans', '/apply-title-loans'],
      ['ipaydayloans', '/location/ny'],
    ] as const) {
      await page.goto(brandUrl(brand, path));
      await page.locator('footer').scrollIntoViewIfNeeded();
      await expect(page.locator('footer')).toBeInViewport();
      await expect(sticky(page)).toHaveCount(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(brandUrl('ipaydayloans', '/'));
    await page.locator('footer').scrollIntoViewIfNeeded();
    await expect(page.locator('footer')).toBeInViewport();
    await expect(sticky(page)).toBeHidden();
  });
});

test.describe('the phone menu', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Mobile' });

  test('APPLY NOW first; group labels are never links; closes on a tap outside and on Escape', async ({ page }) => {
    await page.goto(brandUrl('ipaydayloans', '/'));
    await page.locator('header summary').click();
    await expect(nav(page)).toBeVisible();
    await expect(nav(page).getByRole('link').first()).toHaveText('APPLY NOW');
    await expect(nav(page).getByRole('link').first()).toBeInViewport();
    for (const label of ['Loan Types', 'Loans by Need', 'Near Me', 'By State', 'Learn', 'About']) {
      await expect(nav(page).getByText(label, { exact: true })).toBeVisible();
      await expect(nav(page).getByRole('link', { name: label, exact: true })).toHaveCount(0);
    }
    await expectNoAxeViolations(page);
    // a tap on the dimmed page below the panel (the panel always leaves a strip of it)
    const panel = (await nav(page).boundingBox())!;
    expect(panel.y + panel.height).toBeLessThanOrEqual(844 - 44);
    await page.mouse.click(195, 844 - 20);
    await expect(nav(page)).toBeHidden();
    await expect(page).toHaveURL(brandUrl('ipaydayloans', '/'));
    await page.locator('header summary').click();
    await expect(nav(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav(page)).toBeHidden();
    await expect(page.locator('header summary')).toBeFocused();
  });

  test('a tap on the header outside the panel closes it too, and the header fits at 320 px', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(brandUrl('ipaydayloans', '/'));
    await page.locator('header summary').click();
    await expect(nav(page)).toBeVisible();
    await page.locator('header a[aria-label$="home"]').click();
    await expect(nav(page)).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });
});

test.describe('cost and trust next to the first button', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  for (const brand of Object.keys(TEMPLATES)) {
    test(`${brand}: not a lender / how we are paid, the representative example, phone and address`, async ({ page }) => {
      await page.goto(brandUrl(brand, '/'));
      const note = page.locator('[data-cost-note]').first();
      await expect(note).toContainText('not a lender');
      await expect(note).toContainText(/Representative example: a \$[\d,]+ (title )?loan repaid in 12 monthly installments/);
      await expect(note.getByRole('link', { name: /\+1/ })).toHaveAttribute('href', /^tel:\+1/);
      await expect(page.locator('footer address')).toBeVisible();
    });
  }
});

test.describe('a state where the brand has no service', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  for (const [brand, path, state] of [
    ['ipaydayloans', '/location/ny', 'New York'],
    ['ustitleloans', '/title-loans/new-york', 'New York'],
  ] as const) {
    test(`${brand} ${path}: says so first, no apply button, points to alternatives`, async ({ page }) => {
      await page.goto(brandUrl(brand, path));
      const notice = page.locator('[data-state-unavailable]');
      await expect(notice).toContainText(state);
      await expect(notice).toContainText(/cannot connect|not available/);
      await expect(page.locator('main a[href*="/apply"]')).toHaveCount(0);
      await expect(page.locator('main').getByText(/lenders in our network that serve NY/)).toHaveCount(0);
      await notice.getByRole('link', { name: 'See other options' }).click();
      await expect(page.locator('#alternatives')).toBeInViewport();
      await expect(page.locator('#alternatives').getByRole('link').first()).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});

test('an upper-case path is redirected (308) to the lower-case one', async () => {
  const get = (path: string) =>
    new Promise<{ status: number; location?: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: PORT, path, headers: { host: `ipaydayloans.localhost:${PORT}` } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, ...(res.headers.location ? { location: res.headers.location } : {}) });
      });
      req.on('error', reject);
      req.end();
    });
  expect(await get('/location/TX?source1=x')).toEqual({ status: 308, location: '/location/tx?source1=x' });
  expect(await get('/location/TX/Houston')).toEqual({ status: 308, location: '/location/tx/houston' });
  expect((await get('/location/ZZ')).status).toBe(404);
});

test('home pages at 390 px: the state list is compact (no longer than ~1 screen)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(brandUrl('ipaydayloans', '/'));
  const list = page.getByRole('heading', { name: 'Find payday loan information by state' }).locator('xpath=..').locator('ul');
  await expect(list.getByRole('link')).toHaveCount(51);
  expect((await list.boundingBox())!.height).toBeLessThan(900);
});
