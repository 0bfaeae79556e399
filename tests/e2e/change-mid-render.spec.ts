/**
 * What a page shows changes while the page is being rendered — its brand is published, or the CMS
 * webhook says its content changed: the page made from what was there before still reaches the
 * visitor who asked for it, but it is not kept in the page cache, and the next visitor sees the
 * change at once, not the old page for the cache's hour. On an instance with its own page cache
 * and on one with the shared cache in Redis. The render is held in the middle by the content
 * service (a Strapi-shaped stand-in), which answers when the test says so, with the content as it
 * was when asked; the publication is written to the instance's store as the studio writes it, and
 * the instance takes it at its next poll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { loadContent, type ContentIndex } from '../../engine/content/embedded';
import { brandFile, publishBrand, saveBrandDraft } from '../../engine/store/brandRevisions';
import { openStore, type Store } from '../../engine/store/db';
import type { Brand } from '../../schemas/brand.types';
import { startInstance, type Instance } from '../support/instances';
import { freePort } from '../support/ports';
import { rawRequest } from '../support/rawRequest';
import { startRedis, type RunningRedis } from '../support/redis';
import { startStrapiServer, type RunningServer } from '../support/strapi-server';
import { rawGet } from './helpers';

const HOST = 'ipaydayloans.localhost';
const TOKEN = 'e2e-token';
const REVALIDATE_SECRET = 'e2e-revalidate-secret';

for (const mode of ['its own page cache', 'the page cache in Redis'] as const) {
  test.describe(`an instance with ${mode}`, () => {
    test.describe.configure({ mode: 'serial' });
    const dir = mkdtempSync(join(tmpdir(), 'loansites-mid-render-'));
    const file = join(dir, 'store.sqlite');
    let index: ContentIndex;
    let cms: RunningServer;
    let redis: RunningRedis | undefined;
    let db: Store;
    let instance: Instance;
    let port: number;

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      index = loadContent(join(process.cwd(), 'tests/fixtures/content'));
      cms = await startStrapiServer({ index, token: TOKEN });
      if (mode === 'the page cache in Redis') redis = await startRedis({ port: await freePort(E2E_PORT + 3) });
      port = await freePort(E2E_PORT + 60);
      instance = await startInstance(port, {
        LOANSITES_DB_FILE: file,
        DATABASE_URL: '',
        LEAD_DESTINATIONS: '',
        CONTENT_GRAPHQL_URL: cms.url,
        CONTENT_GRAPHQL_TOKEN: TOKEN,
        REVALIDATE_SECRET,
        REVISIONS_POLL_MS: '100',
        // nothing rendered at start: the pages below are misses when the tests ask for them
        WARM_UP_PAGES: '0',
        PAGE_CACHE_STATS: '1',
        ...(redis ? { REDIS_URL: redis.url } : {}),
      });
      db = openStore({ file });
      // a brand page rendered by Next first: on its own cache the instance renders the next misses itself (engine/http/coldPageRender.mjs)
      expect((await rawGet('/', HOST, { port })).status).toBe(200);
    });

    test.afterAll(async () => {
      await instance?.stop();
      await db?.destroy();
      await cms?.close();
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Pages the instance rendered itself (its own cache only: with Redis, Next renders every miss). */
    const renderedDirect = async () =>
      ((JSON.parse((await rawGet('/__page-cache', 'localhost', { port })).body) ?? {}) as { renderedDirect?: number }).renderedDirect ?? 0;

    test('a page whose render began before its brand was published is not kept: the next visitor sees the new words', async () => {
      const now = `Words published during a render, ${mode}.`;
      // the blog's render is under way, waiting for its articles
      const hold = cms.hold();
      const first = rawGet('/blog', HOST, { port });
      await hold.arrived;

      const doc = JSON.parse(brandFile('ipaydayloans')!.text) as Brand;
      doc.footer.about = now;
      const draft = await saveBrandDraft(db, { id: 'ipaydayloans', document: doc, expectedVersion: 0, author: 'e2e' });
      await publishBrand(db, { id: 'ipaydayloans', version: draft.version, author: 'e2e' });
      // the instance serves the new document (another page of the brand shows it)
      await expect.poll(async () => (await rawGet('/faqs', HOST, { port })).body.includes(now), { timeout: 10_000 }).toBe(true);

      const direct = await renderedDirect();
      hold.release();
      const rendered = await first;
      // on its own cache, the held page was one the instance rendered itself, not Next
      if (!redis) expect(await renderedDirect()).toBe(direct + 1);
      expect(rendered.status).toBe(200);
      // made from the document it began with: the case this test is about did happen
      expect(rendered.body.includes(now)).toBe(false);
      // the next visitor: the published words, at once
      const next = await rawGet('/blog', HOST, { port });
      expect(next.status).toBe(200);
      expect(next.body.includes(now), instance.log().slice(-2000)).toBe(true);
    });

    test('a page whose render read its content before the CMS webhook revalidated it is not kept: the next visitor sees the new content', async () => {
      const path = '/answers';
      const before = 'Does checking my options affect my credit score?';
      const corrected = `Does checking my options change my credit score? (${mode})`;
      // the answers page's render is under way: its one query answered with the content as it was, and held
      const hold = cms.hold(1);
      const first = rawGet(path, HOST, { port });
      await hold.arrived;

      // the CMS corrects the answer and calls the webhook
      const answers = index.entries.get('answer')!;
      const at = answers.findIndex((e) => e.attributes.slug === 'fixture-answer');
      answers[at] = { ...answers[at]!, attributes: { ...answers[at]!.attributes, h1: corrected } };
      const hook = rawRequest(port, 'POST', '/api/revalidate', HOST, JSON.stringify({ brand: 'ipaydayloans', paths: [path] }), {
        'content-type': 'application/json',
        'x-revalidate-secret': REVALIDATE_SECRET,
      });
      // On its own cache the instance rendered the held page itself, so the webhook's render is one
      // of its own, stored before the held one ends. With Redis, Next renders every miss, and a
      // revalidation of a page it is rendering waits for that render: the held one ends first.
      if (!redis) expect((await hook).status).toBe(200);
      hold.release();
      const answered = await hook;
      expect(answered.status, answered.body).toBe(200);
      expect(JSON.parse(answered.body)).toEqual({ revalidated: [path], failed: [] });
      const rendered = await first;
      expect(rendered.status).toBe(200);
      // made from the content it read first: the case this test is about did happen
      expect(rendered.body.includes(before)).toBe(true);
      // the next visitor: the corrected answer
      const next = await rawGet(path, HOST, { port });
      expect(next.status).toBe(200);
      expect(next.body.includes(corrected), instance.log().slice(-2000)).toBe(true);
    });
  });
}
