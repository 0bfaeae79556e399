/**
 * Visit tracking and the session trace (SPEC §3, §4, §7) in Chromium on the production build:
 * what a landing URL leaves in the browser (encoded keys, LoansSource1), the one POST a browser
 * makes (intercepted, then the stored row read back from the server's SQLite file), no second
 * POST on reload, the tt prefix, no POST without a click id, and the apply hand-off carrying
 * the stored source byte for byte.
 */
import { randomUUID } from 'node:crypto';
import { type Page, type Request } from '@playwright/test';
import { expect, networkQuiet, test } from './network';
import { E2E_DB_FILE } from '../../playwright.config';
import { openStore } from '../../engine/store/db';
import { listSessionTraces, type SessionTrace } from '../../engine/store/sessionTraces';
import { brandUrl } from './helpers';
import { VISIT_STORAGE_KEY } from '../../engine/browser/visit';

const KEYS = { id: 'aWQ=', path: 'cGF0aA==', gclid: 'Z2NsaWQ=', ttclid: 'dHRjbGlk', uuid: 'dXVpZA==' };
const isTracePost = (r: Request) => new URL(r.url()).pathname === '/api/trace/session' && r.method() === 'POST';

/** Every session-trace POST the page makes from now on. */
function tracePosts(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (isTracePost(r)) seen.push(r);
  });
  return seen;
}

/**
 * The code chunks the page loads that hold the session-trace code (the lazy chunk: the only
 * chunk with the endpoint's path in it). The HTTP cache is bypassed so every load is seen.
 */
async function traceCodeLoads(page: Page): Promise<{ take(): Promise<string[]> }> {
  await page.route('**/_next/static/**', (route) => route.continue());
  let loads: Promise<string | undefined>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script' || !res.url().includes('/_next/static/chunks/')) return; // not the build manifest, which lists every route
    loads.push(
      res.text().then(
        (t) => (t.includes('/api/trace/session') ? res.url() : undefined),
        () => undefined,
      ),
    );
  });
  return {
    async take() {
      const urls = (await Promise.all(loads)).filter((u): u is string => !!u);
      loads = [];
      return urls;
    },
  };
}

/**
 * Loaded, hydrated, and past the first idle moment: the tracker decides at idle whether a trace
 * is due, synchronously, so by the time an idle callback queued after it runs, a due trace has
 * started (its code requested) and one that is not due never will.
 */
async function trackerDecided(page: Page) {
  // hydrated first: the visit is stored, and the tracker queued, by the page's first effects
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await networkQuiet(page);
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
}

/** What the tracking keeps in localStorage; the visit counter's own entry (tested in events.spec.ts, written when its lazy chunk runs) left out. */
const storage = (page: Page) =>
  page.evaluate((visitKey) => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k !== visitKey)), VISIT_STORAGE_KEY);

async function storedRows(uuid: string): Promise<SessionTrace[]> {
  const db = openStore({ url: '', file: E2E_DB_FILE });
  try {
    return (await listSessionTraces(db, { since: new Date(Date.now() - 3_600_000) })).filter((r) => r.uuid === uuid);
  } finally {
    await db.destroy();
  }
}

