/**
 * First-party visits and funnel events from a real browser (Chromium, production build): a
 * landing from an ad (utm_*, fbclid), the amount slider, the apply page and its first step, read
 * back from the e2e server's store — the visit with its campaign parameters, and its events —
 * the first batch by fetch (its answer carries the visit's id, issued by the server), the rest
 * with sendBeacon in batches, by the one lazy chunk that holds the events code (never among a
 * page's first scripts). A visitor sending Global Privacy Control is counted without click ids.
 */
import { namedScripts } from '../../engine/browser/afterPaintScript.mjs';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type Request } from '@playwright/test';
import { E2E_DB_FILE } from '../../playwright.config';
import { openStore, type Store } from '../../engine/store/db';
import { EVENTS_URL, VISIT_STORAGE_KEY } from '../../engine/browser/visit';
import { deviceClass } from '../../engine/store/trafficRules';
import { step } from './apply-form.fixtures';
import { brandUrl, pageAtRest, touchSwipe } from './helpers';

let db: Store;
test.beforeAll(() => {
  db = openStore({ url: '', file: E2E_DB_FILE });
});
test.afterAll(() => db?.destroy());

const visitRow = (id: string) => db.selectFrom('traffic_visits').selectAll().where('id', '=', id).executeTakeFirst();
/** The visit's stored events as "metric path", sorted (events sent together share their time). */
const eventsOf = async (id: string) =>
  (await db.selectFrom('traffic_events').select(['metric', 'path']).where('visit_id', '=', id).execute()).map((e) => `${e.metric} ${e.path}`).sort();
const visitIdOf = (page: Page) => page.evaluate((key) => (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { id?: string }).id, VISIT_STORAGE_KEY);

/** Every POST /api/events, by how it was sent (a beacon is a "ping", the first batch a "fetch"; Chromium does not show a beacon's body to the test). */
function eventPosts(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (r: Request) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === EVENTS_URL) sent.push(r.resourceType());
  });
  return sent;
}

interface ScriptLoad {
  url: string;
  /** has the events endpoint's path in it (the visit rules name it too, and the apply form's chunk carries those) */
  events: boolean;
  /** is the code that sends the events (the endpoint and sendBeacon) */
  sender: boolean;
}

/** Every code chunk the page loads, and what of the events code it holds. */
function scriptLoads(page: Page): Promise<ScriptLoad>[] {
  const loads: Promise<ScriptLoad>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script' || !res.url().includes('/_next/static/chunks/')) return;
    const url = new URL(res.url()).pathname;
    // A chunk still arriving as the test ends has no body to read: nothing of the events in it.
    loads.push(
      res.text().then(
        (t) => ({ url, events: t.includes(EVENTS_URL), sender: t.includes(EVENTS_URL) && t.includes('sendBeacon') }),
        () => ({ url, events: false, sender: false }),
      ),
    );
  });
  return loads;
}

/** The scripts a page's HTML, as served, names (its first load; the runtime adds script elements for lazy chunks later). */
const initialScripts = (html: string) => namedScripts(html).map((src) => new URL(src, 'http://x').pathname);

test('an ad landing, the amount slider, the apply page and step 1: one visit with its campaign and its events, sent by beacon in batches from one lazy chunk', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const campaign = `e2e-${randomUUID().slice(0, 8)}`;
  const fbclid = `IwAR${randomUUID().replaceAll('-', '')}`;
  const sent = eventPosts(page);
  const scripts = scriptLoads(page);
  const landing = await page.goto(
    brandUrl('ipaydayloans', `/payday-loans?utm_campaign=${campaign}&utm_source=facebook&utm_medium=paid-social&utm_content=carousel-2&fbclid=${fbclid}`),
  );
  const landingHtml = await landing!.text();
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);

  // The first batch (this page's view) tells the server about the visit, and its answer gives the visit its id.
  await expect.poll(() => visitIdOf(page)).toMatch(/^v[0-9a-f]{32}$/);
  const visitId = (await visitIdOf(page))!;
  const slider = page.getByRole('slider', { name: 'Loan amount' });
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => eventsOf(visitId), { timeout: 15_000 }).toEqual(['amount_used /payday-loans', 'page_view /payday-loans']);

  const stored = await visitRow(visitId);
  expect(stored).toMatchObject({ brand: 'ipaydayloans', landing_path: '/payday-loans', campaign, source: 'facebook', fbclid, gclid: '', opted_out: 0 });
  expect(stored!.device).toBe(deviceClass(await page.evaluate(() => navigator.userAgent)));
  expect(JSON.parse(stored!.utm)).toEqual({ utm_campaign: campaign, utm_source: 'facebook', utm_medium: 'paid-social', utm_content: 'carousel-2' });

  // The slider's call to action opens the apply page (a full load); the same visit goes on there.
  const applyDoc = page.waitForResponse((r) => r.request().resourceType() === 'document' && new URL(r.url()).pathname === '/apply');
  await page.getByRole('link', { name: 'Check Your Rate' }).click();
  const applyHtml = await (await applyDoc).text();
  await expect(step(page)).toContainText('Step 1 of 3');
  // The step is in the server's HTML; a ZIP typed before hydration has no listener to look it up.
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
  await page.getByLabel('ZIP code').fill('78701');
  await expect(page.getByText('Austin, Texas')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(step(page)).toContainText('Step 2 of 3');
  await expect
    .poll(() => eventsOf(visitId), { timeout: 15_000 })
    .toEqual(['amount_used /payday-loans', 'apply_view /apply', 'page_view /apply', 'page_view /payday-loans', 'step_1 /apply']);
  expect(await visitIdOf(page)).toBe(visitId);
  expect(await db.selectFrom('traffic_visits').select('id').where('campaign', '=', campaign).execute()).toHaveLength(1);

  // The first by fetch (for the id in its answer), the rest by navigator.sendBeacon, in batches: the five events took fewer POSTs.
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.length).toBeLessThan(5);
  expect(sent[0]).toBe('fetch');
  expect(sent.slice(1).every((kind) => kind === 'ping')).toBe(true);
  // From one chunk, fetched by the runtime after the page's own scripts: no script either page's HTML names holds any of the events code.
  const loaded = await Promise.all(scripts);
  expect([...new Set(loaded.filter((s) => s.sender).map((s) => s.url))]).toHaveLength(1);
  for (const html of [landingHtml, applyHtml]) {
    const first = initialScripts(html);
    expect(first.length).toBeGreaterThan(0);
    expect(loaded.filter((s) => first.includes(s.url)).length).toBeGreaterThan(0);
    expect(loaded.filter((s) => s.events && first.includes(s.url)).map((s) => s.url)).toEqual([]);
  }
});

