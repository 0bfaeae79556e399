/**
 * The brand studio's server side, through its JSON API as the studio's pages call it (fetch from a
 * signed-in console page, so the browser sends its own Sec-Fetch-Site and the session cookie):
 * - on the e2e server: an editor makes a brand with the wizard, a link to a page that does not
 *   exist is pointed at and refuses the publish, the fixed draft publishes, and a visitor sees the
 *   brand on its {id}.localhost, dev. and test123. hosts at once, without a build; published
 *   again, its cached (replayed) page shows the new words at once; a publication set for 3 s
 *   later goes live by itself at its time;
 * - on a cluster (two production instances on one PostgreSQL and one Redis, behind the shipped
 *   nginx): a publish on A is served by B within 5 s while another brand's page stays a cache
 *   hit; restore brings the old text back; two editors conflict (409 with the other change); an
 *   analyst cannot publish.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { startInstance, type Instance } from '../support/instances';
import { startNginx, type RunningNginx } from '../support/nginx';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { startRedis, type RunningRedis } from '../support/redis';
import { freePort } from '../support/ports';
import { addUser, raw, run, signIn } from './console.fixtures';
import { PORT } from './helpers';

type Answer = { status: number; body: Record<string, unknown> & { [k: string]: unknown } };

/** A studio API call from the signed-in console page (its CSRF token from the list). */
async function studio(page: Page, method: string, path: string, body?: unknown): Promise<Answer> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const list = await fetch('/api/console/studio/brands');
      const csrf = ((await list.json()) as { csrf?: string }).csrf ?? '';
      const r = await fetch(`/api/console/studio/${path}`, {
        method,
        headers: { 'x-csrf-token': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    },
    { method, path, body },
  );
}

const pageText = async (port: number, host: string, path = '/') => {
  const r = await raw('GET', path, host, '', {}, undefined, port);
  return { status: r.status, body: r.body, cache: String(r.headers['x-nextjs-cache'] ?? '') };
};
/** Whether the page shows the text (a boolean, so a failure does not print the whole page). */
const shows = async (port: number, host: string, path: string, text: string) => (await pageText(port, host, path)).body.includes(text);

test.describe('the studio on one server', () => {
  const id = `studio${run}`;
  const host = `${id}.example`;

  test('an editor makes a brand, is refused a publish while a link goes nowhere, publishes the fix, and a visitor sees it on its hosts at once', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, addUser('editor'));
    const made = await studio(page, 'POST', 'brands', {
      answers: {
        id,
        name: `Studio ${run} Loans`,
        hosts: host,
        primaryColor: '#0b5394',
        phone: '+1-800-555-0100',
        email: `help@${host}`,
        address: '1 Main St, Austin, TX 78701',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // not published yet: its host is not served
    expect((await pageText(PORT, `${id}.localhost`)).status).toBe(404);

    const opened = await studio(page, 'GET', `brands/${id}`);
    const doc = opened.body.document as { footer: { about: string }; nav: { items: { label: string; href?: string }[] } };
    doc.nav.items.push({ label: 'Nowhere', href: '/no-such-page' });
    const broken = await studio(page, 'PUT', `brands/${id}/draft`, { document: doc, expectedVersion: opened.body.version });
    const pointer = `/nav/items/${doc.nav.items.length - 1}/href`;
    expect(broken.body.problems).toEqual([expect.objectContaining({ pointer })]);
    const refused = await studio(page, 'POST', `brands/${id}/publish`, { version: broken.body.version });
    expect(refused.status).toBe(422);

    doc.nav.items.pop();
    doc.footer.about = `Words published from the studio ${run}.`;
    const fixed = await studio(page, 'PUT', `brands/${id}/draft`, { document: doc, expectedVersion: broken.body.version });
    expect(fixed.body.problems).toEqual([]);
    expect(await studio(page, 'POST', `brands/${id}/publish`, { version: fixed.body.version })).toMatchObject({ status: 200 });

    // a visitor on the brand's hosts: the local one in a browser, the dev. and test123. ones as nginx would send them
    const visitor = await page.context().newPage();
    await visitor.goto(`http://${id}.localhost:${PORT}/`);
    await expect(visitor.getByText(`Words published from the studio ${run}.`)).toBeVisible();
    for (const h of [`dev.${host}`, `test123.${host}`]) expect(await shows(PORT, h, '/', `Words published from the studio ${run}.`)).toBe(true);

    // published again: the page, cached and replayed by now, shows the new words at once
    for (let i = 0; i < 3; i++) await pageText(PORT, `${id}.localhost`);
    expect((await pageText(PORT, `${id}.localhost`)).cache).toBe('HIT');
    doc.footer.about = `Words published again ${run}.`;
    const again = await studio(page, 'PUT', `brands/${id}/draft`, { document: doc, expectedVersion: fixed.body.version });
    expect(await studio(page, 'POST', `brands/${id}/publish`, { version: again.body.version })).toMatchObject({ status: 200 });
    expect(await shows(PORT, `${id}.localhost`, '/', `Words published again ${run}.`)).toBe(true);

    // set to be published in 3 s: not before, then by itself
    doc.footer.about = `Words published on schedule ${run}.`;
    const later = await studio(page, 'PUT', `brands/${id}/draft`, { document: doc, expectedVersion: again.body.version });
    const at = new Date(Date.now() + 3000).toISOString();
    expect(await studio(page, 'POST', `brands/${id}/publish`, { version: later.body.version, at })).toMatchObject({ status: 200, body: { scheduledAt: at } });
    expect(await shows(PORT, `${id}.localhost`, '/', `Words published on schedule ${run}.`)).toBe(false);
    await expect.poll(() => shows(PORT, `${id}.localhost`, '/', `Words published on schedule ${run}.`), { timeout: 10_000 }).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));
  });
});

