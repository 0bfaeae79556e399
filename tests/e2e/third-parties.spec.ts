/**
 * Third parties under control (SPEC §2, §7), in Chromium against the production build, with the
 * third-party hosts intercepted (tests/e2e/thirdParties.ts): the tag manager after load with a
 * pageview per page, the pixel on general brands only, Global Privacy Control and the Do Not
 * Sell page honoured, and zero Content-Security-Policy violations on every page structure of every
 * brand with everything on.
 */
import { type Page } from '@playwright/test';
import { expect, networkQuiet, test } from './network';
import { request as httpRequest } from 'node:http';
import { buildCatalog, readSources, type LoadedBrand } from '../../engine/site/catalog';
import { matchPath } from '../../engine/site/pageMatch';
import type { CompiledRoute } from '../../engine/site/routes';
import { brandUrl, expectNoAxeViolations, PORT } from './helpers';
import { cspViolations, dataLayerEvents, fakeThirdParties, isGtmScript, isPixelEvent, isPixelScript, pageviews } from './thirdParties';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const DNS_LINK = 'Do Not Sell or Share My Personal Information';

/**
 * A returning visitor whose session was traced already (a stored uuid): a landing with a click id
 * posts no session trace. (That post uses fetch keepalive, which Playwright never sees finish, so
 * a page with one never has a quiet network.)
 */
const traced = (context: import('@playwright/test').BrowserContext) =>
  context.addInitScript(() => localStorage.setItem(btoa('uuid'), 'cc0123456789abcdef0123456789abcdef'));

/** Loaded, interactive, and whatever the page loads after idle has been requested and answered. */
async function settle(page: Page, requests: { url(): string }[]) {
  await networkQuiet(page);
  await expect.poll(() => requests.some((r) => isGtmScript(r as never))).toBe(true);
  await networkQuiet(page);
}

test('tag manager: the container is requested after the load event, dataLayer starts with its id and gets a pageview per page, two client-side navigations included', async ({
  page,
  context,
}) => {
  const { requests } = await fakeThirdParties(context);
  await page.goto(brandUrl('acmeonline', '/?source1=spring'));
  await expect.poll(() => requests.filter(isGtmScript).length).toBe(1);
  const gtm = requests.find(isGtmScript)!;
  expect(new URL(gtm.url()).searchParams.get('id')).toBe('GTM-TEST123');
  // the request is seen as it leaves; its resource timing entry is there once the script has loaded
  await expect.poll(() => page.evaluate((url) => performance.getEntriesByName(url).length, gtm.url())).toBe(1);
  const timing = await page.evaluate((url) => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { loadEventEnd: nav.loadEventEnd, requestedAt: performance.getEntriesByName(url)[0]?.startTime ?? -1 };
  }, gtm.url());
  expect(timing.loadEventEnd).toBeGreaterThan(0);
  expect(timing.requestedAt).toBeGreaterThanOrEqual(timing.loadEventEnd);
  const first = (await dataLayerEvents(page)).find((e) => (e as { event?: string }).event === 'gtm.js');
  expect(first).toMatchObject({ event: 'gtm.js', gtmId: 'GTM-TEST123' });
  await expect.poll(() => pageviews(page)).toEqual(['/?source1=spring']);
  // The container behaves like the real one: it sets the analytics cookie visit tracking reads.
  await expect.poll(async () => (await context.cookies()).some((c) => c.name === '_ga')).toBe(true);

  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.getByRole('link', { name: DNS_LINK }).click();
  await expect(page.locator('h1')).toHaveText('Do Not Sell or Share My Personal Information');
  await page.getByRole('navigation').getByRole('link', { name: 'Apply' }).first().click();
  await expect(page).toHaveURL(/\/apply/);
  await expect.poll(() => pageviews(page)).toEqual(['/?source1=spring', '/do-not-sell-or-share', expect.stringMatching(/^\/apply/)]);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  expect(requests.filter(isGtmScript)).toHaveLength(1);
  expect(await cspViolations(page)).toEqual([]);
});

test('pixel: on a general brand it loads after the page is interactive and counts a page view per page, client-side navigations included', async ({
  page,
  context,
}) => {
  const { requests } = await fakeThirdParties(context);
  await page.goto(brandUrl('acmeonline', '/'));
  await expect.poll(() => requests.filter(isPixelScript).map((r) => new URL(r.url()).searchParams.get('sdkid'))).toEqual(['C9ACMEONLINETEST0001']);
  await expect.poll(() => requests.filter(isPixelEvent).length).toBe(1);
  await page.getByRole('link', { name: DNS_LINK }).click();
  await expect(page.locator('h1')).toHaveText('Do Not Sell or Share My Personal Information');
  await expect.poll(() => requests.filter(isPixelEvent).length).toBe(2);
  expect(requests.filter(isPixelScript)).toHaveLength(1);
  expect(await cspViolations(page)).toEqual([]);
});

