/**
 * Layout behaviour in Chromium on the production build: the header turning solid past 64 px,
 * the mobile menu (keyboard, scroll lock, Escape, resize to desktop), the progress bar in the
 * brand's colour on route changes, and the per-block error boundary with its reset.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page, type Response, type Route } from '@playwright/test';
import { expect, networkQuiet, test } from './network';
import { brandUrl, expectNoAxeViolations } from './helpers';

async function open(page: Page, brand: string, path: string) {
  await page.goto(brandUrl(brand, path));
  await networkQuiet(page);
}

const OOPS = 'Oh snap! There was a problem loading this content';

/** route.fetch runs in Node, which does not resolve *.localhost: fetch from loopback with the brand's Host header. */
const fetchViaLoopback = (route: Route) => {
  const url = new URL(route.request().url());
  const host = url.host;
  url.hostname = '127.0.0.1';
  return route.fetch({ url: url.toString(), headers: { ...route.request().headers(), host } });
};

test('the header turns solid (white, shadow) once the page has scrolled past 64 px', async ({ page }) => {
  await open(page, 'ipaydayloans', '/payday-loans');
  const header = page.locator('header[data-site-header]');
  const look = () =>
    header.evaluate((el) => ({ solid: el.hasAttribute('data-solid'), bg: getComputedStyle(el).backgroundColor, shadow: getComputedStyle(el).boxShadow }));
  expect(await look()).toMatchObject({ solid: false, shadow: 'none' });
  expect((await look()).bg).not.toBe('rgb(255, 255, 255)');
  await page.evaluate(() => window.scrollTo(0, 64));
  await page.waitForTimeout(100);
  expect((await look()).solid).toBe(false);
  await page.evaluate(() => window.scrollTo(0, 65));
  await expect(header).toHaveAttribute('data-solid', '');
  await expect.poll(async () => (await look()).shadow).not.toBe('none');
  expect((await look()).bg).toBe('rgb(255, 255, 255)');
  await expect(header).toBeInViewport();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).not.toHaveAttribute('data-solid', '');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('the menu by keyboard: opens, locks page scroll, Escape closes with focus back on its button', async ({ page }) => {
    await open(page, 'ipaydayloans', '/');
    await page.evaluate(() => window.scrollTo(0, 400));
    const menuButton = page.locator('header summary');
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await expect(mobileNav).toBeHidden();
    await page.locator('header a[aria-label$="home"]').focus();
    // the header's APPLY NOW and desktop nav are not shown on a phone: logo → search → menu
    await page.keyboard.press('Tab');
    await expect(page.locator('header a[href$="#location-search"]')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(menuButton).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(mobileNav).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Tab');
    await expect(mobileNav.getByRole('link').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(mobileNav).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect.poll(() => page.evaluate(() => document.documentElement.style.overflow)).toBe('');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);
  });

  test('the menu closes when focus leaves it, and when a resize reaches the desktop layout (after 240 ms of quiet)', async ({ page }) => {
    await open(page, 'ipaydayloans', '/');
    const menu = page.locator('header details');
    await page.locator('header summary').click();
    await expect(menu).toHaveAttribute('open', '');
    await expect.poll(() => page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden');
    await page.locator('main a').first().focus();
    await expect(menu).not.toHaveAttribute('open', '');
    await expect.poll(() => page.evaluate(() => document.documentElement.style.overflow)).toBe('');

    await page.locator('header summary').click();
    await expect(menu).toHaveAttribute('open', '');
    await page.setViewportSize({ width: 700, height: 800 });
    await page.waitForTimeout(400);
    await expect(menu).toHaveAttribute('open', '');
    // Timed inside the page, from the browser's resize event to the menu closing: the test
    // process's clock would also count its own round trips, which vary under load.
    await page.evaluate(() => {
      const w = window as unknown as { resizedAt?: number; closedAt?: number };
      window.addEventListener('resize', () => (w.resizedAt ??= performance.now()));
      const details = document.querySelector('header details')!;
      new MutationObserver(() => {
        if (!details.hasAttribute('open')) w.closedAt ??= performance.now();
      }).observe(details, { attributes: true, attributeFilter: ['open'] });
    });
    await page.setViewportSize({ width: 1024, height: 800 });
    await expect(menu).not.toHaveAttribute('open', '');
    // Not at once: the resize is handled after 240 ms of quiet (exact timing: tests/unit/widgets.test.ts).
    const { resizedAt, closedAt } = await page.evaluate(() => {
      const w = window as unknown as { resizedAt: number; closedAt: number };
      return { resizedAt: w.resizedAt, closedAt: w.closedAt };
    });
    expect(closedAt - resizedAt).toBeGreaterThanOrEqual(200);
    await expect.poll(() => page.evaluate(() => document.documentElement.style.overflow)).toBe('');
  });

  test('Escape, or a tap on the page, right after the menu opens closes it, before the browser has told the page it opened', async ({ page }) => {
    await open(page, 'ipaydayloans', '/');
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
    // The tap and the Escape in one task: the browser's toggle event for the opening comes in a
    // later task, as it does when a busy phone runs a quick visitor's input before it.
    const afterKey = await page.evaluate(() => {
      const menu = document.querySelector<HTMLDetailsElement>('header details')!;
      menu.querySelector('summary')!.click();
      const opened = menu.open;
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      return { opened, open: menu.open };
    });
    expect(afterKey).toEqual({ opened: true, open: false });
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
    await expect(page.locator('header summary')).toBeFocused();

    const afterTap = await page.evaluate(() => {
      const menu = document.querySelector<HTMLDetailsElement>('header details')!;
      menu.querySelector('summary')!.click();
      const opened = menu.open;
      document.querySelector<HTMLElement>('main h1')!.click();
      return { opened, open: menu.open };
    });
    expect(afterTap).toEqual({ opened: true, open: false });
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  });

  test('a menu link navigates on the client and the menu closes', async ({ page }) => {
    await open(page, 'ipaydayloans', '/');
    await page.locator('header summary').click();
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'FAQs' }).click();
    await expect(page).toHaveURL(brandUrl('ipaydayloans', '/faqs'));
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
    await expect.poll(() => page.evaluate(() => document.documentElement.style.overflow)).toBe('');
  });
});

