/**
 * A brand page's scripts start after the browser has painted its largest text (engine/browser/afterPaintScript.mjs):
 * the text is on screen before React is evaluated, and the page then hydrates with Next's chunks
 * in the order Next wrote them, allowed by the content security policy.
 */
import { expect, test, type Page } from '@playwright/test';
import { brandUrl, rawGet } from './helpers';

declare global {
  interface Window {
    __scripts?: { src: string; at: number }[];
    __violations?: string[];
    __largest?: number[];
  }
}

/** Records when each of Next's scripts is added, every largest-paint entry and any policy violation. */
async function watch(page: Page) {
  await page.addInitScript(() => {
    window.__scripts = [];
    window.__violations = [];
    window.__largest = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations!.push(`${e.violatedDirective} ${e.blockedURI}`));
    new PerformanceObserver((list) => window.__largest!.push(...list.getEntries().map((e) => e.startTime))).observe({
      type: 'largest-contentful-paint',
      buffered: true,
    });
    new MutationObserver((records) => {
      for (const r of records)
        for (const node of r.addedNodes)
          if (node instanceof HTMLScriptElement && node.src.includes('/_next/'))
            window.__scripts!.push({ src: new URL(node.src).pathname, at: performance.now() });
    }).observe(document, { childList: true, subtree: true });
  });
}

async function seen(page: Page) {
  return page.evaluate(() => ({
    scripts: window.__scripts!,
    violations: window.__violations!,
    largest: window.__largest!,
    preloads: [...document.querySelectorAll<HTMLLinkElement>('link[data-ap]')].map((l) => new URL(l.href).pathname),
  }));
}

for (const [brand, path] of [
  ['usbadcreditloans', '/'],
  ['ustitleloans', '/apply-title-loans'],
] as const) {
  test(`${brand} ${path}: the largest text is painted before the first script runs, then the page hydrates with every chunk in order`, async ({ page }) => {
    await watch(page);
    await page.goto(brandUrl(brand, path));
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
    const s = await seen(page);
    expect(s.violations).toEqual([]);
    expect(s.preloads.length).toBeGreaterThan(0);
    // every preloaded chunk became a script, in the same order
    expect(s.scripts.map((x) => x.src).slice(0, s.preloads.length)).toEqual(s.preloads);
    expect(s.largest.length).toBeGreaterThan(0);
    expect(s.scripts[0]!.at).toBeGreaterThan(s.largest[0]!);
  });
}

/** Opens ipaydayloans /payday-loans and expects it hydrated, every preloaded chunk added as a script in order. */
async function hydratesWithEveryChunk(page: Page) {
  await watch(page);
  await page.goto(brandUrl('ipaydayloans', '/payday-loans'));
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  const s = await seen(page);
  expect(s.preloads.length).toBeGreaterThan(0);
  expect(s.scripts.map((x) => x.src).slice(0, s.preloads.length)).toEqual(s.preloads);
}

test('a browser that reports no largest paint still hydrates the page, a frame after it is parsed', async ({ page }) => {
  await page.addInitScript(() => {
    const types = PerformanceObserver.supportedEntryTypes.filter((t) => t !== 'largest-contentful-paint');
    Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', { get: () => types });
  });
  await hydratesWithEveryChunk(page);
});

test('a page opened in a hidden tab runs its scripts at once and hydrates', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Document.prototype, 'hidden', { get: () => true }));
  await hydratesWithEveryChunk(page);
});

test("the served HTML names Next's chunks only by preloads and its stylesheet once, and ends on the loader", async () => {
  const { status, body } = await rawGet('/payday-loans', 'ipaydayloans.localhost');
  expect(status).toBe(200);
  expect(body).not.toMatch(/<script[^>]+src="\/_next\/[^"]+"[^>]*defer/);
  expect(body).toMatch(/<link rel="preload" as="script" href="\/_next\/static\/chunks\/[^"]+\.js" data-ap=""\/>/);
  // the stylesheet is named once, by its own link (blocks/chrome/stylesheetLinks.ts)
  expect(body).toMatch(/<link rel="stylesheet" href="\/_next\/static\/chunks\/[^"]+\.css"\/>/);
  expect(body).not.toContain('as="style"');
  expect(body).toMatch(/<script>\(d=>\{[^]*?link\[data-ap\][^]*?<\/script><\/body><\/html>$/);
});
