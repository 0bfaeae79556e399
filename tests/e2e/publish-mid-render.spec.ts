/**
 * A brand published while one of its pages is being rendered: the page made from the old document
 * still reaches the visitor who asked for it, but it is not kept in the page cache — the next
 * visitor sees the published words at once, not the old page for the cache's hour. On an instance
 * with its own page cache and on one with the shared cache in Redis. The render is held in the
 * middle by the content service (a Strapi-shaped stand-in), which answers when the test says so;
 * the publication is written to the instance's store as the studio writes it, and the instance
 * takes it at its next poll.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { loadContent } from '../../engine/content/embedded';
import { brandFile, publishBrand, saveBrandDraft } from '../../engine/store/brandRevisions';
import { openStore } from '../../engine/store/db';
import type { Brand } from '../../schemas/brand.types';
import { startInstance } from '../support/instances';
import { freePort } from '../support/ports';
import { startRedis, type RunningRedis } from '../support/redis';
import { startStrapiServer } from '../support/strapi-server';
import { rawGet } from './helpers';

const HOST = 'ipaydayloans.localhost';
const TOKEN = 'e2e-token';

for (const mode of ['its own page cache', 'the page cache in Redis'] as const) {
  test(`on an instance with ${mode}: a page whose render began before a publish is not kept, the next visitor sees the new words`, async () => {
    test.setTimeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'loansites-mid-render-'));
    const file = join(dir, 'store.sqlite');
    const cms = await startStrapiServer({ index: loadContent(join(process.cwd(), 'tests/fixtures/content')), token: TOKEN });
    let redis: RunningRedis | undefined;
    const db = openStore({ file });
    try {
      if (mode === 'the page cache in Redis') redis = await startRedis({ port: await freePort(E2E_PORT + 3) });
      const port = await freePort(E2E_PORT + 60);
      const instance = await startInstance(port, {
        LOANSITES_DB_FILE: file,
        DATABASE_URL: '',
        LEAD_DESTINATIONS: '',
        CONTENT_GRAPHQL_URL: cms.url,
        CONTENT_GRAPHQL_TOKEN: TOKEN,
        REVISIONS_POLL_MS: '100',
        // nothing rendered at start: the blog page is a miss when the test asks for it
        WARM_UP_PAGES: '0',
        PAGE_CACHE_STATS: '1',
        ...(redis ? { REDIS_URL: redis.url } : {}),
      });
      try {
        const now = `Words published during a render, ${mode}.`;
        // a brand page rendered by Next first: on its own cache the instance renders the next misses itself (engine/http/coldPageRender.mjs)
        expect((await rawGet('/', HOST, { port })).status).toBe(200);
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

        const direct = async () =>
          ((JSON.parse((await rawGet('/__page-cache', 'localhost', { port })).body) ?? {}) as { renderedDirect?: number }).renderedDirect;
        const before = await direct();
        hold.release();
        const rendered = await first;
        // on its own cache, the held page was one the instance rendered itself, not Next
        if (!redis) expect((await direct()) ?? 0).toBe((before ?? 0) + 1);
        expect(rendered.status).toBe(200);
        // made from the document it began with: the case this test is about did happen
        expect(rendered.body.includes(now)).toBe(false);
        // the next visitor: the published words, at once
        const next = await rawGet('/blog', HOST, { port });
        expect(next.status).toBe(200);
        expect(next.body.includes(now), instance.log().slice(-2000)).toBe(true);
      } finally {
        await instance.stop();
      }
    } finally {
      await db.destroy();
      await cms.close();
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