test('the progress bar shows in the brand progressColor while a route loads, and finishes', async ({ page }) => {
  await open(page, 'ipaydayloans', '/');
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/_next/data/**/about.json*', async (route: Route) => {
    await held;
    await route.continue();
  });
  const bar = page.locator('#route-progress');
  await expect(bar).toHaveCSS('opacity', '0');
  await page.locator('header nav[aria-label="Main"] a[href="/about"]').first().click();
  await expect(bar).toHaveAttribute('data-state', 'loading');
  await expect(bar).toHaveCSS('background-color', 'rgb(245, 158, 11)'); // #f59e0b
  await expect(bar).toHaveCSS('opacity', '1');
  release();
  await expect(page).toHaveURL(brandUrl('ipaydayloans', '/about'));
  await expect(bar).toHaveAttribute('data-state', 'done');
  await expect(bar).toHaveCSS('opacity', '0');
});

/** Page data whose city list is broken (links: null), as a bad response from the server would be. */
function breakCityList(model: { blocks: { type: string; data: { links?: unknown } }[] }) {
  const block = model.blocks.find((b) => b.type === 'cityList')!;
  block.data.links = null;
}

test.describe('error boundary', () => {
  test('a block that throws shows the inline message in its place; the rest of the page stays; it resets on the next navigation', async ({ page }) => {
    await open(page, 'ipaydayloans', '/location/tx');
    await page.route('**/_next/data/**/location/ca.json*', async (route) => {
      // The router fetches the data once (on hover or click) and checks the rewrite with HEAD requests.
      if (route.request().method() !== 'GET') return route.continue();
      const response = await fetchViaLoopback(route);
      const json = (await response.json()) as { pageProps: { model: Parameters<typeof breakCityList>[0] } };
      breakCityList(json.pageProps.model);
      await route.fulfill({ response, json });
    });
    await page.locator('footer a[href="/location/ca"]').click();
    await expect(page.locator('h1')).toHaveText('Payday Loans in California');
    await expect(page.getByText(OOPS, { exact: true })).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'Payday loan information for cities in California' })).toHaveCount(0);
    // The blocks around it still render: the one before and the one after.
    await expect(page.getByRole('heading', { name: 'Before you borrow in California' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /Payday loans in California: common questions/ })).toBeVisible();
    const order = await page.evaluate((text) => {
      const main = document.querySelector('main')!;
      return [...main.querySelectorAll('h2, p, [role="alert"]')].filter((el) => el.tagName === 'H2' || el.textContent === text).map((el) => el.textContent);
    }, OOPS);
    // In the city list's place: after the block before it, before the block after it.
    const at = order.indexOf(OOPS);
    expect(order.slice(at - 1, at + 2)).toEqual(['Before you borrow in California', OOPS, 'Payday loans in California: common questions']);
    await expectNoAxeViolations(page);

    // Next page with the same layout: the boundary at that position resets and the city list is back.
    await page.locator('footer a[href="/location/ny"]').click();
    await expect(page.locator('h1')).toHaveText('Payday Loans in New York');
    await expect(page.getByText(OOPS)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Payday loan information for cities in New York' })).toBeVisible();
  });

  test('on a first load: an interactive block that throws in the browser is replaced by the message; the kept static parts stay', async ({ page }) => {
    // Static blocks keep the server's HTML on a first load (blocks/chrome/Kept.tsx): only an interactive one runs there.
    await page.route(brandUrl('ipaydayloans', '/'), async (route) => {
      const response = await fetchViaLoopback(route);
      const html = await response.text();
      const body = html.replace(/(<script id="__NEXT_DATA__" type="application\/json">)(.*?)(<\/script>)/s, (_m, open: string, data: string, close: string) => {
        const next = JSON.parse(data) as { props: { pageProps: { model: { blocks: { type: string; data?: { options?: unknown } }[] } } } };
        next.props.pageProps.model.blocks.find((b) => b.type === 'quickAmount')!.data!.options = null;
        return open + JSON.stringify(next) + close;
      });
      expect(body).not.toBe(html);
      await route.fulfill({ response, body });
    });
    await page.goto(brandUrl('ipaydayloans', '/'));
    await expect(page.getByText(OOPS, { exact: true })).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'How Much Instant Cash Do You Need?' })).toHaveCount(0);
    await expect(page.locator('h1')).toHaveText(/Payday Loans Online/);
    await expect(page.getByRole('heading', { name: 'How it works' })).toBeVisible();
    await expect(page.locator('footer a[href="/location/ca"]')).toBeVisible();
  });
});

