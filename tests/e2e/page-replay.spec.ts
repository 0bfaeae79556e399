/**
 * Issue 13: fresh cache hits are answered by server.mjs from the page cache
 * (engine/cache/cachedPageReplay.mjs), and pages render with React's Node build
 * (engine/http/reactRenderer.mjs). Two instances of the same build, one as we run it and one
 * as Next alone would (PAGE_CACHE_REPLAY=0, REACT_SERVER_BUILD=edge, COLD_RENDER_DIRECT=0), get the same requests:
 * the first render of every page of several brands and templates is the same HTML from both,
 * and after it every answer — status, bytes (plain and gzip), every header but the framing
 * ones — and the first instance did answer them itself.
 */
import { expect, test } from '@playwright/test';
import { gunzipSync } from 'node:zlib';
import type { Instance } from '../support/instances';
import { pageAnswer, startComparedPair, type PageAnswer } from '../support/comparedInstances';
import { PORT } from './helpers';

const ON_PORT = PORT + 72;
const OFF_PORT = PORT + 73;
const PAGES: [host: string, path: string][] = [
  ['ipaydayloans.localhost', '/'],
  // (/payday-loans is under the demo experiment: each cookieless request a variant of its own; tests/e2e/experiments.spec.ts replays those)
  ['ipaydayloans.localhost', '/installment-loans'],
  ['ipaydayloans.localhost', '/location/ca/los-angeles'],
  ['ipaydayloans.localhost', '/apply'],
  ['usbadcreditloans.localhost', '/payday-loans/location/california'],
  ['ustitleloans.localhost', '/title-loans'],
  ['cocoloan.localhost', '/'],
];

let on: Instance;
let off: Instance;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  [on, off] = await startComparedPair(ON_PORT, OFF_PORT, { PAGE_CACHE_REPLAY: '0', REACT_SERVER_BUILD: 'edge', COLD_RENDER_DIRECT: '0' });
});
test.afterAll(async () => {
  await Promise.all([on?.stop(), off?.stop()]);
});

const get = pageAnswer;
const stats = async (port: number) => (await (await fetch(`http://127.0.0.1:${port}/__page-cache`)).json()) as { replayed: number; reactServerBuild: string };
const replayed = async (port: number) => (await stats(port)).replayed;

test('every page answered from the cache is the one Next answers: same status, bytes and headers, gzip and HEAD included', async () => {
  test.setTimeout(180_000);
  for (const [host, path] of PAGES) {
    // the first answer renders the page (the same HTML from either React build), the second is Next's cache hit (recorded)
    const [a, b] = [await get(ON_PORT, host, path), await get(OFF_PORT, host, path)];
    expect([a.status, b.status], `${host}${path}`).toEqual([200, 200]);
    expect(a.body.toString(), `first render of ${host}${path}`).toBe(b.body.toString());
    for (const port of [ON_PORT, OFF_PORT]) expect((await get(port, host, path)).status, `${host}${path}`).toBe(200);
  }
  expect([(await stats(ON_PORT)).reactServerBuild, (await stats(OFF_PORT)).reactServerBuild]).toEqual(['node', 'edge']);
  const before = await replayed(ON_PORT);
  for (const [host, path] of PAGES) {
    const variants: [headers: Record<string, string>, method: string, query: string][] = [
      [{}, 'GET', ''],
      [{ 'accept-encoding': 'gzip, deflate, br' }, 'GET', ''],
      [{}, 'HEAD', ''],
      [{}, 'GET', '?gclid=abc'],
    ];
    for (const [headers, method, query] of variants) {
      const url = path + query;
      const [a, b] = [await get(ON_PORT, host, url, headers, method), await get(OFF_PORT, host, url, headers, method)];
      const what = `${method} ${host}${url} ${JSON.stringify(headers)}`;
      expect(a.status, what).toBe(b.status);
      expect(a.headers, what).toEqual(b.headers);
      const plain = (x: PageAnswer) => (x.headers['content-encoding'] === 'gzip' ? gunzipSync(x.body) : x.body).toString();
      expect(plain(a), what).toBe(plain(b));
    }
  }
  // 7 pages × 4 requests, every one of them answered from the cache on the first instance
  expect((await replayed(ON_PORT)) - before).toBe(PAGES.length * 4);
  expect(await replayed(OFF_PORT)).toBe(0);
});

test('what is not a fresh page hit still reaches Next: a brand 404, a made-up host, a data request', async () => {
  const before = await replayed(ON_PORT);
  for (let i = 0; i < 2; i++) {
    expect((await get(ON_PORT, 'ipaydayloans.localhost', '/no-such-page')).status).toBe(404);
    expect((await get(ON_PORT, 'nobody.example', '/payday-loans')).status).toBe(404);
  }
  expect(await replayed(ON_PORT)).toBe(before);
  // the brand's own 404 page renders the same with either React build
  const [a, b] = [await get(ON_PORT, 'ipaydayloans.localhost', '/no-such-page'), await get(OFF_PORT, 'ipaydayloans.localhost', '/no-such-page')];
  expect(a.body.toString()).toContain('We could not find that page');
  expect(a.body.toString()).toBe(b.body.toString());
});
