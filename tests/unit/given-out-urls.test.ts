/**
 * URLs the engine gives out to be opened later, opened: the one-time sign-in link an admin copies
 * from the console's Users page, and the links to the brands' sites on the Brands page (reached at
 * the origin a lead's consent certificate URL is built with, engine/http/api.ts originOfRequest).
 * A local console (`npm start`, http://console.localhost:PORT) gives out http and its port, and
 * the link opens the sign-in page and signs the user in; a public console host gives out https
 * with no port; a client's own X-Forwarded-Host/Proto are not read. Behind the shipped nginx
 * (deploy/nginx.conf, run for real) on a port of its own, the given-out URLs keep that port and
 * open through it, and a browser's post naming that origin is the console's own. The console's pages and form route run on a started server over a real SQLite
 * store, as Next runs them under the front door; a brand's site is a stand-in saying its origin.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type RunningNginx } from '../support/nginx';
import { freePort } from '../support/ports';
import { BROWSER_ACCEPT } from '../support/consoleForm';
import { send, startConsoleRouteServer, type Answer, type ConsoleRouteServer } from '../support/consoleRouteServer';

const dir = mkdtempSync(join(tmpdir(), 'loansites-given-out-urls-'));
const PASSWORD = 'a long passphrase 1';
const ADMIN = 'boss@example.com';
const COLLEAGUE = 'ana@example.com';
let server: ConsoleRouteServer;
let port: number;
let destroyStore: () => Promise<void>;
const savedTrust = process.env.TRUST_FORWARDED_HOST;

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  delete process.env.TRUST_FORWARDED_HOST;
  const { getStore } = await import('../../engine/store/db');
  const db = await getStore();
  destroyStore = () => db.destroy();
  const { addUser } = await import('../../engine/store/console');
  const { hashPassword } = await import('../../engine/console/passwords');
  const passwordHash = await hashPassword(PASSWORD, { N: 2 ** 12, r: 8, p: 1 });
  await addUser(db, { email: ADMIN, role: 'admin', passwordHash });
  await addUser(db, { email: COLLEAGUE, role: 'analyst', passwordHash });
  server = await startConsoleRouteServer();
  port = server.port;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await destroyStore?.();
  if (savedTrust === undefined) delete process.env.TRUST_FORWARDED_HOST;
  else process.env.TRUST_FORWARDED_HOST = savedTrust;
  rmSync(dir, { recursive: true, force: true });
});

/** Opens a given-out URL as a browser on this machine would: *.localhost is the loopback, at the URL's own port. */
function open(address: string, init: { method?: string; cookie?: string; form?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL(address);
  // a plain-http test server: an https URL would not open on it
  expect(url.protocol, `${address} opens on a plain-http server`).toBe('http:');
  const body = init.form ? new URLSearchParams(init.form).toString() : '';
  const form: Record<string, string> = init.form ? { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } : {};
  const headers: Record<string, string> = { host: url.host, accept: BROWSER_ACCEPT, ...(init.cookie ? { cookie: init.cookie } : {}), ...form };
  return send(Number(url.port || 80), init.method ?? (init.form ? 'POST' : 'GET'), `${url.pathname}${url.search}`, headers, body);
}

/** Bytes sent as they are (node:http cannot send an absolute request line); the whole answer. */
function rawHttp(to: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // written, not ended: nginx takes a client's half-close for a client gone (499)
    const socket = connect(to, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (got += c));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
}

const cookieOf = (a: Answer) => String(a.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
const html = (text: string) => text.replace(/&amp;/g, '&');

/** Signs the admin in at `origin` and makes a sign-in link for the colleague: the admin's session cookie and CSRF token. */
async function adminAt(origin: string): Promise<{ cookie: string; csrf: string }> {
  const signedIn = await open(`${origin}/api/console/login`, { form: { email: ADMIN, password: PASSWORD } });
  expect(signedIn.status, signedIn.body).toBe(303);
  const cookie = cookieOf(signedIn);
  const { csrfToken } = await import('../../engine/console/csrf');
  return { cookie, csrf: csrfToken(cookie.split('=')[1]!) };
}

/** The sign-in link the Users page shows the admin, asked for at `host` through `to` (with any more headers). */
async function shownLink(admin: { cookie: string; csrf: string }, to: number, host: string, headers: Record<string, string> = {}): Promise<string> {
  const made = await send(
    to,
    'POST',
    '/api/console/links',
    { host, cookie: admin.cookie, accept: BROWSER_ACCEPT, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    new URLSearchParams({ op: 'create', email: COLLEAGUE, csrf: admin.csrf }).toString(),
  );
  expect(made.headers.location).toBe('/users?note=link');
  const page = await send(to, 'GET', '/users?note=link', { host, cookie: admin.cookie, ...headers });
  expect(page.status, page.body).toBe(200);
  const link = /<code data-sign-in-link="[^"]*">([^<]*)<\/code>/.exec(page.body)?.[1];
  expect(link, 'the Users page shows the link').toBeDefined();
  return html(link!);
}

/** Opens a sign-in link as the colleague: the sign-in page, its button, and then signed in. */
async function expectSignsIn(link: string) {
  const page = await open(link);
  expect(page.status).toBe(200);
  expect(page.body).toContain('Sign in with this link');
  const token = /name="token" value="([^"]*)"/.exec(page.body)?.[1];
  expect(token).toBe(new URL(link).searchParams.get('link'));
  const origin = new URL(link).origin;
  const used = await open(`${origin}/api/console/links`, { form: { op: 'use', token: token! } });
  expect(used.status).toBe(303);
  expect(used.headers.location).toBe('/');
  // signed in: the sign-in page sends them straight on
  const again = await open(`${origin}/login`, { cookie: cookieOf(used) });
  expect(again.headers.location).toBe('/');
}

