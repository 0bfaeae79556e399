/**
 * Cache hits answered by server.mjs from the page cache (engine/cache/cachedPageReplay.mjs), over
 * real HTTP: a server wired as server.mjs wires it, with a stand-in for Next that answers from the
 * same store the way Next does (HIT when fresh, STALE after the page's revalidate time) and counts
 * what reaches it. The e2e suite runs every page through the real thing; this pins the rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { createStore } from '../../engine/cache/boundedPageCache.mjs';
import { acceptsGzip, createCachedPageReplay } from '../../engine/cache/cachedPageReplay.mjs';

const PREFIX = '/route-cache/PAGES/build/$';
const store = createStore(1024 * 1024);
let clock = 1_000_000;
const replay = createCachedPageReplay({ enabled: true, now: () => clock, store: () => store });
let nextCalls = 0;
let sent: unknown;

const put = (path: string, html: string, revalidate = 60) => {
  store.set(`${PREFIX}/_brand/acme${path === '/' ? '' : path}`, { kind: 'PAGES', html, pageData: {}, status: 200 }, { revalidate, expire: 3600 });
  // the stored entry's lastModified is the real clock; the replay's clock follows it
  clock = Date.now();
};

/** Next as far as a cached page goes: the stored page with its cache state, or a 404. */
function fakeNext(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
  nextCalls++;
  const path = (req.url ?? '/').split('?')[0];
  if (req.headers['x-test-render']) {
    // a miss: the page rendered, stored, then sent as the string it was rendered to (Next's compression passes the encoding on)
    const html = `<html><body><h1>${path} – rendered</h1></body></html>`;
    put(path!, html);
    res.setHeader('x-nextjs-cache', 'MISS');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(html));
    return res.end(html, undefined);
  }
  const entry = store.get(`${PREFIX}/_brand/acme${path === '/' ? '' : path}`);
  if (!entry) {
    res.statusCode = 404;
    return res.end('not found');
  }
  res.setHeader('x-nextjs-cache', req.headers['x-test-miss'] ? 'MISS' : entry.lastModified + entry.cacheControl.revalidate * 1000 > clock ? 'HIT' : 'STALE');
  res.setHeader('Cache-Control', 's-maxage=60, stale-while-revalidate=3540');
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('X-Host-Seen', String(req.headers.host));
  res.end(req.method === 'HEAD' ? undefined : entry.value.html);
}

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    // what reaches the socket's own end (server.mjs's response, under the replay's)
    const end = res.end;
    res.end = ((chunk: unknown, ...rest: unknown[]) => {
      sent = chunk;
      return (end as (...args: unknown[]) => typeof res).call(res, chunk, ...rest);
    }) as typeof res.end;
    res.setHeader('X-Content-Type-Options', 'nosniff'); // as server.mjs's security headers
    // as the front door routes: the brand of the normalised host (lower-case, no port, no trailing dot)
    const host = String(req.headers.host).toLowerCase().replace(/:\d+$/, '').replace(/\.+$/, '');
    const path = (req.url ?? '/').split('?')[0]!;
    replay.handle(req, res, host.startsWith('acme.') ? { page: `/_brand/acme${path === '/' ? '' : path}`, host } : undefined, () => fakeNext(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers: { host: 'acme.localhost', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
const reached = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
  const before = nextCalls;
  const answer = await get(path, headers, method);
  return { answer, next: nextCalls - before };
};

describe('a fresh cache hit', () => {
  it('goes to Next until Next has answered it once from its cache; then it is answered here with the same status, headers and bytes', async () => {
    put('/payday-loans', '<html><body><h1>Payday loans</h1></body></html>');
    const first = await reached('/payday-loans');
    expect(first.next).toBe(1);
    const second = await reached('/payday-loans');
    expect(second.next).toBe(0);
    expect(second.answer.status).toBe(200);
    expect(second.answer.body.toString()).toBe('<html><body><h1>Payday loans</h1></body></html>');
    for (const name of ['x-nextjs-cache', 'cache-control', 'content-type', 'x-host-seen', 'x-content-type-options'])
      expect(second.answer.headers[name], name).toBe(first.answer.headers[name]);
    expect(second.answer.headers['content-length']).toBe(String(second.answer.body.length));
    // a query string is the same page (Next's cache key has none)
    expect((await reached('/payday-loans?gclid=abc')).next).toBe(0);
  });

  it('a page Next has just rendered and stored is sent as the bytes the cache keeps, not encoded again: same body and length', async () => {
    put('/known', '<html></html>');
    const miss = await reached('/rendered-now', { 'x-test-render': '1' });
    expect(miss.next).toBe(1);
    expect(miss.answer.body.toString()).toBe('<html><body><h1>/rendered-now – rendered</h1></body></html>');
    expect(miss.answer.headers['content-length']).toBe(String(miss.answer.body.length));
    expect(Buffer.isBuffer(sent)).toBe(true);
    expect(sent).toBe(store.get(`${PREFIX}/_brand/acme/rendered-now`).value.html);
  });

  it('gzip when asked for (once per stored version), plain otherwise; HEAD without a body', async () => {
    put('/gz', '<html>' + 'lorem ipsum '.repeat(500) + '</html>');
    await get('/gz');
    const zipped = await reached('/gz', { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.next).toBe(0);
    expect(zipped.answer.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.answer.body).toString()).toBe('<html>' + 'lorem ipsum '.repeat(500) + '</html>');
    const refused = await reached('/gz', { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.answer.headers['content-encoding']).toBeUndefined();
    // "*" stands for the codings not named: gzip refused by name stays refused
    const refusedBeforeAny = await reached('/gz', { 'accept-encoding': 'gzip;q=0, *' });
    expect(refusedBeforeAny.next).toBe(0);
    expect(refusedBeforeAny.answer.headers['content-encoding']).toBeUndefined();
    expect(refusedBeforeAny.answer.body.toString()).toBe('<html>' + 'lorem ipsum '.repeat(500) + '</html>');
    const head = await reached('/gz', {}, 'HEAD');
    expect(head.next).toBe(0);
    expect(head.answer.body.length).toBe(0);
    expect(head.answer.headers['content-length']).toBe(refused.answer.headers['content-length']);
  });

  it('a new version stored (revalidation) is never answered with the old one: Next answers it first', async () => {
    put('/v', '<html>one</html>');
    await get('/v');
    expect((await reached('/v')).answer.body.toString()).toBe('<html>one</html>');
    put('/v', '<html>two</html>');
    const after = await reached('/v');
    expect(after.next).toBe(1);
    expect(after.answer.body.toString()).toBe('<html>two</html>');
    const again = await reached('/v');
    expect(again.next).toBe(0);
    expect(again.answer.body.toString()).toBe('<html>two</html>');
  });

  it('a page past its revalidate time goes to Next (which serves it stale and renders it again)', async () => {
    put('/old', '<html>old</html>', 60);
    await get('/old');
    expect((await reached('/old')).next).toBe(0);
    clock += 61_000;
    const stale = await reached('/old');
    expect(stale.next).toBe(1);
    expect(stale.answer.headers['x-nextjs-cache']).toBe('STALE');
    expect((await reached('/old')).next).toBe(1);
  });

  it('is recorded per normalised host, and only from a cache hit', async () => {
    put('/hosts', '<html>h</html>');
    await get('/hosts');
    expect((await reached('/hosts', { host: 'acme.example' })).next).toBe(1);
    const other = await reached('/hosts', { host: 'acme.example' });
    expect(other.next).toBe(0);
    expect(other.answer.headers['x-host-seen']).toBe('acme.example');
    // another spelling of a host already recorded is that host
    expect((await reached('/hosts', { host: 'ACME.localhost:3000' })).next).toBe(0);
    put('/miss', '<html>m</html>');
    await get('/miss', { 'x-test-miss': '1' });
    expect((await reached('/miss')).next).toBe(1);
  });

  it('junk spellings of a host (ports, capitals, trailing dots) cannot crowd the real host out of the replay', async () => {
    put('/crowd', '<html>c</html>');
    for (let port = 1; port <= 8; port++) await get('/crowd', { host: `acme.localhost:${port}` });
    for (const spelling of ['ACME.LOCALHOST', 'acme.localhost.', 'acme.localhost..:9']) await get('/crowd', { host: spelling });
    for (const host of ['acme.localhost', 'acme.localhost:7', 'Acme.Localhost.']) expect((await reached('/crowd', { host })).next, host).toBe(0);
    // a real second host of the brand still gets a slot of its own
    await get('/crowd', { host: 'acme.example' });
    expect((await reached('/crowd', { host: 'acme.example' })).next).toBe(0);
  });
});

describe('always Next', () => {
  beforeAll(async () => {
    put('/always', '<html>a</html>');
    await get('/always');
  });
  it.each([
    ['draft mode', '/always', { cookie: 'a=1; __prerender_bypass=xyz' }, 'GET'],
    ["Next's own revalidation", '/always', { 'x-prerender-revalidate': 'id' }, 'GET'],
    ['a data request', '/always', { 'x-nextjs-data': '1' }, 'GET'],
    ['a query parameter Next reads itself', '/always?__nextDataReq=1', {}, 'GET'],
    ['an RSC request', '/always?_rsc=abc', {}, 'GET'],
    ['a POST', '/always', {}, 'POST'],
    ['a host no brand is routed to', '/always', { host: 'other.localhost' }, 'GET'],
    ['a trailing slash', '/always/', {}, 'GET'],
    ['capitals', '/Always', {}, 'GET'],
    ['a dot', '/always.json', {}, 'GET'],
    ['an encoded character', '/always%2f', {}, 'GET'],
  ])('%s', async (_, path, headers, method) => {
    expect((await reached('/always')).next).toBe(0); // the page itself is replayed
    expect((await reached(path, headers as Record<string, string>, method)).next).toBe(1);
  });
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['gzip;q=0', false],
    ['gzip;q=0.0, identity', false],
    ['deflate, br', false],
    ['', false],
    // "*" is every coding not named (RFC 9110 §12.5.3): gzip named with q=0 is refused wherever "*" stands
    ['gzip;q=0, *', false],
    ['*, gzip;q=0', false],
    ['*;q=0, gzip', true],
    ['*;q=0', false],
    ['GZIP', true],
  ])('%j → %s', (header, expected) => expect(acceptsGzip(header)).toBe(expected));
});
