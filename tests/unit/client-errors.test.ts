/**
 * Requests the server cannot route answer with a status, a reason and the security headers, over
 * real HTTP on a server wired as server.mjs wires it (requireHostHeader off, the front door's
 * refusals, engine/http/clientErrors.mjs for what Node's parser refuses): a request without a
 * Host header, an unknown method, headers over the limit, Content-Length beside
 * Transfer-Encoding, a request that stops arriving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type OutgoingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { consoleHostsOf, decide, type Door } from '../../engine/frontDoor/frontDoor';
import { answerOf } from '../../engine/frontDoor/answers';
import { rememberingPages } from '../../engine/frontDoor/server';
import { answerClientErrors, forwardedHostOf, hostHeaderCount, hostHeaderOf, upgradesIn } from '../../engine/http/clientErrors.mjs';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const { brands, layouts } = readSources({ extraDir: '' });
const door: Door = {
  catalog: buildCatalog(brands, layouts, BLOCK_SPECS),
  previewModeId: null,
  consoleHosts: consoleHostsOf({}),
  trustForwardedHost: false,
  production: true,
  env: {},
};
const SECURITY: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'SAMEORIGIN'],
];

let server: Server;
let port = 0;
beforeAll(async () => {
  const options = {
    requireHostHeader: false,
    headersTimeout: 1000,
    requestTimeout: 1500,
    connectionsCheckingInterval: 200,
    shouldUpgradeCallback: upgradesIn(false),
  };
  server = createServer(options, (req, res) => {
    for (const [name, value] of SECURITY) res.setHeader(name, value);
    const d = decide({ method: req.method ?? 'GET', target: req.url ?? '/', host: hostHeaderOf(req), hostHeaders: hostHeaderCount(req) }, door);
    const answer = answerOf(d);
    if (answer) {
      res.writeHead(answer.status, answer.headers);
      return res.end(answer.body);
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(`${d.kind}\n`);
  });
  answerClientErrors(server, () => SECURITY);
  // what Next adds at its first request (development's hot reload): in production it answers nothing
  server.on('upgrade', () => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** What the server writes back to raw bytes, until it closes the connection. */
function rawAnswer(bytes: string, { end = true } = {}): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => (end ? socket.end(bytes) : socket.write(bytes)));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = out.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

