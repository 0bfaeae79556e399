/**
 * Issue 13: the single-instance page cache is bounded. A server of its own (PAGE_CACHE_MB=16,
 * its counters on /__page-cache) gets 5,000 made-up paths (city-shaped slugs, unknown pages,
 * missing articles) and 2,000 real city pages, 8 at a time: every answer is exactly right (status
 * and h1), the cache never holds more than its bound, no notFound is stored, nothing is written
 * under .next, and pages dropped from the cache are rendered again when asked for.
 */
import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { citiesOf } from '../../engine/geo/cities';
import { STATES } from '../../engine/geo/states';
import { startInstance, type Instance } from '../support/instances';
import { PORT, rawGet } from './helpers';

const SITE_PORT = PORT + 70;
const BOUND_MB = 16;
const HOST = 'ipaydayloans.localhost';

interface Stats {
  maxBytes: number;
  bytes: number;
  entries: number;
  evicted: number;
  notFoundSkipped: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const get = (path: string, host = HOST) => rawGet(path, host, { port: SITE_PORT, agent });

const decode = (s: string) =>
  s
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
const h1 = (html: string) => decode(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '');

/** A fixed pseudo-random sequence (the same paths every run). */
function* numbers(seed: number) {
  let x = seed;
  for (;;) yield (x = (x * 1103515245 + 12345) % 2147483648);
}

function cityPages(count: number): { path: string; h1: string }[] {
  const all = STATES.flatMap((s) =>
    citiesOf(s.code).map((c) => ({ path: `/location/${s.code}/${c.slug}`, h1: `Payday Loans in ${c.name}, ${s.code.toUpperCase()}` })),
  );
  const step = Math.floor(all.length / count);
  return Array.from({ length: count }, (_, i) => all[i * step]!);
}

function madeUpPaths(count: number): string[] {
  const n = numbers(42);
  const word = () => (n.next().value as number).toString(36);
  const kinds = [
    () => `/location/tx/${word()}-${word()}`,
    () => `/location/ca/zz${word()}`,
    () => `/${word()}`,
    () => `/${word()}/${word()}`,
    () => `/blog/money-basics/${word()}`,
    () => `/location/${word().slice(0, 2).replace(/[0-9]/g, 'q')}x/${word()}`,
  ];
  return Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!());
}

const serverFiles = () => readdirSync(join(process.cwd(), '.next/server'), { recursive: true }).length;

let site: Instance;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  site = await startInstance(SITE_PORT, {
    PAGE_CACHE_STATS: '1',
    PAGE_CACHE_MB: String(BOUND_MB),
    LOANSITES_DB_FILE: join(tmpdir(), `loansites-e2e-${SITE_PORT}.sqlite`),
    DATABASE_URL: '',
    REDIS_URL: '',
  });
});

test.afterAll(async () => {
  agent.destroy();
  await site?.stop();
});

test('5,000 made-up paths and 2,000 city pages: every answer right, the cache within its bound, no notFound stored, nothing on disk', async () => {
  test.setTimeout(15 * 60_000);
  const stats = async () => JSON.parse((await get('/__page-cache', '127.0.0.1')).body) as Stats;
  const filesBefore = serverFiles();
  const cities = cityPages(2000);
  const junk = madeUpPaths(5000);
  // Interleaved: a crawler and an attacker at the same time.
  const work: { path: string; status: number; h1: string }[] = [];
  for (let i = 0; i < junk.length; i++) {
    work.push({ path: junk[i]!, status: 404, h1: 'We could not find that page' });
    if (i % 5 < 2 && cities.length) {
      const c = cities.shift()!;
      work.push({ path: c.path, status: 200, h1: c.h1 });
    }
  }
  for (const c of cities) work.push({ path: c.path, status: 200, h1: c.h1 });
  expect(work).toHaveLength(7000);

  const wrong: string[] = [];
  let most = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < work.length) {
        const w = work[next++]!;
        const res = await get(w.path);
        if (res.status !== w.status || h1(res.body) !== w.h1) wrong.push(`${w.path}: ${res.status} "${h1(res.body)}" (expected ${w.status} "${w.h1}")`);
        if (next % 250 === 0) {
          const s = await stats();
          most = Math.max(most, s.bytes);
          expect(s.bytes, `after ${next} requests`).toBeLessThanOrEqual(s.maxBytes);
        }
      }
    }),
  );
  expect(wrong.slice(0, 20)).toEqual([]);
  const end = await stats();
  expect(end.maxBytes).toBe(BOUND_MB * 1024 * 1024);
  expect(end.bytes).toBeLessThanOrEqual(end.maxBytes);
  expect(most).toBeLessThanOrEqual(end.maxBytes);
  // 2,000 city pages do not fit in 16 MB: older ones were dropped, and no notFound was kept.
  expect(end.evicted).toBeGreaterThan(0);
  expect(end.entries).toBeLessThan(2000);
  expect(end.notFoundSkipped).toBeGreaterThanOrEqual(5000);
  expect(serverFiles()).toBe(filesBefore);

  // A page dropped from the cache is simply rendered again.
  const first = cityPages(2000)[0]!;
  const again = await get(first.path);
  expect(again.status).toBe(200);
  expect(h1(again.body)).toBe(first.h1);
});
