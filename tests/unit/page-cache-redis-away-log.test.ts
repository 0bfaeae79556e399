/**
 * A page cache whose Redis stays away (engine/cache/pathOnlyRedisHandler.mjs): the connection keeps
 * retrying, and the log says once that Redis is unreachable and why — not once per attempt, with a
 * stack trace each (two a second, for as long as Redis is away) — and says when it is back.
 */
import { expect, it, vi } from 'vitest';
import { createPageCache } from '../../engine/cache/redisPageCache.mjs';
import { startRedis } from '../support/redis';

type PageCache = { get(key: string, ctx: unknown): Promise<unknown>; close(): Promise<void> };
const getCtx = { kind: 'PAGES', isFallback: false };

it('a Redis that stays away is logged once per absence, not at every reconnection attempt', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  const said = vi.spyOn(console, 'log').mockImplementation(() => {});
  let redis = await startRedis();
  const port = redis.port;
  const cache: PageCache = createPageCache({ redisUrl: redis.url, keyPrefix: 'away:' });
  try {
    await expect.poll(() => said.mock.calls.some((c) => String(c[0]).startsWith('[page-cache] Redis page cache'))).toBe(true);
    await cache.get('/_brand/x/a', getCtx);
    await redis.stop();
    await expect.poll(() => cache.get('/_brand/x/a', getCtx), { timeout: 5000 }).toBeNull();
    // several reconnection attempts' time
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const lines = logged.mock.calls.map((c) => c.map(String).join(' '));
    expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(3);
    // the reason, once
    expect(
      lines.filter((l) => l.startsWith('[page-cache] Redis connection error (retrying until it answers): ')),
      lines.join('\n'),
    ).toHaveLength(1);
    // and once Redis is back, the cache uses it again
    redis = await startRedis({ port });
    await expect
      .poll(
        async () => {
          await cache.get('/_brand/x/a', getCtx);
          return said.mock.calls.some((c) => String(c[0]).includes('Redis is reachable again'));
        },
        { timeout: 8000 },
      )
      .toBe(true);
  } finally {
    await cache.close();
    await redis.stop();
    logged.mockRestore();
    said.mockRestore();
  }
}, 20_000);
