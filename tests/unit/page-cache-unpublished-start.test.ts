/**
 * An instance that starts while PostgreSQL is down serves each brand as its file — without what
 * the studio published since — until it can read the published documents. Its pages must not go
 * into the page cache the instances share: the others, which hold the published documents, would
 * serve the brand as it was before the publish. Against a real redis-server (two page caches: a
 * healthy instance and the one starting) and a real PostgreSQL 15 stopped and started again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { awaitingPublishedBrands, publishedBrandsKnown, publishedBrandsRead } from '../../engine/cache/brandRenders.mjs';
import { createPageCache } from '../../engine/cache/redisPageCache.mjs';
import { closeStore } from '../../engine/store/db';
import { stopLiveRevisions } from '../../engine/store/liveRevisions';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { startRedis, type RunningRedis } from '../support/redis';

type PageCache = {
  get(key: string, ctx: unknown): Promise<{ value: { html: string } } | null>;
  set(key: string, data: unknown, ctx: unknown): Promise<void>;
  close(): Promise<void>;
};
const page = (html: string) => ({ kind: 'PAGES', html, pageData: { html }, headers: undefined, status: 200 });
const setCtx = { cacheControl: { revalidate: 3600, expire: 31536000 }, isRoutePPREnabled: false, isFallback: false };
const getCtx = { kind: 'PAGES', isFallback: false };

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});

describe('an instance that has not read the published brands yet', () => {
  it('serves what the shared cache holds, and puts none of its own brand pages in it until it has read them', async () => {
    const said = vi.spyOn(console, 'log').mockImplementation(() => {});
    const prefix = `unpub-${Date.now()}:`;
    const healthy: PageCache = createPageCache({ redisUrl: redis.url, keyPrefix: prefix, localCopy: 'off' });
    const starting: PageCache = createPageCache({ redisUrl: redis.url, keyPrefix: prefix, localCopy: 'off' });
    try {
      await healthy.set('/_brand/acme/loans', page('<h1>published</h1>'), setCtx);
      awaitingPublishedBrands(); // the starting instance cannot read the store
      // what the others rendered, from the published document, is served
      expect((await starting.get('/_brand/acme/loans', getCtx))?.value.html).toBe('<h1>published</h1>');
      // its own renders, from the file, are answered but not shared: over an entry…
      await starting.set('/_brand/acme/loans', page('<h1>file</h1>'), setCtx);
      expect((await healthy.get('/_brand/acme/loans', getCtx))?.value.html).toBe('<h1>published</h1>');
      // …or where there was none
      await starting.set('/_brand/acme/rates', page('<h1>file</h1>'), setCtx);
      expect(await healthy.get('/_brand/acme/rates', getCtx)).toBeNull();

      publishedBrandsRead(); // the store answered: its brands are the published ones again
      await starting.set('/_brand/acme/rates', page('<h1>published rates</h1>'), setCtx);
      expect((await healthy.get('/_brand/acme/rates', getCtx))?.value.html).toBe('<h1>published rates</h1>');
    } finally {
      publishedBrandsRead();
      await Promise.all([healthy.close(), starting.close()]);
      said.mockRestore();
    }
  });
});

describe('the server watching the published brands (engine/site/brandLive.ts)', () => {
  const keep = mkdtempSync(join(tmpdir(), 'loansites-pg-unpub-'));
  let postgres: RunningPostgres | undefined;
  const saved = { url: process.env.DATABASE_URL, poll: process.env.REVISIONS_POLL_MS, redis: process.env.REDIS_URL };
  afterAll(async () => {
    await stopLiveRevisions();
    await closeStore();
    await postgres?.stop();
    rmSync(keep, { recursive: true, force: true });
    Object.assign(process.env, { DATABASE_URL: saved.url ?? '', REVISIONS_POLL_MS: saved.poll ?? '', REDIS_URL: saved.redis ?? '' });
  });

  it('takes the brands for published only once the store has answered', async () => {
    postgres = await startPostgres({ keep });
    const url = await postgres.createDatabase('unpublished_start');
    const port = postgres.port;
    await postgres.stop(); // down as the instance starts
    Object.assign(process.env, { DATABASE_URL: url, REVISIONS_POLL_MS: '200', REDIS_URL: '' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { watchBrandRevisions } = await import('../../engine/site/brandLive');
      await watchBrandRevisions({ waitMs: 3000 });
      await new Promise((resolve) => setTimeout(resolve, 1000)); // a few polls, each failing
      expect(publishedBrandsKnown()).toBe(false);
      postgres = await startPostgres({ keep, port });
      await expect.poll(() => publishedBrandsKnown(), { timeout: 20_000 }).toBe(true);
    } finally {
      logged.mockRestore();
    }
  }, 120_000);
});