test.describe('a first load sends only what the browser hydrates (blocks/hydrationModel.ts)', () => {
  test('no nav, footer, JSON-LD or static block data in the page data; the static parts stay as the server sent them, then render from the data of a client-side navigation', async ({
    page,
  }) => {
    const scripts: string[] = [];
    const dataRequests: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    page.on('request', (r) => r.url().includes('/_next/data/') && dataRequests.push(r.url()));
    await open(page, 'ipaydayloans', '/location/tx');
    const nextData = await page.evaluate(() => document.getElementById('__NEXT_DATA__')!.textContent!);
    const model = (
      JSON.parse(nextData) as {
        props: {
          pageProps: {
            model: { kept: boolean; brand: Record<string, unknown>; jsonLd: unknown[]; blocks: { type: string; kept?: boolean; data?: unknown }[] };
          };
        };
      }
    ).props.pageProps.model;
    expect(model.kept).toBe(true);
    expect(Object.keys(model.brand)).not.toEqual(expect.arrayContaining(['nav']));
    expect(model.brand.footer).toBeUndefined();
    expect(model.jsonLd).toEqual([]);
    expect(model.blocks.filter((b) => !b.kept).map((b) => b.type)).toEqual([]); // a state page: no interactive block
    expect(nextData.length).toBeLessThan(3000);
    // The server's HTML is all there, JSON-LD in the head included, and stays.
    await expect(page.getByRole('heading', { name: 'Payday loan information for cities in Texas' })).toBeVisible();
    await expect(page.locator('footer a[href="/location/ca"]')).toBeVisible();
    expect((await page.locator('script[type="application/ld+json"]').allTextContents()).length).toBeGreaterThan(0);
    const staticChunk = scripts.length;
    // The first load asks for no page data: the browser does not take the page for one the proxy routes.
    expect(dataRequests).toEqual([]);

    // A client-side navigation brings the complete data: the next page's static blocks and footer render from it.
    // The browser names the placeholder brand (clientNavigation.ts); the server answers for the host's brand.
    const data = page.waitForResponse((r) => /\/_next\/data\/[^/]+\/_brand\/_\/location\/ca\.json/.test(r.url()));
    // Then the router's background HEAD by page path, which lets Next revalidate a stale page: answered too.
    const revalidationSignal = page.waitForResponse((r) => r.request().method() === 'HEAD' && /\/_next\/data\/[^/]+\/location\/ca\.json/.test(r.url()));
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.locator('footer a[href="/location/ca"]').hover();
    await page.locator('footer a[href="/location/ca"]').click();
    await expect(page.locator('h1')).toHaveText('Payday Loans in California');
    expect((await data).status()).toBe(200);
    expect((await revalidationSignal).status()).toBe(200);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true); // not a full load
    await expect(page.getByRole('heading', { name: 'Payday loan information for cities in California' })).toBeVisible();
    await expect(page.locator('footer a[href="/location/tx"]')).toBeVisible();
    await expect(page.locator('header a[href="/payday-loans"]').first()).toBeAttached();
    expect(scripts.length).toBeGreaterThan(staticChunk); // the static blocks' code, fetched for the navigation only
    const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
      (t) => JSON.parse(t) as { '@type': string; itemListElement?: { name?: string }[] },
    );
    expect(JSON.stringify(ld)).toContain('California');
    expect(JSON.stringify(ld)).not.toContain('Texas');
    await expectNoAxeViolations(page);
  });
});