test('landing with source1, source2 and gclid: exactly one POST with those fields, stored once with the host’s brand; a reload posts nothing', async ({
  page,
}) => {
  const gclid = `e2e-${randomUUID()}`;
  const posts = tracePosts(page);
  const traceCode = await traceCodeLoads(page);
  const answer = page.waitForResponse((r) => isTracePost(r.request()));
  // Chromium reaches *.localhost on ::1 or 127.0.0.1; either is stored with its host part dropped.
  await page.goto(brandUrl('ipaydayloans', `/payday-loans?source1=spring&source2=google&gclid=${gclid}`));
  const response = await answer;
  expect(response.status()).toBe(201);
  const sent = response.request().postDataJSON() as Record<string, string>;
  expect(sent).toEqual({ source1: 'spring', source2: 'google', clickId: `gg${gclid}`, uuid: expect.stringMatching(/^cc[0-9a-f]{32}$/), ggClientId: '' });
  expect(response.request().headers()['content-type']).toBe('application/json');

  // The uuid is stored after the answer, under its encoded key, with the rest of the visit.
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), KEYS.uuid)).toBe(sent.uuid);
  expect(await storage(page)).toEqual({ [KEYS.id]: 'spring', [KEYS.path]: 'google', [KEYS.gclid]: gclid, [KEYS.uuid]: sent.uuid, LoansSource1: 'spring' });

  const rows = await storedRows(sent.uuid!);
  expect(rows).toEqual([
    expect.objectContaining({
      uuid: sent.uuid,
      brand: 'ipaydayloans',
      source1: 'spring',
      source2: 'google',
      clickId: `gg${gclid}`,
      gaClientId: '',
      ip: expect.stringMatching(/^(127\.0\.0\.0|::)$/),
      userAgent: await page.evaluate(() => navigator.userAgent),
    }),
  ]);
  expect(Date.now() - Date.parse(rows[0]!.createdAt)).toBeLessThan(120_000);

  expect(await traceCode.take()).toHaveLength(1);

  // Reloads, even with a new click id: the uuid is stored, so no trace is due — its code is not
  // even loaded (the tracker decides at idle, before any POST could start), and nothing is posted.
  await page.reload();
  await trackerDecided(page);
  await page.goto(brandUrl('ipaydayloans', `/?gclid=${gclid}-again`));
  await trackerDecided(page);
  await networkQuiet(page);
  expect(await traceCode.take()).toEqual([]);
  expect(posts).toHaveLength(1);
  expect(await page.evaluate((k) => localStorage.getItem(k), KEYS.uuid)).toBe(sent.uuid);
  expect(await storedRows(sent.uuid!)).toHaveLength(1);
});

test('ttclid: the click id has the tt prefix; the GA client id comes from the _ga cookie; utm_* fill the sources', async ({ page, context }) => {
  await context.addCookies([{ name: '_ga', value: 'GA1.1.987654321.1700000000', domain: 'ipaydayloans.localhost', path: '/' }]);
  const ttclid = `tt-e2e-${randomUUID()}`;
  const answer = page.waitForResponse((r) => isTracePost(r.request()));
  await page.goto(brandUrl('ipaydayloans', `/cash-advance?utm_campaign=fall&utm_source=tiktok&ttclid=${ttclid}`));
  const response = await answer;
  expect(response.status()).toBe(201);
  const sent = response.request().postDataJSON() as Record<string, string>;
  expect(sent).toMatchObject({ source1: 'fall', source2: 'tiktok', clickId: `tt${ttclid}`, ggClientId: '987654321.1700000000' });
  await expect.poll(async () => (await storedRows(sent.uuid!)).map((r) => [r.clickId, r.gaClientId])).toEqual([[`tt${ttclid}`, '987654321.1700000000']]);
});

test('no click id: no POST, no uuid; the page path is kept as the source and LoansSource1 carries source1', async ({ page }) => {
  const posts = tracePosts(page);
  const traceCode = await traceCodeLoads(page);
  await page.goto(brandUrl('ipaydayloans', '/cash-advance?source1=newsletter'));
  await trackerDecided(page);
  await networkQuiet(page);
  expect(await traceCode.take()).toEqual([]);
  expect(posts).toHaveLength(0);
  expect(await storage(page)).toEqual({ [KEYS.id]: 'newsletter', [KEYS.path]: '/cash-advance', LoansSource1: 'newsletter' });
});

test('the apply hand-off carries the stored source: an amount widget, the header APPLY NOW, and a later page without a source', async ({ page }) => {
  await page.goto(brandUrl('ipaydayloans', '/?source1=spring&gclid=abc'));
  await networkQuiet(page);
  await expect(page.getByRole('banner').getByRole('link', { name: 'APPLY NOW' })).toHaveAttribute('href', '/apply?v1=spring');
  const picker = page.getByRole('region', { name: 'How Much Instant Cash Do You Need?' });
  await picker.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(brandUrl('ipaydayloans', '/apply?v1=spring&requested_amount=1000'));
  expect(page.url()).toBe(brandUrl('ipaydayloans', '/apply?v1=spring&requested_amount=1000'));

  // A later visit without any source: the stored one still goes with the visitor.
  await page.goto(brandUrl('ipaydayloans', '/cash-advance'));
  await networkQuiet(page);
  const cash = page.getByRole('region', { name: 'Get Your Cash' });
  await cash.getByLabel(/Loan amount/).fill('777');
  await cash.getByRole('button', { name: 'Get My Quotes Now!' }).click();
  await expect(page).toHaveURL(brandUrl('ipaydayloans', '/apply?v1=spring&requested_amount=777'));
});
