/**
 * A page cache whose Redis goes away just after it connected (engine/cache/pathOnlyRedisHandler.mjs):
 * the process must not see an unhandled rejection — under Node's default that ends the server.
 * The library's tag maps used to open a subscriber connection each and reject, unheard, when
 * Redis vanished while they subscribed; the handler now keeps the one connection it reads and
 * writes pages with. Against real redis-servers, killed at the moment the cache is ready.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from 'redis';
import { createPageCache } from '../../engine/cache/redisPageCache.mjs';
import { startRedis, type RunningRedis } from '../support/redis';

type PageCache = {
  get(key: string, ctx: unknown): Promise<{ value: { html: string } } | null>;
  set(key: string, data: unknown, ctx: unknown): Promise<void>;
  close(): Promise<void>;
};
const page = { kind: 'PAGES', html: '<h1>up</h1>', pageData: {}, headers: undefined, status: 200 };
const setCtx = { cacheControl: { revalidate: 3600, expire: 31536000 }, isRoutePPREnabled: false, isFallback: false };
const getCtx = { kind: 'PAGES', isFallback: false };

const started: RunningRedis[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.stop()));
});

describe('a page cache whose Redis is lost right after it connected', () => {
  it('holds one connection to Redis, and losing Redis then leaves no unhandled rejection', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const caches: PageCache[] = [];
    try {
      for (let round = 0; round < 5; round++) {
        const redis = await startRedis();
        started.push(redis);
        const inspector = createClient({ url: redis.url });
        await inspector.connect();
        const connectionsMade = async () => Number(/total_connections_received:(\d+)/.exec(await inspector.info('stats'))![1]);
        const before = await connectionsMade();
        const cache: PageCache = createPageCache({ redisUrl: redis.url, keyPrefix: `lost${round}:` });
        await expect
          .poll(async () => {
            await cache.set('/_brand/x/a', page, setCtx);
            return (await cache.get('/_brand/x/a', getCtx))?.value.html;
          })
          .toBe('<h1>up</h1>');
        // The cache opened one connection, the one it reads and writes pages with — no
        // subscribers that could fail on their own.
        expect((await connectionsMade()) - before).toBe(1);
        await inspector.quit();
        await redis.stop(); // SIGKILL, the moment the cache is ready
        // The cache notices: reads are misses again, without waiting for a connection.
        await expect.poll(() => cache.get('/_brand/x/a', getCtx), { timeout: 5000 }).toBeNull();
        caches.push(cache);
      }
      // Give anything the loss set off the time it takes a reconnect attempt to fail.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(rejections).toEqual([]);
      // Closing a connection that is still retrying must not wait for a Redis that is gone.
      await Promise.all(caches.splice(0).map((c) => c.close()));
    } finally {
      await Promise.all(caches.map((c) => c.close()));
      process.off('unhandledRejection', onRejection);
      logged.mockRestore();
    }
  }, 30_000);
});
