/**
 * The shared page cache when Redis is not there (engine/cache/redisPageCache.mjs): a server
 * started before Redis, or one whose Redis goes away, keeps answering — every request a miss at
 * once (Next renders the page), nothing stored, one log line per change — and uses Redis again
 * as soon as it is back. Against a real redis-server started late on the port the cache was given.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createPageCache } from '../../engine/cache/redisPageCache.mjs';
import { freePort } from '../support/ports';
import { startRedis, type RunningRedis } from '../support/redis';

type Entry = { value: { html: string } } | null;
type PageCache = {
  get(key: string, ctx: unknown): Promise<Entry>;
  set(key: string, data: unknown, ctx: unknown): Promise<void>;
  revalidateTag(tag: string | string[]): Promise<void>;
  close(): Promise<void>;
};

const page = (v: number) => ({ kind: 'PAGES', html: `<h1>v${v}</h1>`, pageData: { v }, headers: undefined, status: 200 });
const setCtx = { cacheControl: { revalidate: 3600, expire: 31536000 }, isRoutePPREnabled: false, isFallback: false };
const getCtx = { kind: 'PAGES', isFallback: false };

let redis: RunningRedis | undefined;
let cache: PageCache | undefined;
afterAll(async () => {
  // The cache's connection first: left retrying, it logs after the file ends and fails the run.
  await cache?.close();
  await redis?.stop();
});

describe('a page cache whose Redis is not there yet', () => {
  it('answers every read as a miss without waiting for a connection, stores nothing, says so once, and uses Redis once it is up', async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.map(String).join(' ')));
    try {
      const port = await freePort();
      const made = createPageCache({ redisUrl: `redis://127.0.0.1:${port}`, keyPrefix: 'down:' }) as PageCache;
      cache = made;
      // The library alone waits up to 30 s per request for a connection; the test's 20 s limit would end first.
      for (let i = 0; i < 20; i++) expect(await made.get('/_brand/x/a', getCtx)).toBeNull();
      await made.set('/_brand/x/a', page(1), setCtx);
      expect(await made.get('/_brand/x/a', getCtx)).toBeNull();
      await expect(made.revalidateTag('_N_T_/_brand/x/a')).rejects.toThrow(/unreachable/);
      expect(errors.filter((e) => e.includes('[page-cache] Redis is unreachable'))).toHaveLength(1);

      redis = await startRedis({ port });
      await expect
        .poll(async () => {
          await made.set('/_brand/x/a', page(2), setCtx);
          return (await made.get('/_brand/x/a', getCtx))?.value.html;
        })
        .toBe('<h1>v2</h1>');
    } finally {
      spy.mockRestore();
    }
  }, 20_000);
});
