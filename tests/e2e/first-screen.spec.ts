/**
 * The first screen of a phone (390 × 844 and 320 × 640) holds an input on every brand's apply page
 * and on every page that opens on an amount widget (a hero followed straight away by one,
 * engine/site/leadIn.ts) — found from the brand files, so a new brand or layout is covered as it comes.
 * One load per brand × page × width in one shared browser context; nothing shifts while the page
 * loads and hydrates. The widget's cost note keeps the representative example behind a real
 * disclosure, opened by keyboard, axe-clean.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { leadInFacts, leadInRoles } from '../../engine/site/leadIn';
import { brandUrl, expectNoAxeViolations, layoutShifts, watchLayoutShifts } from './helpers';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

/** Every brand's pages that open on an input, a sample path for each route ({amount} → 500). */
function openingPages(): { brand: string; path: string }[] {
  const { brands, layouts } = readSources({ extraDir: '' });
  const out: { brand: string; path: string }[] = [];
  for (const [id, loaded] of buildCatalog(brands, layouts, BLOCK_SPECS).brands) {
    for (const route of loaded.brand.routes) {
      const blocks = loaded.layout(route.layout)?.blocks ?? [];
      const roles = leadInRoles(blocks.map((b) => leadInFacts(b.type, BLOCK_SPECS)));
      const path = route.path.replace('{amount}', '500');
      if (roles[0] === 'hero' && !path.includes('{')) out.push({ brand: id, path });
    }
  }
  return out;
}
const PAGES = openingPages();
const FIRST_INPUT = 'main input:not([type="hidden"]):not([tabindex="-1"]), main select, main [role="combobox"]';

test('every brand has an apply page that opens on its form, and the landing pages are found', () => {
  expect(new Set(PAGES.map((p) => p.brand)).size).toBe(12);
  for (const path of ['/payday-loans', '/cash-advance', '/borrow-money/500-dollar-loan', '/apply', '/apply-title-loans', '/loan-application'])
    expect(
      PAGES.some((p) => p.path === path),
      path,
    ).toBe(true);
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
]) {
  test.describe(`at ${viewport.width} × ${viewport.height}`, () => {
    test.describe.configure({ mode: 'serial' });
    let context: BrowserContext;
    let page: Page;
    test.beforeAll(async ({ browser }) => {
      context = await browser.newContext({ viewport, hasTouch: true });
      await watchLayoutShifts(context);
      page = await context.newPage();
    });
    test.afterAll(() => context?.close());

    for (const { brand, path } of PAGES)
      test(`${brand}${path}: the first input is on the first screen, below the header, and nothing shifts`, async () => {
        await page.goto(brandUrl(brand, path));
        await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
        const first = page.locator(FIRST_INPUT).first();
        const box = (await first.boundingBox())!;
        const headerBottom = await page
          .locator('header')
          .first()
          .evaluate((h) => h.getBoundingClientRect().bottom);
        expect(box.y).toBeGreaterThanOrEqual(headerBottom);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        expect(await layoutShifts(page)).toBeLessThan(0.01);
        // the cost note stays beside the amount on a page the widget opens
        if (!/apply|application/.test(path)) await expect(page.locator('[data-hero-cta] [data-cost-note]')).toContainText('not a lender');
      });
  });
}

test.describe('the cost note beside an opening widget', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });
  for (const path of ['/payday-loans', '/cash-advance', '/', '/borrow-money/500-dollar-loan'])
    test(`ipaydayloans${path}: the representative example opens by keyboard and is announced as a disclosure; axe clean`, async ({ page }) => {
      await page.goto(brandUrl('ipaydayloans', path));
      await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
      const note = page.locator('[data-hero-cta] [data-cost-note]');
      const disclosure = note.locator('summary');
      const example = note.getByText(/^Representative example: a \$1,000 loan/);
      await expect(example).toBeHidden();
      await expectNoAxeViolations(page);
      // after the widget's own button, the next stop is the disclosure
      const cta = page
        .locator('[data-hero-cta]')
        .getByRole(path === '/payday-loans' ? 'link' : 'button', { name: /^(Check Your Rate|Get Started|Get My Quotes Now!)$/ });
      await cta.focus();
      await page.keyboard.press('Tab');
      await expect(disclosure).toBeFocused();
      expect(await page.evaluate(() => document.activeElement?.closest('details')?.open)).toBe(false);
      await page.keyboard.press('Enter');
      await expect(example).toBeVisible();
      expect(await page.evaluate(() => document.activeElement?.closest('details')?.open)).toBe(true);
      await expectNoAxeViolations(page);
      await page.keyboard.press('Space');
      await expect(example).toBeHidden();
    });
});