describe('requests the server cannot route', () => {
  it('HTTP/1.1 without a Host header: 400 naming it, with the security headers', async () => {
    const res = await rawAnswer('GET / HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('The request has no Host header');
  });

  it("HTTP/1.0, which need not send Host, is a request for no host: Next's files answer, anything else is a host of no brand", async () => {
    const res = await rawAnswer('GET / HTTP/1.0\r\n\r\n');
    expect(res.status).toBe(404);
    expect(res.body).toContain('Server error: host');
    const own = await rawAnswer('GET /static/ping.txt HTTP/1.0\r\n\r\n');
    expect(own.status).toBe(200);
  });

  it('two Host headers, the same or different: 400 naming it, with the security headers (node:http would keep the first)', async () => {
    for (const second of ['usinstallmentloans.localhost', 'ipaydayloans.localhost', 'IPAYDAYLOANS.localhost']) {
      const res = await rawAnswer(`GET / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nhost: ${second}\r\nConnection: close\r\n\r\n`);
      expect(res.status, second).toBe(400);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toContain('The request has more than one Host header');
    }
    // one Host header is served as before
    expect(await rawAnswer('GET / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nConnection: close\r\n\r\n')).toMatchObject({
      status: 200,
      body: expect.stringContaining('page'),
    });
  });

  it('an empty Host header is a host of no brand (404), as RFC 9112 allows it', async () => {
    const res = await rawAnswer('GET / HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(404);
  });

  it.each([
    ['an unknown method', 'FOO / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\n\r\n', 400, 'could not be read'],
    ['a header with a control character', 'GET / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nX-A: a\x01b\r\n\r\n', 400, 'could not be read'],
    [
      'Content-Length beside Transfer-Encoding',
      'POST / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'could not be read',
    ],
    ['headers over the limit', `GET / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers are too large'],
  ])('%s: its status with a reason and the security headers, then the connection closes', async (_label, bytes, status, reason) => {
    const res = await rawAnswer(bytes);
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.connection).toBe('close');
    expect(res.body).toContain(reason);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  });

  it('an Expect header other than 100-continue: 417 with a reason and the security headers', async () => {
    const res = await rawAnswer('GET / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nExpect: foo\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(417);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('100-continue');
  });

  it('headers that stop arriving: 408 with the security headers', async () => {
    const res = await rawAnswer('GET / HTTP/1.1\r\nHost: ipaydayloans.localhost\r\n', { end: false });
    expect(res.status).toBe(408);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['ipaydayloans.localhost', '/payday-loans', 200],
    ['evil.example', '/', 404],
    ['ipaydayloans.localhost', '/_brand/ipaydayloans', 404],
  ])('a request asking to upgrade (%s %s) is answered as HTTP by the front door: %s', async (host, path, status) => {
    const res = await rawAnswer(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n\r\n`, { end: false });
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('in development the upgrade listeners (hot reload) still get upgrade requests', () => {
    const dev = createServer();
    const req = {} as never;
    expect(upgradesIn(true).call(dev, req)).toBe(false);
    dev.on('upgrade', () => {});
    expect(upgradesIn(true).call(dev, req)).toBe(true);
    expect(upgradesIn(false).call(dev, req)).toBe(false);
  });

  it('a request with a host of a brand still reaches the front door', async () => {
    const res = await rawAnswer('GET /payday-loans HTTP/1.1\r\nHost: ipaydayloans.localhost\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.body).toContain('page');
  });
});

describe('behind a proxy whose X-Forwarded-Host is believed (TRUST_FORWARDED_HOST=1)', () => {
  let trusting: Server;
  let trustingPort = 0;
  beforeAll(async () => {
    const trusted: Door = { ...door, trustForwardedHost: true };
    // as server.mjs asks: the page decisions remembered per host and target, the header as node:http gives it
    const decideRemembering = rememberingPages();
    trusting = createServer((req, res) => {
      for (const [name, value] of SECURITY) res.setHeader(name, value);
      const facts = { method: req.method ?? 'GET', target: req.url ?? '/', host: hostHeaderOf(req), hostHeaders: hostHeaderCount(req) };
      const d = decideRemembering({ ...facts, forwardedHost: forwardedHostOf(req) }, trusted);
      const answer = answerOf(d);
      if (answer) {
        res.writeHead(answer.status, answer.headers);
        return res.end(answer.body);
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`${d.kind} ${d.kind === 'page' ? d.brand : ''}\n`);
    });
    await new Promise<void>((r) => trusting.listen(0, '127.0.0.1', r));
    trustingPort = (trusting.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => trusting.close(() => r())));

  /** GET / with these headers (pairs: a name given twice is sent as two lines). */
  const get = (headers: OutgoingHttpHeaders | [string, string][]) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: trustingPort, path: '/', agent: false, headers: headers as OutgoingHttpHeaders }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('one X-Forwarded-Host names the brand; without one, the Host header does', async () => {
    expect(await get({ host: 'internal:3000', 'x-forwarded-host': 'weloans.localhost' })).toEqual({ status: 200, body: 'page weloans\n' });
    expect(await get({ host: 'ipaydayloans.localhost' })).toEqual({ status: 200, body: 'page ipaydayloans\n' });
  });

  it.each([
    [
      'one header listing two hosts',
      [
        ['host', 'internal:3000'],
        ['x-forwarded-host', 'weloans.localhost, ipaydayloans.localhost'],
      ],
    ],
    [
      'the header twice',
      [
        ['host', 'internal:3000'],
        ['x-forwarded-host', 'weloans.localhost'],
        ['x-forwarded-host', 'ipaydayloans.localhost'],
      ],
    ],
    [
      'the same host twice',
      [
        ['host', 'internal:3000'],
        ['x-forwarded-host', 'weloans.localhost'],
        ['x-forwarded-host', 'weloans.localhost'],
      ],
    ],
    [
      'a host and an empty value',
      [
        ['host', 'internal:3000'],
        ['x-forwarded-host', 'weloans.localhost,'],
      ],
    ],
  ] as const)("%s: 400 naming it, never the first host's page", async (_label, headers) => {
    const res = await get(headers.map(([n, v]) => [n, v] as [string, string]));
    expect(res.status).toBe(400);
    expect(res.body).toContain('The request has more than one X-Forwarded-Host value');
  });

  it("an empty X-Forwarded-Host: 400 naming it, even after the Host header's page was answered without one", async () => {
    expect(await get({ host: 'ipaydayloans.localhost' })).toEqual({ status: 200, body: 'page ipaydayloans\n' });
    for (const empty of ['', '   ']) {
      const res = await get({ host: 'ipaydayloans.localhost', 'x-forwarded-host': empty });
      expect(res.status).toBe(400);
      expect(res.body).toContain('The request has an empty X-Forwarded-Host header');
    }
  });
});
