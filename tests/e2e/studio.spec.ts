/**
 * The brand studio as an editor and an analyst meet it: every studio page axe-clean and usable at
 * 390 px under its own strict policy (only our origin's script); a brand read-only for a role that
 * may not change it; blocks reordered by keyboard and the order brought back by undo; the draft
 * previewed by the engine's own page at 390 and 1,280 px, and that preview closed to anyone
 * without the signed address of their own session.
 */
import { expect, test, type Page } from '@playwright/test';
import { saveBrandDraft, brandDraft, publishBrand } from '../../engine/store/brandRevisions';
import type { Brand } from '../../schemas/brand.types';
import { readFileSync } from 'node:fs';
import { expectNoAxeViolations } from './helpers';
import { addUser, clearNetworkAttempts, CONSOLE, CONSOLE_HOST, raw, run, signIn, withStore } from './console.fixtures';
import { asPage, openStudio } from './studio.fixtures';
import { smallTapTargets } from './tapTargets';

test.beforeAll(clearNetworkAttempts);
// Every test here edits the same brand as a different editor: run side by side, one's autosave takes in
// another's draft (a conflict, which starts the editing history again) and the first loses its Undo.
test.describe.configure({ mode: 'default' });

const BRAND = 'acmeonline';
const file = JSON.parse(readFileSync(`tests/fixtures/brands/${BRAND}.json`, 'utf8')) as Brand;

/** CSP refusals the browser reports on the page (none may happen: the studio runs only what its policy allows). */
function cspRefusals(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|frame|apply)/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

/** The page answered with no-store and the studio's policy: script from our origin and by hash only, nothing inline otherwise. */
async function openStudioPage(page: Page, path: string, heading: string | RegExp) {
  const res = await page.goto(`${CONSOLE}${path}`);
  expect(res?.status(), path).toBe(200);
  const h = res!.headers();
  expect(h['cache-control']).toContain('no-store');
  const script = /script-src ([^;]*)/.exec(h['content-security-policy'] ?? '')?.[1] ?? '';
  expect(script.split(' ')[0]).toBe("'self'");
  expect(
    script
      .split(' ')
      .slice(1)
      .every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s)),
    script,
  ).toBe(true);
  expect(h['x-frame-options']).toBe('DENY');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
}

/** The draft of the brand, as if an editor had saved it: the file's with the home page's headline changed. */
async function seedDraft(heading: string) {
  const doc = structuredClone(file);
  (doc.layouts!.home!.blocks[0] as { heading: string }).heading = heading;
  await withStore(async (db) => {
    const current = await brandDraft(db, BRAND);
    await saveBrandDraft(db, { id: BRAND, document: doc, expectedVersion: current?.version ?? 0, author: `seed-${run}` });
  });
}