describe('a console reached directly (no proxy)', () => {
  it("the Users page's sign-in link on a local console is its http origin with its port, and opens and signs the user in", async () => {
    const origin = `http://console.localhost:${port}`;
    const link = await shownLink(await adminAt(origin), port, `console.localhost:${port}`);
    expect(link).toMatch(new RegExp(`^http://console\\.localhost:${port}/login\\?link=[A-Za-z0-9_-]{43}$`));
    await expectSignsIn(link);
  });

  it("a client's own X-Forwarded-Host and X-Forwarded-Proto do not change it", async () => {
    const admin = await adminAt(`http://console.localhost:${port}`);
    const link = await shownLink(admin, port, `console.localhost:${port}`, { 'x-forwarded-host': 'evil.localhost:9999', 'x-forwarded-proto': 'https' });
    expect(new URL(link).origin).toBe(`http://console.localhost:${port}`);
  });

  it('a public console host gives out https with no port, whatever port the request came with', async () => {
    const admin = await adminAt(`http://console.localhost:${port}`);
    const link = await shownLink(admin, port, `console.example.com:${port}`);
    expect(link).toMatch(/^https:\/\/console\.example\.com\/login\?link=[A-Za-z0-9_-]{43}$/);
  });
});

describe('behind the shipped nginx on a port of its own (a trusted proxy)', () => {
  let nginx: RunningNginx;
  beforeAll(async () => {
    // the app behind it believes the X-Forwarded-* headers nginx sets, as deploy/compose.yaml runs it
    process.env.TRUST_FORWARDED_HOST = '1';
    nginx = await startNginx({ port: await freePort(), upstreams: [port, port] });
  }, 30_000);
  afterAll(async () => {
    delete process.env.TRUST_FORWARDED_HOST;
    await nginx?.stop();
  });

  it("the Users page's sign-in link keeps nginx's port, and opens and signs the user in through nginx", async () => {
    const origin = `http://console.localhost:${nginx.port}`;
    const link = await shownLink(await adminAt(origin), nginx.port, `console.localhost:${nginx.port}`);
    expect(new URL(link).origin).toBe(origin);
    await expectSignsIn(link);
  });

  it('a browser that names its Origin but sends no Sec-Fetch-Site signs in through nginx on its port; another origin is refused', async () => {
    // nginx sends the app Host: console.localhost (no port); the origin the browser used is in X-Forwarded-Host
    const form = new URLSearchParams({ email: ADMIN, password: PASSWORD }).toString();
    const headers = { host: `console.localhost:${nginx.port}`, accept: BROWSER_ACCEPT, 'content-type': 'application/x-www-form-urlencoded' };
    const signedIn = await send(nginx.port, 'POST', '/api/console/login', { ...headers, origin: `http://console.localhost:${nginx.port}` }, form);
    expect(signedIn.headers.location).toBe('/');
    expect(cookieOf(signedIn)).toMatch(/=./);
    for (const origin of [`http://evil.localhost:${nginx.port}`, 'http://console.localhost', `https://console.localhost:${nginx.port}`]) {
      const refused = await send(nginx.port, 'POST', '/api/console/login', { ...headers, origin }, form);
      expect(refused.headers.location, origin).toBe('/login?error=refused');
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
  });

  it("a client's own X-Forwarded-Host is overwritten by nginx, not passed on", async () => {
    const admin = await adminAt(`http://console.localhost:${nginx.port}`);
    const headers = { 'x-forwarded-host': 'evil.localhost:9999', 'x-forwarded-proto': 'https' };
    const link = await shownLink(admin, nginx.port, `console.localhost:${nginx.port}`, headers);
    expect(new URL(link).origin).toBe(`http://console.localhost:${nginx.port}`);
  });

  it('a public console host still gives out https with no port', async () => {
    const admin = await adminAt(`http://console.localhost:${nginx.port}`);
    expect(new URL(await shownLink(admin, nginx.port, `console.example.com:${nginx.port}`)).origin).toBe('https://console.example.com');
  });

  it('an absolute request line: the host nginx routed (and cached) by is the one the link names, not the Host header’s', async () => {
    const admin = await adminAt(`http://console.localhost:${nginx.port}`);
    await shownLink(admin, nginx.port, `console.localhost:${nginx.port}`); // the link made, shown to the next page view
    await send(
      nginx.port,
      'POST',
      '/api/console/links',
      {
        host: `console.localhost:${nginx.port}`,
        cookie: admin.cookie,
        accept: BROWSER_ACCEPT,
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
      new URLSearchParams({ op: 'create', email: COLLEAGUE, csrf: admin.csrf }).toString(),
    );
    const page = await rawHttp(
      nginx.port,
      `GET http://console.example.com/users HTTP/1.1\r\nHost: console.localhost:${nginx.port}\r\nCookie: ${admin.cookie}\r\nConnection: close\r\n\r\n`,
    );
    expect(/<code data-sign-in-link="[^"]*">https:\/\/console\.example\.com\/login\?link=/.test(page), page.slice(0, 300)).toBe(true);
  });

  it("the Brands page's link to a brand's local site keeps nginx's port and opens, and the site gives out that origin", async () => {
    const admin = await adminAt(`http://console.localhost:${nginx.port}`);
    const page = await send(nginx.port, 'GET', '/brands', { host: `console.localhost:${nginx.port}`, cookie: admin.cookie });
    expect(page.status, page.body).toBe(200);
    const href = /<a href="([^"]*)"[^>]*>Open ipaydayloans<\/a>/.exec(page.body)?.[1];
    expect(href).toBe(`http://ipaydayloans.localhost:${nginx.port}/`);
    const site = await open(href!);
    expect(site.status).toBe(200);
    // the origin a lead posted there gets its certificate URL from (originOfRequest)
    expect(site.body).toBe(`the site at http://ipaydayloans.localhost:${nginx.port}`);
  });
});