test('no script a page loads names another brand: the browser gets no host table', async ({ page }) => {
  const others = readdirSync('brands')
    .filter((f) => f.endsWith('.json') && f !== 'weloans.json')
    .map((f) => JSON.parse(readFileSync(join('brands', f), 'utf8')) as { id: string; hosts: string[] });
  expect(others.length).toBeGreaterThan(5);
  const scripts: Promise<{ url: string; text: string }>[] = [];
  const onResponse = (r: Response) => {
    if (r.request().resourceType() === 'script') scripts.push(r.text().then((text) => ({ url: r.url(), text })));
  };
  page.on('response', onResponse);
  await open(page, 'weloans', '/');
  page.off('response', onResponse);
  const loaded = await Promise.all(scripts);
  const manifest = loaded.find((s) => s.url.includes('_buildManifest.js'));
  expect(manifest).toBeDefined();
  // No rewrites either: with any, Next ships its rewrite resolver to every page (server.mjs routes hosts).
  expect(manifest!.text.replace(/\s/g, '')).toContain('"__rewrites":{"afterFiles":[],"beforeFiles":[],"fallback":[]}');
  const html = await page.content();
  for (const { url, text } of [...loaded, { url: 'the page', text: html }]) {
    const lower = text.toLowerCase();
    for (const brand of others) {
      for (const host of brand.hosts) expect(lower.includes(host) || lower.includes(host.replace(/\./g, '\\.')), `${url} names ${host}`).toBe(false);
      expect(lower.includes(`/_brand/${brand.id}`), `${url} names ${brand.id}`).toBe(false);
    }
  }
});

test('every code chunk a page loads asks V8 to compile it while it downloads (scripts/compile-hints.ts)', async ({ page }) => {
  const chunks: Promise<{ url: string; text: string }>[] = [];
  const onResponse = (r: Response) => {
    if (r.request().resourceType() === 'script' && r.url().includes('/_next/static/chunks/')) chunks.push(r.text().then((text) => ({ url: r.url(), text })));
  };
  page.on('response', onResponse);
  await open(page, 'ipaydayloans', '/payday-loans');
  // Chunks fetched once the page is idle (the funnel events) may still arrive after this: stop
  // listening first, or a body read as the page closes rejects outside the test.
  page.off('response', onResponse);
  const loaded = await Promise.all(chunks);
  expect(loaded.length).toBeGreaterThan(3);
  // Without it, V8 compiles each function on the main thread when the page first calls it.
  for (const { url, text } of loaded) expect(text.startsWith('//# allFunctionsCalledOnLoad\n'), url).toBe(true);
});

// Client-side navigation with the pruned manifest: engine.spec.ts ("a nav link navigates on the client…").
test('the build manifest a page loads lists only the pages its router opens (scripts/prune-build-manifest.ts); no script emulates Node’s process', async ({
  page,
}) => {
  const scripts: Promise<{ url: string; text: string }>[] = [];
  const onResponse = (r: Response) => {
    if (r.request().resourceType() === 'script') scripts.push(r.text().then((text) => ({ url: r.url(), text })));
  };
  page.on('response', onResponse);
  await open(page, 'ipaydayloans', '/payday-loans');
  page.off('response', onResponse);
  const loaded = await Promise.all(scripts);
  // next/dist/compiled/process, the Node emulation next.config.ts replaces with blocks/chrome/processShim.cjs.
  for (const { url, text } of loaded) expect(text.includes('setTimeout has not been defined'), url).toBe(false);
  const text = loaded.find((s) => s.url.includes('/_buildManifest.js'))?.text ?? '';
  // The console's pages run no script and the API routes are loaded by the browser: neither is a route of the browser's router.
  expect(text).not.toContain('/_console');
  expect(text).not.toContain('/api/');
  expect(text).toContain('"/_brand/[brand]/[[...path]]"');
  expect(text).toContain('"/_error"');
});
