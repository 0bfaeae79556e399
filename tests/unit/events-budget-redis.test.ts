/**
 * The site's ingest budget is one budget for the whole cluster: counted in a real redis-server,
 * two instances charging batches of events (not requests) against it see the same total, and the
 * window's end gives the budget back.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

it('two instances charging 200-event batches against a budget of 500 share it: the third batch is refused, then the window resets', async () => {
  const rule = { name: `budget${Date.now()}`, limit: 500, windowMs: 1500 };
  const one = redisRateLimiter(rule, { url: redis.url, fallback: memoryRateLimiter(rule) });
  const two = redisRateLimiter(rule, { url: redis.url, fallback: memoryRateLimiter(rule) });
  // until the process's connection is up (before it, a hit is counted in the process instead)
  const client = createClient({ url: redis.url });
  await client.connect();
  await expect.poll(async () => (await one.hit('warm-up'), client.exists(`loansites:rate:${rule.name}:warm-up`))).toBe(1);
  await client.quit();
  const seen = [await one.hit('all', undefined, 200), await two.hit('all', undefined, 200), await one.hit('all', undefined, 200)];
  expect(seen.map((d) => d.ok)).toEqual([true, true, false]);
  expect(seen.map((d) => d.remaining)).toEqual([300, 100, 0]);
  expect(seen[2]!.retryAfter).toBeGreaterThanOrEqual(1);
  await expect.poll(async () => (await two.hit('all', undefined, 200)).ok, { timeout: 5000, interval: 300 }).toBe(true);
});
