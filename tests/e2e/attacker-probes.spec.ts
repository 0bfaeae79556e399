/**
 * What probing the sites as an attacker and as a visitor found, each kept from coming back: the
 * internal prefix and path spellings, forged draft cookies, security headers, implausible hosts,
 * refused methods, slow clients, and the visitor-facing redirects and SEO files. Raw HTTP
 * (node:http / node:net) is used where a browser cannot send the request (any Host header,
 * TRACE, OPTIONS *, slow clients, paths with dot segments).
 */
import { expect, test } from '@playwright/test';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { PORT } from './helpers';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(path: string, opts: { host?: string; method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: PORT,
        path,
        agent: false,
        method: opts.method ?? 'GET',
        headers: { host: opts.host ?? 'ipaydayloans.localhost', ...opts.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Writes raw bytes and resolves with the first response line (and all that came), or 'closed' when the server closes the socket. */
function rawSocket(text: string, opts: { keepOpen?: boolean } = {}): Promise<{ firstLine: string; closedAfterMs: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(PORT, '127.0.0.1', () => {
      socket.write(text);
      if (!opts.keepOpen) socket.end();
    });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (data += c));
    socket.on('close', () => resolve({ firstLine: data.split('\r\n')[0] ?? '', closedAfterMs: Date.now() - started, answer: data }));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' ? resolve({ firstLine: data.split('\r\n')[0] ?? '', closedAfterMs: Date.now() - started, answer: data }) : reject(err),
    );
  });
}

