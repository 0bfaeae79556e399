/**
 * npm run bench:cache-memory — what the shared page cache keeps per page besides the page
 * itself, before (the library's RedisStringsHandler as the wrapper used it, keeping a tag index
 * per page) and after (engine/cache/pathOnlyRedisHandler.mjs). Real redis-server (deploy/redis.conf,
 * maxmemory raised so nothing is evicted while counting), two "instances" in this process.
 *
 * Per page: Redis bytes beyond the same keys holding the same values as plain strings; heap
 * bytes per instance (forced GC); Redis commands per set(); and what a new instance does at
 * start with the pages already in Redis (SCAN / HSCAN calls). Then the projection for
 * 12 brands × 120,000 pages, and for the pages a 512 MB Redis holds.
 *
 *   npm run bench:cache-memory [-- --pages 20000]
 */
import './check-node.cjs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient } from 'redis';
import { RedisStringsHandler, jsonCacheValueSerializer } from '@trieb.work/nextjs-turbo-redis-cache';
import { PathOnlyRedisHandler } from '../engine/cache/pathOnlyRedisHandler.mjs';
import { startRedis } from '../tests/support/redis';

type Handler = { set(k: string, d: unknown, c: object): Promise<void>; get(k: string, c: object): Promise<unknown> };
const FULL_SCALE = 12 * 120_000;
const AVG_PAGE_BYTES = 60 * 1024; // a brand page in Redis: 40–120 KB (deploy/redis.conf)

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
};
const path = (i: number) => `/_brand/ipaydayloans/location/tx/city-number-${i}`;
const page = (i: number) => ({ kind: 'PAGES', html: `<p>${i}</p>`, pageData: { pageProps: { i } }, headers: undefined, status: 200 });
const ctx = () => ({ cacheControl: { revalidate: 3600, expire: 31536000 }, isRoutePPREnabled: false, isFallback: false });
const settle = () => new Promise((r) => setTimeout(r, 500));

const variants: Record<string, (o: object) => Handler> = {
  'before (library as wrapped until now)': (o) => new RedisStringsHandler({ ...o, inMemoryCachingTime: 0, redisGetDeduplication: false }) as unknown as Handler,
  'after (pathOnlyRedisHandler)': (o) => new PathOnlyRedisHandler(o) as Handler,
};

