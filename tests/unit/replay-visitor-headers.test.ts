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
import { createCachedPageReplay, keepVisitorHeaders } from '../../engine/cache/cachedPageReplay.mjs';

const HTML = '<html><body><h1>Offer</h1></body></html>';
const SHARED = 's-maxage=3600, stale-while-revalidate=3600';
const store = createStore(1024 * 1024);
const replay = createCachedPageReplay({ enabled: true, store: () => store });
/** a variant's list, as the front door keeps it (one frozen list per variant) */
const VARIANT = Object.freeze(['X-Loansites-Experiment', 'offer-test=b', 'Cache-Control', 'private, no-cache']);
let nextCalls = 0;

let server: Server;
let port = 0;
beforeAll(async () => {
  for (const page of ['offer', 'quote'])
    store.set(`/route-cache/PAGES/build/$/_brand/acme/${page}`, { kind: 'PAGES', html: HTML, pageData: {}, status: 200 }, { revalidate: 3600, expire: 7200 });
  server = createServer((req, res) => {
    const route = { page: `/_brand/acme${req.url}`, host: 'acme.localhost' };
    const cookie = req.headers['x-test-assigned'];
    // what the front door hands: a visitor assigned now gets the variant's list and their cookie, one with the cookie the variant's list
    const extra = cookie ? [...VARIANT, 'Set-Cookie', String(cookie)] : req.headers['x-test-held'] ? VARIANT : undefined;
    if (replay.serveFresh(req, res, route, extra)) return;
    // as server.mjs hands a request with a visitor's list to Next
    if (extra) {
      for (let i = 0; i < extra.length; i += 2) res.setHeader(extra[i]!, extra[i + 1]!);
      keepVisitorHeaders(res, extra);
    }
    replay.handle(req, res, route, () => {
      // Next answering the stored page from its cache, with the page's shared Cache-Control
      nextCalls++;
      res.setHeader('x-nextjs-cache', 'HIT');
      res.setHeader('Cache-Control', SHARED);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(HTML);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

interface Reply {
  headers: Record<string, string | string[] | undefined>;
  /** the Cache-Control lines as sent (one, unless a header was doubled) */
  cacheControl: string[];
  body: string;
}
function get(headers: Record<string, string> = {}, path = '/offer', method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers: { host: 'acme.localhost', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const cacheControl = res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1]!.toLowerCase() === 'cache-control');
      res.on('end', () => resolve({ headers: res.headers, cacheControl, body: Buffer.concat(chunks).toString() }));
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

  it('puts a variant’s Cache-Control in place of the page’s, through Next and replayed, and keeps the page’s own for a visitor without a variant', async () => {
    const held = { 'x-test-held': '1' };
    const assigned = { 'x-test-assigned': 'lsx=dddddddddddddddd|offer-test:b' };
    // the page's head is first recorded from a variant's answer: Next's hit, with the variant's headers over it
    const throughNext = await get(held, '/quote');
    expect(nextCalls, 'recorded').toBeGreaterThan(0);
    const before = nextCalls;
    const replies = [
      throughNext,
      await get(held, '/quote'),
      await get(held, '/quote', 'HEAD'),
      await get(assigned, '/quote'),
      await get({ 'accept-encoding': 'gzip', ...assigned }, '/quote'),
    ];
    expect(nextCalls, 'answered here').toBe(before);
    for (const r of replies) {
      expect(r.cacheControl).toEqual(['private, no-cache']);
      expect(r.headers['x-loansites-experiment']).toBe('offer-test=b');
    }
    // the page itself (its experiment paused or over, everyone served the same) is as Next sent it
    for (const method of ['GET', 'HEAD']) {
      const plain = await get({}, '/quote', method);
      expect(plain.cacheControl).toEqual([SHARED]);
      expect(plain.headers['x-loansites-experiment']).toBeUndefined();
    }
    expect(nextCalls).toBe(before);
  });
});
