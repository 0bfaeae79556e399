/**
 * The SEO files, revalidation and preview routes answer through the shared API handler
 * (engine/http/api.ts): one shape for their refusals (JSON with a reason, no-store), their own
 * bytes, redirects and 304s. Each route's real handler runs on a local node:http server; Next's
 * part (its parsed query, res.revalidate, draft mode) is stood in for.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import seoRoute from '../../pages/api/seo/[brand]/[file]';
import revalidateRoute from '../../pages/api/revalidate';
import previewExitRoute from '../../pages/api/preview/exit';
import previewRoute from '../../pages/api/preview/index';
import { previewSignature } from '../../engine/http/preview';

type Handler = (req: never, res: never) => Promise<void>;
const revalidated: string[] = [];
const routes: Record<string, Handler> = {
  seo: seoRoute as Handler,
  revalidate: revalidateRoute as Handler,
  exit: previewExitRoute as Handler,
  preview: previewRoute as Handler,
};

let server: Server;
let port = 0;
beforeAll(async () => {
  process.env.REVALIDATE_SECRET = 'unit-secret';
  process.env.CONTENT_PREVIEW_SECRET = 'unit-preview-secret';
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, route = '', ...rest] = url.pathname.split('/');
    // what Next adds: the dynamic route's parameters, revalidation and draft mode
    Object.assign(req, { query: { ...Object.fromEntries(url.searchParams), ...(route === 'seo' ? { brand: rest[0], file: rest[1] } : {}) } });
    Object.assign(res, { revalidate: async (path: string) => void revalidated.push(path), setDraftMode: () => res });
    void routes[route]!(req as never, res as never);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: 'ipaydayloans.localhost', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the SEO route', () => {
  it("answers its brand's robots.txt with a weak ETag, a 304 for the same ETag and no body for HEAD", async () => {
    const got = await call('GET', '/seo/ipaydayloans/robots.txt');
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toMatch(/^text\/plain/);
    expect(got.headers['cache-control']).toBe('public, max-age=3600, s-maxage=3600');
    expect(got.text).toContain('Sitemap:');
    expect(Number(got.headers['content-length'])).toBe(Buffer.byteLength(got.text));
    // weak: the same file goes out gzipped or not under it, which a strong ETag would say are the same bytes
    expect(got.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await call('GET', '/seo/ipaydayloans/robots.txt', { 'if-none-match': String(got.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // If-None-Match as RFC 9110 compares it: a list, the validator's strong form, "*"
    for (const held of [`"older", ${got.headers.etag}`, String(got.headers.etag).slice(2), '*'])
      expect((await call('GET', '/seo/ipaydayloans/robots.txt', { 'if-none-match': held })).status, held).toBe(304);
    expect((await call('GET', '/seo/ipaydayloans/robots.txt', { 'if-none-match': '"older", W/"other"' })).status).toBe(200);
    const head = await call('HEAD', '/seo/ipaydayloans/robots.txt');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(got.headers['content-length']);
    expect(head.text).toBe('');
  });

  it.each([
    ['another brand named on this host', 'GET', '/seo/usbadcreditloans/robots.txt', 404, 'Not found'],
    ['a file the brand has not', 'GET', '/seo/ipaydayloans/sitemap-9999.xml', 404, 'Not found'],
    ['a POST', 'POST', '/seo/ipaydayloans/robots.txt', 405, 'Use GET or HEAD'],
  ])('%s: %s %s → %i with a reason', async (_label, method, path, status, error) => {
    const res = await call(method, path);
    expect(res.status).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.text)).toEqual({ error });
  });
});

describe('the revalidation route', () => {
  const post = (body: string, secret = 'unit-secret', type = 'application/json') =>
    call('POST', '/revalidate', { 'x-revalidate-secret': secret, 'content-type': type }, body);

  it('rebuilds the named pages of the brand at their internal paths, and each variant of a page under an experiment', async () => {
    const res = await post('{"brand":"ipaydayloans","paths":["/blog","/payday-loans"]}');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ revalidated: ['/blog', '/payday-loans'], failed: [] });
    // /payday-loans runs the demo experiment: its variant is a cached page of its own
    expect(revalidated).toEqual([
      '/_brand/ipaydayloans/blog',
      '/_brand/ipaydayloans/payday-loans',
      '/_brand/ipaydayloans/_v~payday-hero-headline~cash-before-payday/payday-loans',
    ]);
  });

  it.each([
    ['a wrong secret', '{"brand":"ipaydayloans","paths":["/blog"]}', 'wrong', 'application/json', 401, 'Missing or wrong x-revalidate-secret'],
    ['a body that is not the schema', '{"brand":"ipaydayloans","paths":"all"}', 'unit-secret', 'application/json', 400, 'The body is not valid'],
    ['a body over 16 KB', JSON.stringify({ brand: 'ipaydayloans', paths: ['/' + 'a'.repeat(20_000)] }), 'unit-secret', 'application/json', 413, 'larger'],
    ['a form post', 'brand=ipaydayloans', 'unit-secret', 'application/x-www-form-urlencoded', 415, 'application/json'],
    ['an unknown brand', '{"brand":"nobody","paths":["/blog"]}', 'unit-secret', 'application/json', 404, 'No brand "nobody"'],
  ])('%s: refused with its status and reason, nothing rebuilt', async (_label, body, secret, type, status, error) => {
    revalidated.length = 0;
    const res = await post(body, secret, type);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.text).error).toContain(error);
    expect(revalidated).toEqual([]);
  });

  it('a path no route of the brand serves (a typo, a trailing slash, another brand’s page): 404 naming each, nothing rebuilt', async () => {
    revalidated.length = 0;
    const res = await post('{"brand":"ipaydayloans","paths":["/blog","/no-such-page","/blog/","/apply-title-loans"]}');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({
      error: 'No page of ipaydayloans at 3 of the paths; nothing was revalidated',
      problems: [
        '/paths/1: /no-such-page is not a page of ipaydayloans: no route of the brand serves it',
        '/paths/2: /blog/ is not a page of ipaydayloans: no route of the brand serves it',
        '/paths/3: /apply-title-loans is not a page of ipaydayloans: no route of the brand serves it',
      ],
    });
    expect(revalidated).toEqual([]);
  });

  it('a page whose content is gone (an unpublished article) is still revalidated, into its 404', async () => {
    revalidated.length = 0;
    const res = await post('{"brand":"ipaydayloans","paths":["/blog/payday-loans/an-unpublished-article","/blog/2"]}');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ revalidated: ['/blog/payday-loans/an-unpublished-article', '/blog/2'], failed: [] });
    expect(revalidated).toEqual(['/_brand/ipaydayloans/blog/payday-loans/an-unpublished-article', '/_brand/ipaydayloans/blog/2']);
  });
});

describe('previews switched off (no CONTENT_PREVIEW_SECRET)', () => {
  it('the preview and exit endpoints are not there: 404 with a reason, not a server error', async () => {
    const before = process.env.CONTENT_PREVIEW_SECRET;
    delete process.env.CONTENT_PREVIEW_SECRET;
    try {
      for (const path of [`/preview?brand=ipaydayloans&path=/&sig=${'0'.repeat(64)}`, '/preview', '/exit?path=/blog']) {
        const got = await call('GET', path);
        expect([path, got.status]).toEqual([path, 404]);
        expect(JSON.parse(got.text)).toEqual({ error: 'Not found: previews are not enabled on this server' });
      }
    } finally {
      if (before !== undefined) process.env.CONTENT_PREVIEW_SECRET = before;
    }
  });
});

describe('leaving draft mode', () => {
  it('redirects to the page named, or home for anything else, with no body', async () => {
    expect(await call('GET', '/exit?path=/blog/payday-loans')).toMatchObject({ status: 307, headers: { location: '/blog/payday-loans' }, text: '' });
    expect(await call('GET', '/exit?path=https://evil.example/')).toMatchObject({ status: 307, headers: { location: '/' }, text: '' });
  });

  // A browser reads "//host" (and "/\\host") as another site: //2130706433 is https://127.0.0.1/.
  it.each(['//2130706433', '//localhost/x', '///2130706433', '%2F%2F2130706433', '/%5C2130706433', '%5C%5C2130706433'])(
    'a path naming another site (%s) goes home instead',
    async (path) => {
      expect(await call('GET', `/exit?path=${path}`)).toMatchObject({ status: 307, headers: { location: '/' }, text: '' });
    },
  );
});

describe('a signed preview link', () => {
  const link = (path: string) =>
    `/preview?${new URLSearchParams({ brand: 'ipaydayloans', path, sig: previewSignature('unit-preview-secret', 'ipaydayloans', path) })}`;

  it('opens the page it names', async () => {
    expect(await call('GET', link('/blog/payday-loans'))).toMatchObject({ status: 307, headers: { location: '/blog/payday-loans' }, text: '' });
  });

  it.each(['//2130706433', '//localhost/x', '/\\2130706433'])('naming another site (%s), even signed, is refused with 400 and sends nowhere', async (path) => {
    const got = await call('GET', link(path));
    expect(got.status).toBe(400);
    expect(got.headers.location).toBeUndefined();
    expect(JSON.parse(got.text).error).toMatch(/path/);
  });
});