for (const [brand, kind] of [
  ['acmetitle', 'title'],
  ['ipaydayloans', 'payday'],
  ['usinstallmentloans', 'installment'],
] as const) {
  test(`pixel: none on a ${kind} brand (${brand}), which has the tag manager`, async ({ page, context }) => {
    const { requests } = await fakeThirdParties(context);
    await page.goto(brandUrl(brand, '/'));
    await settle(page, requests);
    expect(requests.filter((r) => r.url().includes('tiktok'))).toEqual([]);
    expect(await page.evaluate(() => 'ttq' in window)).toBe(false);
  });
}

test('no third party for a brand page without them: the proxy-less API and static files carry the base policy only', async ({ request }) => {
  const res = await request.get(`http://127.0.0.1:${PORT}/static/ping.txt`);
  const csp = res.headers()['content-security-policy']!;
  expect(csp).toContain("script-src 'self' 'sha256-");
  expect(csp).not.toMatch(/googletagmanager|tiktok/);
});

test.describe('a browser sending Global Privacy Control', () => {
  test.use({ extraHTTPHeaders: { 'Sec-GPC': '1' } });

  test('is opted out without asking: no pixel, Google consent mode denies ads, no click id in the page path; the Do Not Sell page says so', async ({
    page,
    context,
  }) => {
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
    await traced(context);
    const { requests } = await fakeThirdParties(context);
    await page.goto(brandUrl('acmeonline', '/?gclid=abc123&source1=spring'));
    await settle(page, requests);
    expect(requests.filter((r) => r.url().includes('tiktok'))).toEqual([]);
    const events = await dataLayerEvents(page);
    expect(events).toContainEqual(['consent', 'default', { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' }]);
    expect(events).toContainEqual(['set', 'ads_data_redaction', true]);
    expect(await pageviews(page)).toEqual(['/?source1=spring']);
    expect(
      requests
        .filter((r) => r.url().includes('google-analytics'))
        .map((r) => r.url())
        .join(' '),
    ).not.toContain('abc123');

    await page.getByRole('link', { name: DNS_LINK }).click();
    await expect(page.getByRole('status')).toContainText('Your browser sends Global Privacy Control, so you are opted out');
    await expect(page.getByRole('button', { name: /opt/i })).toHaveCount(0);
    expect(requests.filter((r) => r.url().includes('tiktok'))).toEqual([]);
  });
});

test.describe('the Do Not Sell or Share page', () => {
  test('every US brand links to it from its footer; Canadian and Australian brands do not', async ({ page }) => {
    for (const [brand, linked] of [
      ['ipaydayloans', true],
      ['ustitleloans', true],
      ['honestloans', true],
      ['weloans', false],
      ['fastloansau', false],
    ] as const) {
      await page.goto(brandUrl(brand, '/'));
      await expect(page.locator('footer').getByRole('link', { name: DNS_LINK }), brand).toHaveCount(linked ? 1 : 0);
    }
  });

  test('the visitor opts out by keyboard; the choice is a first-party cookie; from then on no pixel, and the next page honours it', async ({
    page,
    context,
  }) => {
    // five page loads with axe twice: past a minute on a loaded CI machine
    test.slow();
    const { requests } = await fakeThirdParties(context);
    await traced(context);
    await page.goto(brandUrl('acmeonline', '/'));
    await expect.poll(() => requests.filter(isPixelEvent).length).toBe(1);
    await page.locator('footer').getByRole('link', { name: DNS_LINK }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('h1')).toHaveText('Do Not Sell or Share My Personal Information');
    await expect.poll(() => requests.filter(isPixelEvent).length).toBe(2);
    const status = page.getByRole('status');
    await expect(status).toContainText('You have not opted out');
    await expectNoAxeViolations(page);

    const optOut = page.getByRole('button', { name: 'Opt out of sale and sharing' });
    const box = (await optOut.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    await optOut.focus();
    await page.keyboard.press('Enter');
    await expect(status).toContainText('You have opted out');
    const cookie = (await context.cookies()).find((c) => c.name === 'privacy_opt_out');
    expect(cookie).toMatchObject({ value: '1', path: '/', sameSite: 'Lax', httpOnly: false });
    expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 300 * 24 * 3600);
    await expect(page.getByRole('button', { name: 'Opt back in' }))
      .toBeFocused({ timeout: 1000 })
      .catch(() => undefined);
    await expectNoAxeViolations(page);
    // The tag manager is told at once.
    expect(await dataLayerEvents(page)).toContainEqual(['consent', 'update', { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' }]);

    // A client-side navigation: no pixel page view.
    await page.getByRole('navigation').getByRole('link', { name: 'Apply' }).first().click();
    await expect(page).toHaveURL(/\/apply/);
    await expect.poll(() => pageviews(page)).toHaveLength(3);
    expect(requests.filter(isPixelEvent)).toHaveLength(2);

    // The next page load: no pixel at all, consent denied from the start.
    const before = requests.length;
    await page.goto(brandUrl('acmeonline', '/?gclid=zzz'));
    await expect.poll(() => requests.slice(before).filter(isGtmScript).length).toBe(1);
    await networkQuiet(page);
    expect(requests.slice(before).filter((r) => r.url().includes('tiktok'))).toEqual([]);
    expect(await dataLayerEvents(page)).toContainEqual(['consent', 'default', { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' }]);
    expect(await pageviews(page)).toEqual(['/']);

    // Opting back in clears the cookie.
    await page.goto(brandUrl('acmeonline', '/do-not-sell-or-share'));
    await page.getByRole('button', { name: 'Opt back in' }).click();
    await expect(page.getByRole('status')).toContainText('You have not opted out');
    expect((await context.cookies()).find((c) => c.name === 'privacy_opt_out')).toBeUndefined();
  });
});

// ---- Content-Security-Policy: every page structure of every brand, everything on ----

const sources = readSources({ extraDir: 'tests/fixtures/brands' });
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);

function get(host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: PORT, path, headers: { host: `${host}:${PORT}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * What decides a page's scripts, styles, frames and images, so its policy: the block types its
 * layout is made of, the loan type (which form and provider script an apply page loads) and the
 * outside origins its layout names. Layouts alike in all three differ only in words and order, and
 * the policy judges them alike (brands.spec.ts samples axe the same way).
 */
function structure(loaded: LoadedBrand, route: CompiledRoute, loanType: string | undefined): string {
  const layout = loaded.layout(route.layout, route.layoutParams);
  if (!layout) return `layout ${route.layout}`;
  const types = [...new Set(layout.blocks.map((b) => b.type))].sort();
  const origins = [...new Set(JSON.stringify(layout).match(/https?:\/\/[^/"\\]+/g) ?? [])].sort();
  return JSON.stringify([types, loanType ?? null, origins]);
}

/** One page of each structure the brand's links reach (breadth-first from /), and the 404 page. */
async function templatePages(id: string): Promise<string[]> {
  const loaded = catalog.brands.get(id)!;
  const wanted = new Set(
    loaded.routes.flatMap((route) => {
      const types = route.path.includes('{loanType}') ? loaded.brand.loanTypes : [route.loanType];
      return types.map((t) => structure(loaded, route, t));
    }),
  );
  const sample = new Map<string, string>();
  const queue = ['/'];
  const seen = new Set(queue);
  for (let fetched = 0; queue.length && fetched < 250 && sample.size < wanted.size; fetched++) {
    const path = queue.shift()!;
    const match = matchPath(loaded, path);
    const key = match && structure(loaded, match.route, match.params.loanType ?? match.route.loanType);
    const { status, body } = await get(`${id}.localhost`, path);
    if (status !== 200) continue;
    if (key && !sample.has(key)) sample.set(key, path);
    for (const m of body.matchAll(/<a\s[^>]*?href="(\/[^"#?]*)/g)) {
      const next = m[1]!;
      if (next.startsWith('//') || next.startsWith('/_next/') || next.startsWith('/api/') || seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return [...sample.values(), '/no-such-page-here'];
}

/**
 * Pages at once in one test: each page's wait is mostly the half second of network quiet that
 * says the third parties have loaded, not CPU, so a few tabs overlap those waits.
 */
const TABS = 4;

for (const id of catalog.brands.keys()) {
  test(`CSP: zero violations on every page structure of ${id}, with the tag manager and (general brands) the pixel on`, async ({ page, context }) => {
    test.setTimeout(240_000);
    const { requests } = await fakeThirdParties(context);
    const paths = await templatePages(id);
    const problems: string[] = [];
    const queue = [...paths];
    const tabs = [page, ...(await Promise.all(Array.from({ length: TABS - 1 }, () => context.newPage())))];
    await Promise.all(
      tabs.map(async (tab) => {
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          const res = await tab.goto(brandUrl(id, path));
          const policy = res!.headers()['content-security-policy'];
          if (!policy) problems.push(`${path}: no enforced Content-Security-Policy`);
          await networkQuiet(tab);
          if (!(await tab.evaluate(() => typeof (window as unknown as { __reportError?: unknown }).__reportError === 'function')))
            problems.push(`${path}: the inline error reporter did not run`);
          for (const v of await cspViolations(tab)) problems.push(`${path}: ${v}`);
        }
      }),
    );
    expect(requests.some(isGtmScript), 'the tag manager ran').toBe(true);
    expect(problems, `${paths.length} pages: ${paths.join(' ')}`).toEqual([]);
  });
}