test('every studio page is axe-clean, fits a phone, runs under its own policy, and the editor is interactive', async ({ page }) => {
  // axe over the editor's long form at two widths: minutes on a loaded 2-core machine
  test.setTimeout(300_000);
  const refusals = cspRefusals(page);
  await signIn(page, addUser('editor'));
  await openStudioPage(page, '/studio', 'Studio');
  await expect(page.getByRole('row', { name: new RegExp(BRAND) })).toBeVisible();
  await expectNoAxeViolations(page);
  for (const [path, heading] of [
    [`/studio/${BRAND}`, /^Studio: /],
    [`/studio/${BRAND}/history`, `History of ${BRAND}`],
    ['/studio/new', 'Launch a new brand'],
  ] as const) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await openStudioPage(page, path, heading);
      await expectNoAxeViolations(page);
      expect(await smallTapTargets(page, 24), `${path} at ${width} px`).toEqual([]);
      // nothing wider than the phone's screen but the scrolling boxes made for it
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${path} at ${width} px scrolls sideways`).toBe(true);
    }
  }
  // the editor's script runs: a change enables Undo, and Undo brings the name back
  await page.setViewportSize({ width: 1280, height: 900 });
  await openStudio(page, `/studio/${BRAND}`);
  const name = page.getByLabel('Name (required)');
  await expect(name).toHaveValue(file.name);
  await name.fill(`${file.name} Studio`);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(name).toHaveValue(file.name);
  for (const section of ['Navigation', 'Footer', 'Pages']) {
    await page.getByRole('button', { name: section, exact: true }).click();
    await expectNoAxeViolations(page);
  }
  expect(refusals).toEqual([]);
});

test('an analyst sees a brand read-only: nothing to change, nothing to publish', async ({ page }) => {
  await signIn(page, addUser('analyst'));
  await openStudioPage(page, `/studio/${BRAND}`, /^Studio: /);
  await expect(page.getByText('Your role can look at this brand but not change or publish it.')).toBeVisible();
  await expect(page.getByLabel('Name (required)')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();
  await page.goto(`${CONSOLE}/studio`);
  await expect(page.getByRole('link', { name: 'Launch a new brand' })).toHaveCount(0);
  await page.goto(`${CONSOLE}/studio/${BRAND}/history`);
  await expect(page.getByRole('button', { name: 'Restore this version' })).toHaveCount(0);
  // the wizard is above the role, as every such page: 403, whatever link led there
  expect((await page.goto(`${CONSOLE}/studio/new`))?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not for your role');
});

test('a published version that stopped building is an axe-clean alert on the console and its studio page, until a fixed one is published', async ({ page }) => {
  test.setTimeout(120_000);
  // a brand made in the studio, published while the layout its first page names existed: since
  // "the deploy" (the layout is gone) it does not build, and it is not served
  const id = `refused-${run}`;
  const doc = { ...structuredClone(file), id, name: `Refused ${run}`, hosts: [`${id}.example`] } as Brand;
  const layout = (doc.routes[0] as { layout: string }).layout;
  (doc.routes[0] as { layout: string }).layout = 'retired-layout';
  await withStore(async (db) => {
    const draft = await saveBrandDraft(db, { id, document: doc, expectedVersion: 0, author: `seed-${run}`, file: null });
    await publishBrand(db, { id, version: draft.version, author: `seed-${run}` });
  });
  await signIn(page, addUser('editor'));
  const alert = page.getByTestId('refused-revisions').filter({ hasText: `(${id})` });
  // the server takes the store's published set at its next poll
  await expect
    .poll(async () => {
      await page.goto(`${CONSOLE}/studio`);
      return alert.count();
    })
    .toBe(1);
  await expect(alert).toContainText('This brand is not served');
  await expect(alert).toContainText('no layout named "retired-layout"');
  await expectNoAxeViolations(page);
  for (const path of ['/brands', '/']) {
    await page.goto(`${CONSOLE}${path}`);
    await expect(alert.getByRole('link', { name: `Fix ${id} in the studio` })).toBeVisible();
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 390, height: 900 });
  await openStudio(page, `/studio/${id}`);
  await expect(alert).toContainText('fix these problems in the editor below');
  await expectNoAxeViolations(page);
  expect(await smallTapTargets(page, 24)).toEqual([]);
  // fixed from that version and published: served again, on the next poll of every instance, and the alert goes
  const opened = (await asPage(page, 'GET', `/api/console/studio/brands/${id}`)).json() as { version: number; csrf: string };
  (doc.routes[0] as { layout: string }).layout = layout;
  const headers = { 'x-csrf-token': opened.csrf };
  const saved = await asPage(page, 'PUT', `/api/console/studio/brands/${id}/draft`, { document: doc, expectedVersion: opened.version }, headers);
  expect(saved.status, saved.body).toBe(200);
  const published = await asPage(page, 'POST', `/api/console/studio/brands/${id}/publish`, { version: saved.json().version }, headers);
  expect(published.status, published.body).toBe(200);
  await expect
    .poll(async () => {
      await page.goto(`${CONSOLE}/studio/${id}`);
      return alert.count();
    })
    .toBe(0);
  expect((await raw('GET', '/', `${id}.example`)).status).toBe(200);
});

test("a page's blocks reorder by keyboard on the handle and by the Move buttons; undo and redo bring each order back", async ({ page }) => {
  await signIn(page, addUser('editor'));
  await openStudio(page, `/studio/${BRAND}`);
  await page.getByRole('button', { name: 'Pages', exact: true }).click();
  await page.getByLabel('Page', { exact: true }).selectOption({ label: '/' });
  const blocks = page.locator('fieldset[data-pointer="/layouts/home/blocks"] > ol > li');
  await expect(blocks).toHaveCount(2);
  const order = () => blocks.evaluateAll((lis) => lis.map((li) => li.querySelector('span.font-medium')?.textContent));
  // the headline may be a draft's (another test previews one): the order is what counts
  const before = await order();
  expect(before[1]).toBe('About this test brand');
  const swapped = [before[1], before[0]];

  // keyboard: focus the second block's handle, arrow up
  const handle = page.getByRole('button', { name: /^Reorder About this test brand/ });
  await handle.focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(order).toEqual(swapped);
  await expect(page.getByRole('button', { name: /^Reorder About this test brand, position 1 of 2/ })).toBeFocused();
  await expect(page.getByText('About this test brand moved to position 1 of 2.')).toBeAttached();

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(order).toEqual(before);
  await page.keyboard.press('Control+Shift+Z');
  await expect.poll(order).toEqual(swapped);
  await page.keyboard.press('Control+Z');
  await expect.poll(order).toEqual(before);

  // the Move buttons do the same
  await page.getByRole('button', { name: `Move down ${before[0]}` }).click();
  await expect.poll(order).toEqual(swapped);

  // the last block removed by keyboard: said, and the focus goes to the block before, not lost with the button
  await page.getByRole('button', { name: `Remove ${before[0]}` }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(order).toEqual([before[1]]);
  await expect(page.getByRole('button', { name: /^Reorder About this test brand, position 1 of 1/ })).toBeFocused();
  await expect(page.getByText(`${before[0]} removed.`)).toBeAttached();
  await page.keyboard.press('Control+Z');
  await expect.poll(order).toEqual(swapped);
});

test("the preview shows the draft through the engine's own page at 390 and 1,280 px, to the editor's signed address only", async ({ page }) => {
  const heading = `Draft headline ${run}`;
  await seedDraft(heading);
  await signIn(page, addUser('editor'));
  await openStudio(page, `/studio/${BRAND}`);
  for (const width of [390, 1280]) {
    const frame = page.frameLocator(`iframe[data-width="${width}"]`);
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText(heading);
  }
  const src = (await page.locator('iframe[data-width="390"]').getAttribute('src')) ?? '';
  expect(src).toMatch(/^\/studio-preview\/acmeonline\?path=%2F&token=/);

  // the address answers the signed-in editor only: no-store, never indexed, framed by our origin only
  const res = await asPage(page, 'GET', src);
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toContain('no-store');
  expect(res.headers['x-robots-tag']).toBe('noindex');
  expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(res.headers['content-security-policy']).toContain("script-src 'none'");
  expect(res.body).toContain(heading);
  // without the session, another page or a changed token: nothing of the draft
  const token = new URL(src, CONSOLE).searchParams.get('token')!;
  const altered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
  for (const path of [src, src.replace('path=%2F', 'path=%2Fapply'), src.replace(token, altered)]) {
    const anon = await raw('GET', path, CONSOLE_HOST);
    expect(anon.body).not.toContain(heading);
    const mine = await asPage(page, 'GET', path);
    if (path !== src) {
      expect(mine.status).toBe(403);
      expect(mine.body).not.toContain(heading);
    }
  }
  // visitors still see the published page
  const visitor = await raw('GET', '/', `${BRAND}.localhost`);
  expect(visitor.body).not.toContain(heading);
});