/** The report's lines (also printed by npm run bench:deploy). */
export async function benchPageCacheMemory(PAGES = 20_000): Promise<string[]> {
  const redis = await startRedis({ maxmemory: '2gb' });
  const client = createClient({ url: redis.url });
  await client.connect();
  const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
  const calls = async () => {
    const stats = await client.info('commandstats');
    return Object.fromEntries([...stats.matchAll(/cmdstat_([\w|]+):calls=(\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
  };
  const evicted = async () => Number(/evicted_keys:(\d+)/.exec(await client.info('stats'))![1]);
  const diff = (a: Record<string, number>, b: Record<string, number>) =>
    Object.entries(b)
      .map(([k, v]) => [k, v - (a[k] ?? 0)] as const)
      .filter(([k, v]) => v > 0 && !['info', 'config|get', 'ping', 'client|list'].includes(k));
  const lines = [`== The page cache's own bookkeeping (${PAGES} pages, two instances in one process, redis-server ${redis.port})`];

  // Baseline: the same keys holding the same serialized entries as plain strings.
  const entry = async (i: number) => jsonCacheValueSerializer.serialize({ lastModified: Date.now(), tags: [`_N_T_${path(i)}`], value: page(i) });
  const before = await used();
  for (let i = 0; i < PAGES; i += 500)
    await Promise.all(Array.from({ length: 500 }, async (_, k) => client.set(`base:${path(i + k)}`, await entry(i + k), { EX: 31536000 })));
  const plainPerPage = ((await used()) - before) / PAGES;
  await client.flushAll();
  lines.push(`plain string per page (key + entry, the floor): ${plainPerPage.toFixed(0)} B`);

  for (const [name, make] of Object.entries(variants)) {
    await client.flushAll();
    const prefix = `m${Date.now()}:`;
    const a = make({ redisUrl: redis.url, database: 0, keyPrefix: prefix });
    const b = make({ redisUrl: redis.url, database: 0, keyPrefix: prefix });
    await a.set('/warm', page(0), ctx());
    await b.get('/warm', { kind: 'PAGES' });
    await settle();
    const [heap0, mem0, calls0] = [heap(), await used(), await calls()];
    for (let i = 0; i < PAGES; i += 250) await Promise.all(Array.from({ length: 250 }, (_, k) => a.set(path(i + k), page(i + k), ctx())));
    await settle(); // the other instance hears the inserts
    const [heap1, mem1, calls1] = [heap(), await used(), await calls()];
    // A third instance starting with the pages already in Redis.
    const c0 = await calls();
    const c = make({ redisUrl: redis.url, database: 0, keyPrefix: prefix });
    await c.get(path(1), { kind: 'PAGES' });
    await settle();
    const startCalls = diff(c0, await calls()).filter(([k]) => /scan/.test(k));
    // Evictions: Redis made full, half as many pages again written.
    await client.configSet('maxmemory', String((await used()) + 1024 * 1024));
    const [e0, ev0] = [await calls(), await evicted()];
    let refused = 0;
    for (let i = PAGES; i < PAGES * 1.5; i += 250)
      await Promise.all(Array.from({ length: 250 }, (_, k) => a.set(path(i + k), page(i + k), ctx()).catch(() => refused++)));
    await settle();
    const evictions = (await evicted()) - ev0;
    const perEviction = diff(e0, await calls())
      .filter(([k]) => k !== 'set' && k !== 'publish' && k !== 'hset')
      .map(([k, v]) => `${k} ${(v / evictions).toFixed(2)}`);
    await client.configSet('maxmemory', '2gb');
    const redisPerPage = (mem1 - mem0) / PAGES - plainPerPage;
    const heapPerPage = (heap1 - heap0) / PAGES / 2;
    const perSet = diff(calls0, calls1).map(([k, v]) => `${k} ${(v / PAGES).toFixed(2)}`);
    lines.push(`\n${name}`);
    lines.push(`  Redis beyond the pages: ${redisPerPage.toFixed(0)} B/page · heap per instance: ${heapPerPage.toFixed(0)} B/page`);
    lines.push(`  Redis commands per set(): ${perSet.join(', ')}`);
    lines.push(
      `  Redis commands per evicted page (${evictions} evictions, 3 instances listening): ${perEviction.join(', ') || 'none'}; sets refused (OOM): ${refused}`,
    );
    lines.push(`  a new instance's start with ${PAGES} pages in Redis: ${startCalls.map(([k, v]) => `${k} ×${v}`).join(', ') || 'no scans'}`);
    const resident = Math.floor((512 * 1024 * 1024) / AVG_PAGE_BYTES);
    lines.push(
      `  if all ${FULL_SCALE.toLocaleString('en-US')} pages were cached: ${((Math.max(0, heapPerPage) * FULL_SCALE) / 1e6).toFixed(0)} MB per instance, ${((Math.max(0, redisPerPage) * FULL_SCALE) / 1e6).toFixed(0)} MB of Redis; ` +
        `with a 512 MB Redis of ${AVG_PAGE_BYTES / 1024} KB pages (~${resident.toLocaleString('en-US')} resident): ${((Math.max(0, heapPerPage) * resident) / 1e6).toFixed(1)} MB per instance`,
    );
  }
  await client.quit();
  await redis.stop();
  return lines;
}

if (process.argv[1]?.endsWith('bench-page-cache-memory.ts')) {
  const arg = process.argv.indexOf('--pages');
  benchPageCacheMemory(arg > 0 ? Number(process.argv[arg + 1]) : undefined).then(
    (lines) => (console.log(lines.join('\n')), process.exit(0)),
    (err) => (console.error(err), process.exit(1)),
  );
}
