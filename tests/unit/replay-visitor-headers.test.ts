/**
 * A replayed cache hit with a visitor's own headers (engine/cache/cachedPageReplay.mjs
 * serveFresh's extra list, as server.mjs hands it for a page under an experiment): each reply
 * carries exactly the headers handed for it — a first visitor's Set-Cookie goes to that visitor
 * only, never to the next one, nor to a visitor with the cookie or to a page without an
 * experiment — over real HTTP, with the bytes of the cached page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStore } from '../../engine/cache/boundedPageCache.mjs';
import { createCachedPageReplay } from '../../engine/cache/cachedPageReplay.mjs';

const PAGE = '/_brand/acme/offer';
const KEY = `/route-cache/PAGES/build/$${PAGE}`;
const HTML = '<html><body><h1>Offer</h1></body></html>';
const store = createStore(1024 * 1024);
const replay = createCachedPageReplay({ enabled: true, store: () => store });
/** a variant's list, as the front door keeps it (one frozen list per variant) */
const VARIANT = Object.freeze(['X-Loansites-Experiment', 'offer-test=b']);
let nextCalls = 0;

let server: Server;
let port = 0;
beforeAll(async () => {
  store.set(KEY, { kind: 'PAGES', html: HTML, pageData: {}, status: 200 }, { revalidate: 3600, expire: 7200 });
  server = createServer((req, res) => {
    const route = { page: PAGE, host: 'acme.localhost' };
    const cookie = req.headers['x-test-assigned'];
    // what the front door hands: a visitor assigned now gets the variant's list and their cookie, one with the cookie the variant's list
    const extra = cookie ? [...VARIANT, 'Set-Cookie', String(cookie)] : req.headers['x-test-held'] ? VARIANT : undefined;
    if (replay.serveFresh(req, res, route, extra)) return;
    replay.handle(req, res, route, () => {
      // Next answering the stored page from its cache
      nextCalls++;
      res.setHeader('x-nextjs-cache', 'HIT');
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(HTML);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function get(headers: Record<string, string> = {}): Promise<{ headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/offer', agent: false, headers: { host: 'acme.localhost', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a replayed hit with a visitor’s own headers', () => {
  it('sends each first visitor their own cookie only, and nobody after them', async () => {
    await get(); // Next answers once; its head is recorded
    const before = nextCalls;
    const replies = [];
    const visitors: Record<string, string>[] = [
      { 'x-test-assigned': 'lsx=aaaaaaaaaaaaaaaa|offer-test:b' },
      { 'x-test-assigned': 'lsx=bbbbbbbbbbbbbbbb|offer-test:b' },
      { 'x-test-held': '1' },
      {},
      { 'x-test-assigned': 'lsx=cccccccccccccccc|offer-test:b' },
      { 'x-test-held': '1' },
    ];
    for (const headers of visitors) replies.push(await get(headers));
    expect(nextCalls).toBe(before);
    expect(replies.map((r) => r.headers['set-cookie'])).toEqual([
      ['lsx=aaaaaaaaaaaaaaaa|offer-test:b'],
      ['lsx=bbbbbbbbbbbbbbbb|offer-test:b'],
      undefined,
      undefined,
      ['lsx=cccccccccccccccc|offer-test:b'],
      undefined,
    ]);
    expect(replies.map((r) => r.headers['x-loansites-experiment'])).toEqual([
      'offer-test=b',
      'offer-test=b',
      'offer-test=b',
      undefined,
      'offer-test=b',
      'offer-test=b',
    ]);
    for (const r of replies) {
      expect(r.body).toBe(HTML);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(HTML)));
    }
  });
});