test('"Check Your Rate" opened in a new tab goes on with the ad landing\'s visit, so the apply page and its lead count under the ad\'s campaign', async ({
  page,
  context,
}) => {
  const campaign = `e2e-tab-${randomUUID().slice(0, 8)}`;
  await page.goto(brandUrl('ipaydayloans', `/payday-loans?utm_campaign=${campaign}`));
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await expect.poll(() => visitIdOf(page)).toMatch(/^v[0-9a-f]{32}$/);
  const visitId = (await visitIdOf(page))!;
  const [tab] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Check Your Rate' }).click({ modifiers: ['ControlOrMeta'] })]);
  await expect(step(tab)).toContainText('Step 1 of 3');
  await expect.poll(() => visitIdOf(tab)).toMatch(/^v[0-9a-f]{32}$/);
  expect(await visitIdOf(tab)).toBe(visitId);
  await expect.poll(() => eventsOf(visitId), { timeout: 15_000 }).toEqual(['apply_view /apply', 'page_view /apply', 'page_view /payday-loans']);
});

test('a visitor with Global Privacy Control (Sec-GPC, navigator.globalPrivacyControl) is counted, without click ids', async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Sec-GPC': '1' } });
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
  const page = await context.newPage();
  const campaign = `e2e-gpc-${randomUUID().slice(0, 8)}`;
  await page.goto(brandUrl('ipaydayloans', `/payday-loans?utm_campaign=${campaign}&utm_source=google&gclid=Cj0K${randomUUID()}&fbclid=IwAR${randomUUID()}`));
  await expect.poll(() => visitIdOf(page)).toMatch(/^v[0-9a-f]{32}$/);
  const visitId = (await visitIdOf(page))!;
  await expect.poll(() => visitRow(visitId), { timeout: 15_000 }).toBeDefined();
  const stored = (await visitRow(visitId))!;
  expect(stored).toMatchObject({ campaign, source: 'google', landing_path: '/payday-loans', gclid: '', fbclid: '', ttclid: '', msclkid: '', opted_out: 1 });
  expect(JSON.parse(stored.utm)).toEqual({ utm_campaign: campaign, utm_source: 'google' });
  await expect.poll(() => eventsOf(visitId)).toEqual(['page_view /payday-loans']);
  await context.close();
});

test.describe('on a phone (360 × 640, touch)', () => {
  test.use({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });
  test('a touch on the amount slider that turns into a page scroll is no use of it (no amount_used); a slide along it is', async ({ page }) => {
    await page.goto(brandUrl('ipaydayloans', '/payday-loans'));
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
    await expect.poll(() => visitIdOf(page)).toMatch(/^v[0-9a-f]{32}$/);
    const visitId = (await visitIdOf(page))!;
    const slider = page.getByRole('slider', { name: 'Loan amount' });
    const box = (await slider.boundingBox())!;
    const y = box.y + box.height / 2;
    await touchSwipe(page, { x: box.x + box.width * 0.7, y }, { x: box.x + box.width * 0.7, y: y - 250 });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await expect(slider).toHaveAttribute('aria-valuetext', '$1,000');
    // Another page by a link (the router, same queue): its view is sent with or after anything queued before it.
    await page.locator('footer a[href="/installment-loans"]').click();
    await expect(page).toHaveURL(brandUrl('ipaydayloans', '/installment-loans'));
    await expect.poll(() => eventsOf(visitId), { timeout: 15_000 }).toEqual(['page_view /installment-loans', 'page_view /payday-loans']);

    await page.goBack();
    await expect(slider).toBeVisible();
    await slider.scrollIntoViewIfNeeded();
    await expect.poll(() => pageAtRest(page)).toBe(true);
    const along = (await slider.boundingBox())!;
    const middle = along.y + along.height / 2;
    await touchSwipe(page, { x: along.x + along.width * 0.2, y: middle }, { x: along.x + along.width * 0.8, y: middle });
    await expect.poll(async () => Number(await slider.inputValue())).toBeGreaterThan(300);
    await expect
      .poll(() => eventsOf(visitId), { timeout: 15_000 })
      .toEqual(['amount_used /payday-loans', 'page_view /installment-loans', 'page_view /payday-loans', 'page_view /payday-loans']);
  });
});
