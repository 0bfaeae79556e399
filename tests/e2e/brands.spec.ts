/**
 * Every brand, through the real server and proxy, in Chromium: one page for each distinct
 * layout the brand uses (parameters filled with real values), each checked for title,
 * canonical, one <h1>, and zero axe violations. (crawl.spec.ts covers every linked page
 * over plain HTTP.)
 */
import { expect, test } from './sharedPage.fixtures';
import { buildCatalog, readSources, type LoadedBrand } from '../../engine/site/catalog';
import { resolvePage } from '../../engine/site/resolve';
import { canonicalPath, matchPath } from '../../engine/site/pageMatch';
import { brandUrl, expectNoAxeViolations } from './helpers';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const catalog = buildCatalog(readSources().brands, readSources().layouts, BLOCK_SPECS);
const SAMPLE: Record<string, string> = {
  stateCode: 'tx',
  state: 'texas',
  city: 'houston',
  cityState: 'houston-tx',
  letter: 'b',
  page: '2',
  list: 'guides',
  letterGroup: 'a',
  amount: '500',
  store: 'advance-america',
};
const SMALL_STATE = 'delaware';

/**
 * One sample path per distinct page structure: layouts made of the same block types render
 * the same markup (only their text and order differ), so axe judges them alike.
 * Routes with {list} or {slug} need content and are covered by crawl.spec and content.spec.
 */
function samplePaths(loaded: LoadedBrand): string[] {
  const byShape = new Map<string, string>();
  for (const r of loaded.brand.routes) {
    if (r.path.includes('{list}') || r.path.includes('{slug}')) continue;
    const layout = loaded.layout(r.layout);
    const shape = layout ? [...new Set(layout.blocks.map((b) => b.type))].sort().join(',') : r.layout;
    if (byShape.has(shape)) continue;
    const path = r.path
      .replace(/\/\{page\?\}$/, '')
      .replace(/\{loanType\}/g, r.loanType ?? loaded.brand.loanTypes[0]!)
      // A state's city list is the same markup whatever its length: Delaware's ~60 links, not
      // Texas's ~1,600, which take axe 10–30 s a page on a loaded 2-core machine.
      .replace('{state}-cities', `${SMALL_STATE}-cities`)
      .replace(/\{(\w+)\}/g, (_, k: string) => SAMPLE[k] ?? k);
    // A page two routes show is sampled at the path it is known by (its canonical URL).
    const match = matchPath(loaded, path);
    if (match && canonicalPath(loaded, path, match) !== path) continue;
    byShape.set(shape, path);
  }
  return [...byShape.values()];
}

for (const [id, loaded] of catalog.brands) {
  const { brand } = loaded;
  const paths = samplePaths(loaded);
  const disclaimer = resolvePage(catalog, id, '/')!.brand.footer.disclaimers[0]!;

  test.describe(`brand ${id}`, () => {
    test('has at least 5 distinct pages to visit', () => {
      expect(paths.length).toBeGreaterThanOrEqual(5);
    });

    for (const path of paths) {
      test(`page ${path}`, async ({ page }) => {
        const response = await page.goto(brandUrl(id, path));
        expect(response?.status()).toBe(200);
        await expect(page).toHaveTitle(new RegExp(`.+ \\| ${brand.config.pageTitle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
        const host = brand.blogHost && (path === '/blog' || path.startsWith('/blog/')) ? brand.blogHost : brand.hosts[0];
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `https://${host}${path}`);
        await expect(page.locator('html')).toHaveAttribute('lang', brand.locale);
        await expect(page.locator('h1')).toHaveCount(1);
        await expect(page.locator('h1')).not.toBeEmpty();
        await expect(page.locator('footer')).toContainText(`© ${new Date().getFullYear()}`);
        await expectNoAxeViolations(page);
      });
    }

    test('APPLY NOW goes to the apply page with v1=landing-page and rel=nofollow', async ({ page }) => {
      await page.goto(brandUrl(id, '/'));
      const apply = page.getByRole('link', { name: brand.apply.label ?? 'APPLY NOW', exact: true }).first();
      await expect(apply).toHaveAttribute('href', `${brand.apply.path}?v1=landing-page`);
      await expect(apply).toHaveAttribute('rel', /nofollow/);
    });

    test('an unknown path shows the brand 404 page with its header and footer, status 404', async ({ page }) => {
      const response = await page.goto(brandUrl(id, '/no-such-page-here'));
      expect(response?.status()).toBe(404);
      await expect(page.locator('h1')).toHaveText('We could not find that page');
      await expect(page.locator('html')).toHaveAttribute('lang', brand.locale);
      await expect(page.locator('header img')).toHaveAttribute('alt', brand.name);
      await expect(page.locator('footer')).toContainText(disclaimer.slice(0, 40));
      await expectNoAxeViolations(page);
    });

    test('the internal prefix asked for directly is a 404', async ({ page }) => {
      const response = await page.goto(brandUrl(id, `/_brand/${id}/`));
      expect(response?.status()).toBe(404);
    });
  });
}
