/**
 * The static parts of a first load (site chrome, static blocks: blocks/chrome/Kept.tsx) keep the
 * server's HTML and get no data in the page. When React cannot hydrate the page and renders it
 * afresh instead (here: the server's HTML of a live element differs from what the browser renders),
 * those parts must come back as the server rendered them — not disappear.
 */
import { expect, test, type Page } from '@playwright/test';
import { brandUrl, gotoHydrated, PORT, rawGet } from './helpers';

const keptTexts = (page: Page) =>
  page.locator('[data-kept]').evaluateAll((els) => els.map((el) => [(el as HTMLElement).dataset.kept, el.textContent?.replace(/\s+/g, ' ').trim()]));

const PAGES: [brand: string, path: string][] = [
  // a page under no experiment: the browser and the raw fetch must get the same page
  ['cocoloan', '/payday-loans'],
  ['usbadcreditloans', '/apply'],
];

for (const [brand, path] of PAGES) {
  test(`${brand} ${path}: rendered afresh after a hydration mismatch, the kept header, blocks and footer are still there`, async ({ page }) => {
    await gotoHydrated(page, brandUrl(brand, path));
    const hydrated = await keptTexts(page);
    expect(hydrated.length).toBeGreaterThan(3);
    for (const [, text] of hydrated) expect(text).not.toBe('');

    // The same page whose skip link's text differs in the server's HTML: React throws the hydration away and renders the page.
    await page.route(brandUrl(brand, path), async (route) => {
      // Fetched here with the brand's Host (Node does not resolve *.localhost), served without its headers.
      const { status, body } = await rawGet(path, `${brand}.localhost:${PORT}`);
      const changed = body.replace('>Skip to content<', '>Skip to the content<');
      expect(changed).toContain('>Skip to the content<');
      await route.fulfill({ status, contentType: 'text/html; charset=utf-8', body: changed });
    });
    await gotoHydrated(page, brandUrl(brand, path));
    await expect(page.locator('a.skip-link')).toHaveText('Skip to content');
    expect(await keptTexts(page)).toEqual(hydrated);
    await expect(page.locator('header[data-kept] img').first()).toBeVisible();
  });
}