test.describe('the studio on a cluster', () => {
  test.describe.configure({ mode: 'serial' });
  const dir = mkdtempSync(join(tmpdir(), 'loansites-studio-cluster-'));
  let redis: RunningRedis;
  let postgres: RunningPostgres;
  let databaseUrl: string;
  let a: Instance;
  let b: Instance;
  let nginx: RunningNginx;
  const consoleOf = (i: Instance) => `http://console.localhost:${i.port}`;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    [redis, postgres] = await Promise.all([startRedis({ port: await freePort(E2E_PORT + 3) }), startPostgres()]);
    databaseUrl = await postgres.createDatabase('studio_cluster');
    const env = { REDIS_URL: redis.url, DATABASE_URL: databaseUrl, LEAD_DESTINATIONS: '', LEADS_ENCRYPTION_KEY: 'd'.repeat(64) };
    // one after the other: both migrate on start
    a = await startInstance(await freePort(E2E_PORT + 4), env);
    b = await startInstance(await freePort(E2E_PORT + 5), env);
    nginx = await startNginx({ port: await freePort(E2E_PORT + 6), upstreams: [a.port, b.port] });
  });

  test.afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop(), nginx?.stop()]);
    await Promise.allSettled([redis?.stop(), postgres?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const FAQ = '/faqs';
  /** another brand's page, which a publish of ipaydayloans must leave in the cache */
  const OTHER = '/contact-us';
  const published = (n: number) => `Published on A, edit ${n} ${run}.`;

  test('a publish on A is served by B within 5 s, another brand stays a cache hit; restore brings the old text back', async ({ page }) => {
    test.setTimeout(120_000);
    // B has both brands' pages cached before the publish
    const warm: [string, string][] = [
      ['ipaydayloans.localhost', FAQ],
      ['cocoloan.localhost', OTHER],
    ];
    for (const [host, path] of warm) await expect.poll(async () => (await pageText(b.port, host, path)).cache).toBe('HIT');
    const before = (await pageText(b.port, 'ipaydayloans.localhost', FAQ)).body;

    await signIn(page, addUser('editor', '', databaseUrl), undefined, consoleOf(a));
    const opened = await studio(page, 'GET', 'brands/ipaydayloans');
    expect(opened.body).toMatchObject({ version: 0, publishedVersion: 0, fileChanged: false, canEdit: true });
    const doc = opened.body.document as { footer: { about: string } };
    const original = doc.footer.about;
    doc.footer.about = published(1);
    const saved = await studio(page, 'PUT', 'brands/ipaydayloans/draft', { document: doc, expectedVersion: 0 });
    expect(await studio(page, 'POST', 'brands/ipaydayloans/publish', { version: saved.body.version })).toMatchObject({ status: 200 });

    await expect.poll(async () => shows(b.port, 'ipaydayloans.localhost', FAQ, published(1)), { timeout: 5_000, intervals: [100] }).toBe(true);
    // through nginx too (its microcache lives 2 s)
    await expect.poll(async () => shows(nginx.port, 'ipaydayloans.localhost', FAQ, published(1)), { timeout: 5_000, intervals: [100] }).toBe(true);
    // another brand's page was not dropped: still a hit on B
    expect((await pageText(b.port, 'cocoloan.localhost', OTHER)).cache).toBe('HIT');

    const restored = await studio(page, 'POST', 'brands/ipaydayloans/restore', { version: 0 });
    expect(restored).toMatchObject({ status: 200 });
    await expect.poll(async () => shows(b.port, 'ipaydayloans.localhost', FAQ, published(1)), { timeout: 5_000, intervals: [100] }).toBe(false);
    expect((await pageText(b.port, 'ipaydayloans.localhost', FAQ)).body).toContain(original.slice(0, 40));
    expect(before).toContain(original.slice(0, 40));
  });

  test('two editors on A and B: the second save over the old version is a 409 showing the first one’s change', async ({ browser }) => {
    test.setTimeout(120_000);
    const [one, two] = await Promise.all([browser.newPage(), browser.newPage()]);
    await signIn(one, addUser('editor', '', databaseUrl), undefined, consoleOf(a));
    await signIn(two, addUser('editor', '', databaseUrl), undefined, consoleOf(b));
    const [mine, theirs] = await Promise.all([studio(one, 'GET', 'brands/cocoloan'), studio(two, 'GET', 'brands/cocoloan')]);
    const doc = (about: string) => ({ ...(mine.body.document as object), footer: { ...(mine.body.document as { footer: object }).footer, about } });
    expect(await studio(one, 'PUT', 'brands/cocoloan/draft', { document: doc('Editor one was first.'), expectedVersion: mine.body.version })).toMatchObject({
      status: 200,
    });
    const conflict = await studio(two, 'PUT', 'brands/cocoloan/draft', { document: doc('Editor two came second.'), expectedVersion: theirs.body.version });
    expect(conflict).toMatchObject({ status: 409, body: { current: { document: { footer: { about: 'Editor one was first.' } } } } });
    await Promise.all([one.close(), two.close()]);
  });

  test('an analyst sees the studio but cannot publish', async ({ page }) => {
    await signIn(page, addUser('analyst', '', databaseUrl), undefined, consoleOf(a));
    const opened = await studio(page, 'GET', 'brands/cocoloan');
    expect(opened.body).toMatchObject({ canEdit: false });
    expect(await studio(page, 'POST', 'brands/cocoloan/publish', { version: Number(opened.body.version) || 1 })).toMatchObject({ status: 403 });
    expect(await studio(page, 'PUT', 'brands/cocoloan/draft', { document: opened.body.document, expectedVersion: opened.body.version })).toMatchObject({
      status: 403,
    });
  });
});