test.describe('security', () => {
  test('the internal prefix is unreachable with a made-up x-prerender-revalidate, from any host', async () => {
    for (const host of ['evil.com', 'ipaydayloans.localhost', 'usbadcreditloans.localhost']) {
      for (const value of ['1', 'x'.repeat(32), '']) {
        const res = await raw('/_brand/usbadcreditloans/payday-loans', { host, headers: { 'x-prerender-revalidate': value } });
        expect(res.status, `${host} with "${value}"`).toBe(404);
        expect(res.body).not.toContain('US Bad Credit Loans');
      }
    }
    const madeUp = await raw('/_brand/ipaydayloans/some/made-up/path', { headers: { 'x-prerender-revalidate': '1' } });
    expect(madeUp.status).toBe(404);
    // the old hand-over prefix is now a path like any other: the brand's own 404 page, never a page of it
    for (const path of ['/__loansites-proxy/payday-loans', '/__loansites-proxy', '/%5F_loansites-proxy/payday-loans']) {
      const handed = await raw(path, { headers: { 'x-loansites-proxy': '1' } });
      expect(handed.status, path).toBe(404);
      expect(handed.body, path).toContain('We could not find that page');
    }
  });

  test('dot segments and encoded separators never reach another brand: 400 or 404, through the server as sent', async () => {
    const other = await raw('/apply', { host: 'usbadcreditloans.localhost' });
    expect(other.status).toBe(200);
    const targets: string[] = [];
    for (const prefix of ['/api', '/static', '/_next', '/_next/data/x', '/payday-loans', ''])
      for (const dot of ['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%252e%252e'])
        for (const sep of ['/', '%2f', '%5c', '\\']) targets.push(`${prefix}/${dot}${sep}_brand${sep}usbadcreditloans${sep}apply`);
    targets.push('/api/%2e%2e/_brand/usbadcreditloans/apply', '/%2e%2e/%2e%2e/_brand/usbadcreditloans/apply', '/x/../../_brand/usbadcreditloans/apply');
    for (const target of targets) {
      const res = await raw(target, { host: 'ipaydayloans.com' });
      expect([400, 404], `${target} → ${res.status}`).toContain(res.status);
      expect(res.body, target).not.toContain('US Bad Credit Loans');
    }
  });

  test('a query of thousands of parameters is refused with 400 and the reason before Next reads it, on an API route and a console page', async () => {
    // Next read such a query in time growing with the square of the parameters: 3,000 cost 0.24 s per request
    const many = `?${'a=1&'.repeat(3000)}x=1`;
    for (const [host, path] of [
      ['ipaydayloans.localhost', '/api/sale-status'],
      ['console.localhost', '/login'],
    ] as const) {
      const res = await raw(path + many, { host });
      expect(res.status, `${host}${path}`).toBe(400);
      expect(res.body).toBe('The query has more than 256 parameters\n');
    }
    expect((await raw(`/payday-loans?${'utm_x=1&'.repeat(255)}x=1`)).status).toBe(200);
  });

  test('a forged draft cookie reveals nothing: a draft slug and a missing one get the same brand 404 page', async () => {
    const cookie = '__prerender_bypass=forged';
    const draft = await raw('/blog/money-basics/draft-earned-wage-access-apps-vs-payday-loans', { headers: { cookie } });
    const missing = await raw('/blog/money-basics/no-such-article-at-all', { headers: { cookie } });
    expect(draft.status).toBe(404);
    expect(missing.status).toBe(404);
    for (const res of [draft, missing]) expect(res.body).toContain('We could not find that page');
  });

  test('no internal rewrite headers; HSTS on production hosts; Permissions-Policy and COOP everywhere', async () => {
    for (const path of ['/payday-loans', '/location/tx', '/no-such-page', '/']) {
      const res = await raw(path);
      for (const name of ['x-middleware-rewrite', 'x-nextjs-rewrite', 'x-nextjs-matched-path']) expect(res.headers[name], `${name} on ${path}`).toBeUndefined();
      expect(res.headers['permissions-policy']).toContain('geolocation=()');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    const prod = await raw('/payday-loans', { host: 'www.ipaydayloans.com' });
    expect(prod.status).toBe(200);
    expect(prod.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    // geolocation only where "Use my location" is on the page
    const search = await raw('/search');
    expect(search.status).toBe(200);
    expect(search.headers['permissions-policy']).toContain('geolocation=(self)');
    expect((await raw('/title-loans/location/search', { host: 'usbadcreditloans.localhost' })).headers['permissions-policy']).toContain('geolocation=(self)');
    const unknown = await raw('/', { host: 'evil.com' });
    expect(unknown.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  test('App Router request headers change nothing: the page, never a redirect to the internal path', async () => {
    const headers = { rsc: '1', 'next-router-prefetch': '1', 'next-router-state-tree': '%5B%22%22%5D', 'next-url': '/apply' };
    for (const [path, host] of [
      ['/apply', 'usbadcreditloans.localhost'],
      ['/payday-loans?x=1', 'ipaydayloans.localhost'],
      ['/no-such-page', 'ipaydayloans.localhost'],
    ] as const) {
      const plain = await raw(path, { host });
      const res = await raw(path, { host, headers });
      expect(res.status, `${host}${path}`).toBe(plain.status);
      expect(res.headers.location, `${host}${path}`).toBeUndefined();
      expect(res.headers['content-type'], `${host}${path}`).toContain('text/html');
      const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
      expect(title(res.body), `${host}${path}`).toBe(title(plain.body));
      expect(title(res.body), `${host}${path}`).toBeTruthy();
    }
  });

  test('HEAD is answered wherever GET is, without a body', async () => {
    for (const path of ['/api/place-page?state=tx&city=Austin', '/api/sale-status?lead=nope']) {
      const get = await raw(path);
      const head = await raw(path, { method: 'HEAD' });
      expect(head.status, path).toBe(get.status);
      expect(head.status, path).not.toBe(405);
      expect(head.body, path).toBe('');
    }
  });

  test('a port out of range is an unknown host (404), never a 500', async () => {
    for (const [path, host] of [
      ['/search?state=ca', 'ipaydayloans.com:99999'],
      ['/', 'blog.ipaydayloans.com:99999'],
      ['/', 'ipaydayloans.com:65536'],
    ] as const) {
      const res = await raw(path, { host });
      expect(res.status, `${host}${path}`).toBe(404);
      expect(res.body).toContain('not found');
    }
  });

  test('TRACE on any path and OPTIONS * answer 405 with Allow', async () => {
    for (const path of ['/', '/payday-loans', '/api/trace/session']) {
      const res = await raw(path, { method: 'TRACE' });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST');
    }
    const star = await rawSocket('OPTIONS * HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nConnection: close\r\n\r\n');
    expect(star.firstLine).toBe('HTTP/1.1 405 Method Not Allowed');
  });

  test('two Host headers (node:http keeps the first, a proxy may route by the other) are 400 with the reason, served as neither site', async () => {
    // the first host's page is known to the server (its decisions are remembered per host and path)
    expect((await raw('/payday-loans')).status).toBe(200);
    for (const hosts of [
      ['ipaydayloans.localhost', 'usinstallmentloans.localhost'],
      ['usinstallmentloans.localhost', 'ipaydayloans.localhost'],
      ['ipaydayloans.localhost', 'ipaydayloans.localhost'],
    ]) {
      const res = await rawSocket(`GET /payday-loans HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}Connection: close\r\n\r\n`);
      expect(res.firstLine, hosts.join(' + ')).toBe('HTTP/1.1 400 Bad Request');
      expect(res.answer).toContain('The request has more than one Host header');
      expect(res.answer).not.toContain('<title>');
    }
  });

  test('CONNECT (a proxy tunnel) answers 405 like TRACE, then the connection closes', async () => {
    const tunnel = await rawSocket('CONNECT ipaydayloans.com:443 HTTP/1.1\r\nHost: ipaydayloans.com:443\r\n\r\n', { keepOpen: true });
    expect(tunnel.firstLine).toBe('HTTP/1.1 405 Method Not Allowed');
  });

  test('a slow client is cut off: headers within 10 s, the whole request within 20 s', async () => {
    test.setTimeout(60_000);
    const [headers, body] = await Promise.all([
      rawSocket('GET / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\n', { keepOpen: true }),
      rawSocket('POST /api/revalidate HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":', {
        keepOpen: true,
      }),
    ]);
    expect(headers.closedAfterMs).toBeLessThan(15_000);
    expect(body.closedAfterMs).toBeLessThan(25_000);
  });
});

test.describe('visitors', () => {
  test('links on the blog host lead to the main site', async ({ page }) => {
    const res = await page.goto(`http://blog.ipaydayloans.localhost:${PORT}/blog`);
    expect(res?.status()).toBe(200);
    const hrefs = await page.locator('header a[href], footer a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(hrefs.length).toBeGreaterThan(10);
    const dead = hrefs.filter((h) => h.startsWith('/') && !h.startsWith('/blog'));
    expect(dead).toEqual([]);
    expect(hrefs).toContain('https://ipaydayloans.com/apply?v1=landing-page');
  });

  test('search by state keeps the loan type', async () => {
    const res = await raw('/search?state=ca&type=title-loans');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/title-loans/location/ca');
    expect((await raw('/title-loans/location/ca')).status).toBe(200);
  });

  test('redirects are relative: the browser keeps https behind TLS', async () => {
    const search = await raw('/search?state=ca', { host: 'www.ipaydayloans.com', headers: { 'x-forwarded-proto': 'https' } });
    expect(search.status).toBe(302);
    expect(search.headers.location).toBe('/location/ca');
    const blog = await raw('/', { host: 'blog.ipaydayloans.com' });
    expect(blog.status).toBe(308);
    expect(blog.headers.location).toBe('/blog');
    // an untidy address: one hop to the page, not Next's three
    const untidy = await raw('/FAQS//?utm_source=x', { host: 'www.ipaydayloans.com' });
    expect(untidy.status).toBe(308);
    expect(untidy.headers.location).toBe('/faqs?utm_source=x');
    expect((await raw('/faqs', { host: 'www.ipaydayloans.com' })).status).toBe(200);
  });

  test("SEO files of a brand only on that brand's host", async () => {
    expect((await raw('/api/seo/usbadcreditloans/robots.txt')).status).toBe(404);
    const own = await raw('/robots.txt', { host: 'usbadcreditloans.localhost' });
    expect(own.status).toBe(200);
    expect(own.body).toContain('Sitemap:');
    expect((await raw('/api/seo/ipaydayloans/robots.txt')).status).toBe(200);
  });

  test('only canonical sitemap numbers', async () => {
    expect((await raw('/sitemaps/0.xml')).status).toBe(200);
    for (const path of ['/sitemaps/00.xml', '/sitemaps/0001.xml', '/sitemaps/01.xml']) expect((await raw(path)).status, path).toBe(404);
  });
});
