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
import { createClient } from 'redis';
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
    /** with Redis, a second instance on the same Redis (and the same content service) */
    let other: Instance | undefined;

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      index = loadContent(join(process.cwd(), 'tests/fixtures/content'));
      cms = await startStrapiServer({ index, token: TOKEN });
      if (mode === 'the page cache in Redis') redis = await startRedis({ port: await freePort(E2E_PORT + 3) });
      port = await freePort(E2E_PORT + 300);
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
      if (redis)
        other = await startInstance(await freePort(E2E_PORT + 301), {
          LOANSITES_DB_FILE: join(dir, 'other.sqlite'),
          DATABASE_URL: '',
          LEAD_DESTINATIONS: '',
          CONTENT_GRAPHQL_URL: cms.url,
          CONTENT_GRAPHQL_TOKEN: TOKEN,
          REVALIDATE_SECRET,
          WARM_UP_PAGES: '0',
          REDIS_URL: redis.url,
        });
      db = openStore({ file });
      // a brand page rendered by Next first: on its own cache the instance renders the next misses itself (engine/http/coldPageRender.mjs)
      expect((await rawGet('/', HOST, { port })).status).toBe(200);
    });

    test.afterAll(async () => {
      await Promise.allSettled([instance?.stop(), other?.stop()]);
      await db?.destroy();
      await cms?.close();
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The instance's counters: pages it rendered itself (its own cache only: with Redis, Next renders every miss), changes it noted. */
    const counters = async () =>
      JSON.parse((await rawGet('/__page-cache', 'localhost', { port })).body) as { renderedDirect?: number; changesSeen: number; lastChange: string };
    const renderedDirect = async () => (await counters()).renderedDirect ?? 0;

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

    if (mode === 'the page cache in Redis')
      test('a render under way on this instance when the webhook reaches another is not kept here either; noise on the channel changes nothing', async () => {
        const path = '/answers/fixture-answer';
        const answers = index.entries.get('answer')!;
        const at = answers.findIndex((e) => e.attributes.slug === 'fixture-answer');
        const before = answers[at]!.attributes.h1;
        const corrected = 'Does checking my options change my credit score? (told by another instance)';
        // the answer's render is under way here, its first query (the answer) answered with the content as it was
        const hold = cms.hold(1);
        const first = rawGet(path, HOST, { port });
        await hold.arrived;
        const seen = (await counters()).changesSeen;

        // the CMS corrects the answer and calls the webhook on the other instance, which renders and shares the new page
        answers[at] = { ...answers[at]!, attributes: { ...answers[at]!.attributes, h1: corrected } };
        const hook = await rawRequest(other!.port, 'POST', '/api/revalidate', HOST, JSON.stringify({ brand: 'ipaydayloans', paths: [path] }), {
          'content-type': 'application/json',
          'x-revalidate-secret': REVALIDATE_SECRET,
        });
        expect(hook.status, hook.body).toBe(200);
        // this instance heard of it
        await expect.poll(async () => (await counters()).changesSeen).toBeGreaterThan(seen);

        hold.release();
        const rendered = await first;
        expect(rendered.status).toBe(200);
        // made from the content it read first: the case this test is about did happen
        expect(rendered.body.includes(before)).toBe(true);
        // the next visitor, on either instance: the corrected answer
        for (const p of [port, other!.port]) expect((await rawGet(path, HOST, { port: p })).body.includes(corrected), instance.log().slice(-2000)).toBe(true);

        // what is not an announcement of a brand page, said on the same channel, is not heard as one
        const heard = (await counters()).changesSeen;
        const client = createClient({ url: redis!.url });
        await client.connect();
        try {
          for (const noise of [
            '{',
            '{"topic":"page-changed","body":"/etc/passwd","from":"x"}',
            '{"topic":"page-changed","body":42,"from":"x"}',
            JSON.stringify({ topic: 'page-changed', body: `/_brand/ipaydayloans/${'a'.repeat(5000)}`, from: 'x' }),
            'no-such-kind',
          ])
            await client.publish('loansites:revisions', noise);
          // a real one after them: once it is heard, they were all read (one channel keeps its order)
          await client.publish('loansites:revisions', JSON.stringify({ topic: 'page-changed', body: '/_brand/ipaydayloans/faqs', from: 'x' }));
        } finally {
          await client.quit();
        }
        await expect.poll(async () => (await counters()).lastChange).toBe('/_brand/ipaydayloans/faqs');
        expect((await counters()).changesSeen).toBe(heard + 1);
        expect((await rawGet('/faqs', HOST, { port })).status).toBe(200);
      });
  });
}
