/**
 * The shared parts that live in Redis, against a real redis-server started with the shipped
 * deploy/redis.conf: the page cache handler as two instances see it, and the rate limiter.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createClient } from 'redis';
import { createPageCache } from '../../engine/cache/redisPageCache.mjs';
import { memoryRateLimiter } from '../../engine/http/rateLimit';
import { closeRateLimitRedis, redisRateLimiter } from '../../engine/http/redisRateLimit';
import { startRedis, type RunningRedis } from '../support/redis';

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await closeRateLimitRedis();
  await redis?.stop();
});

describe('deploy/redis.conf', () => {
  it('bounds memory with an LRU policy and announces writes, deletes, expiries and evictions', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    const config = await client.configGet('*');
    await client.quit();
    expect(Number(config.maxmemory)).toBeGreaterThan(0);
    expect(config['maxmemory-policy']).toBe('allkeys-lru');
    for (const c of 'E$gxe') expect(config['notify-keyspace-events']).toContain(c);
  });
});

type PageCache = {
  get(key: string, ctx: unknown): Promise<{ value: { html: string }; cacheControl?: unknown } | null>;
  set(key: string, data: unknown, ctx: unknown): Promise<void>;
  localCopyActive: boolean;
  close(): Promise<void>;
};
const page = (html: string) => ({ kind: 'PAGES', html, pageData: { html }, headers: undefined, status: 200 });
const lifetime = { revalidate: 3600, expire: 31536000 };

describe('the page cache as two instances share it', () => {
  const prefix = `test-${Date.now()}:`;
  let a: PageCache;
  let b: PageCache;
  beforeAll(() => {
    a = createPageCache({ redisUrl: redis.url, keyPrefix: prefix, localCopy: 'off' });
    b = createPageCache({ redisUrl: redis.url, keyPrefix: prefix, localCopy: 'keyspace' });
  });
  // Before Redis stops: a connection left open retries and logs after the file has ended.
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('a page stored by one instance is read by the other, with its lifetime', async () => {
    await a.set('/_brand/x/one', page('<h1>one</h1>'), { cacheControl: lifetime, isRoutePPREnabled: false, isFallback: false });
    const got = await b.get('/_brand/x/one', { kind: 'PAGES', isFallback: false });
    expect(got?.value.html).toBe('<h1>one</h1>');
    expect(got?.cacheControl).toEqual(lifetime);
    expect(got?.value).not.toHaveProperty('__loansitesCacheControl');
  });

  it('the local copy is dropped as soon as another instance writes the page', async () => {
    await expect.poll(() => b.localCopyActive).toBe(true);
    await a.set('/_brand/x/two', page('v1'), { cacheControl: lifetime });
    expect((await b.get('/_brand/x/two', { kind: 'PAGES' }))?.value.html).toBe('v1');
    expect((await b.get('/_brand/x/two', { kind: 'PAGES' }))?.value.html).toBe('v1'); // from the copy
    await a.set('/_brand/x/two', page('v2'), { cacheControl: lifetime });
    await expect.poll(async () => (await b.get('/_brand/x/two', { kind: 'PAGES' }))?.value.html).toBe('v2');
    // …and when Redis deletes it (revalidation by tag, eviction): gone from the copy too.
    const client = createClient({ url: redis.url });
    await client.connect();
    await client.del(`${prefix}/_brand/x/two`);
    await client.quit();
    await expect.poll(async () => (await b.get('/_brand/x/two', { kind: 'PAGES' }))?.value.html ?? null).toBe(null);
  });
});

describe('rate limits counted in Redis', () => {
  const rule = { name: `t${Date.now()}`, limit: 3, windowMs: 1500 };

  it('two instances count one allowance per client, and the window resets', async () => {
    const one = redisRateLimiter(rule, { url: redis.url, fallback: memoryRateLimiter(rule) });
    const two = redisRateLimiter(rule, { url: redis.url, fallback: memoryRateLimiter(rule) });
    const seen = [await one.hit('1.2.3.4'), await two.hit('1.2.3.4'), await one.hit('1.2.3.4'), await two.hit('1.2.3.4')];
    expect(seen.map((d) => d.ok)).toEqual([true, true, true, false]);
    expect(seen.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(seen[3]!.retryAfter).toBeGreaterThanOrEqual(1);
    expect((await two.hit('5.6.7.8')).ok).toBe(true); // another client, its own allowance
    await expect.poll(async () => (await one.hit('1.2.3.4')).ok, { timeout: 5000, interval: 300 }).toBe(true);
  });

  it('counts an IPv6 client per /64 and an IPv4-mapped address as the IPv4 one, across instances', async () => {
    const r = { ...rule, name: `${rule.name}-v6`, windowMs: 60_000 };
    const one = redisRateLimiter(r, { url: redis.url, fallback: memoryRateLimiter(r) });
    const two = redisRateLimiter(r, { url: redis.url, fallback: memoryRateLimiter(r) });
    const v6 = [await one.hit('2001:db8:5:6::1'), await two.hit('2001:db8:5:6::2'), await one.hit('2001:db8:5:6:a:b:c:d'), await two.hit('2001:db8:5:6::ffff')];
    expect(v6.map((d) => d.ok)).toEqual([true, true, true, false]);
    expect((await one.hit('2001:db8:5:7::1')).ok).toBe(true); // the next /64 is another client
    const v4 = [await one.hit('192.0.2.9'), await two.hit('::ffff:192.0.2.9'), await one.hit('::ffff:c000:209'), await two.hit('192.0.2.9')];
    expect(v4.map((d) => d.ok)).toEqual([true, true, true, false]);
    const client = createClient({ url: redis.url });
    await client.connect();
    const keys = await client.keys(`loansites:rate:${r.name}:*`);
    await client.quit();
    expect(keys.sort()).toEqual([
      `loansites:rate:${r.name}:192.0.2.9`,
      `loansites:rate:${r.name}:2001:db8:5:6::/64`,
      `loansites:rate:${r.name}:2001:db8:5:7::/64`,
    ]);
  });

  it('a pause of this process longer than the timeout (a long render, a collection) does not count the request in the process: Redis answered in time', async () => {
    const r = { ...rule, name: `${rule.name}-paused`, limit: 1, windowMs: 60_000 };
    const one = redisRateLimiter(r, { url: redis.url, fallback: memoryRateLimiter(r), timeoutMs: 200 });
    const two = redisRateLimiter(r, { url: redis.url, fallback: memoryRateLimiter(r), timeoutMs: 200 });
    expect((await two.hit('7.7.7.7')).ok).toBe(true); // the client's allowance is used, in Redis
    const pending = one.hit('7.7.7.7');
    const until = Date.now() + 450;
    while (Date.now() < until); // the event loop is held, as by a render or a collection
    // Counted in this process, the client would have its own fresh allowance here.
    expect((await pending).ok).toBe(false);
  });

  it('a Redis that accepts the connection but does not answer: counted in the process, the log says so once, and then why the connection failed', async () => {
    const held = new Set<Socket>();
    const silent = createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const r = { ...rule, name: `${rule.name}-silent`, limit: 2, windowMs: 60_000 };
    await closeRateLimitRedis();
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const url = `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const limiter = redisRateLimiter(r, { url, fallback: memoryRateLimiter(r), timeoutMs: 100 });
      const decisions = [await limiter.hit('8.8.4.4'), await limiter.hit('8.8.4.4'), await limiter.hit('8.8.4.4')];
      expect(decisions.map((d) => d.ok)).toEqual([true, true, false]);
      const notes = said.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('not connected'));
      expect(notes).toEqual(['[rate-limit] Redis not connected within 100 ms: counting in this process until it is']);
      // When the connection then fails, its reason is still said.
      for (const socket of held) socket.destroy();
      await expect.poll(() => said.mock.calls.some((c) => String(c[0]).startsWith('[rate-limit] Redis unavailable'))).toBe(true);
    } finally {
      said.mockRestore();
      await closeRateLimitRedis();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('with Redis gone, requests are counted by the process instead of failing', async () => {
    const other = await startRedis();
    const r = { ...rule, name: `${rule.name}-down` };
    await closeRateLimitRedis();
    const limiter = redisRateLimiter(r, { url: other.url, fallback: memoryRateLimiter(r), timeoutMs: 300 });
    expect((await limiter.hit('9.9.9.9')).ok).toBe(true);
    await other.stop();
    const started = Date.now();
    const decisions = [await limiter.hit('9.9.9.9'), await limiter.hit('9.9.9.9'), await limiter.hit('9.9.9.9'), await limiter.hit('9.9.9.9')];
    expect(Date.now() - started).toBeLessThan(3000);
    expect(decisions.map((d) => d.ok)).toEqual([true, true, true, false]);
    await closeRateLimitRedis();
  });
});
