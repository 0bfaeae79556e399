/**
 * The console's same-origin check on form posts, and the sign-in links it gives out, on a console
 * started on a loopback port over a real SQLite store. A browser that sends no Sec-Fetch-Site
 * (Safari before 16.4, older Firefox) names its page's origin in Origin: the post is the
 * console's own when that is the origin the browser addressed — behind a trusted proxy
 * (TRUST_FORWARDED_HOST=1) its X-Forwarded-Host and -Proto, not the upstream's Host; never a
 * client's own X-Forwarded-* otherwise; and an http page is not the https console. The test plays
 * the proxy: it sends what a proxy that overwrites the X-Forwarded-* headers sends. An admin's
 * sign-in link may name the console page it opens at ("Open at"): the colleague lands there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_ACCEPT } from '../support/consoleForm';
import { send, startConsoleRouteServer, type Answer, type ConsoleRouteServer } from '../support/consoleRouteServer';

const dir = mkdtempSync(join(tmpdir(), 'loansites-console-origin-'));
const PASSWORD = 'a long passphrase 1';
const ADMIN = 'boss@example.com';
const COLLEAGUE = 'ana@example.com';
const savedTrust = process.env.TRUST_FORWARDED_HOST;
let server: ConsoleRouteServer;
let destroyStore: () => Promise<void>;

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  const { getStore } = await import('../../engine/store/db');
  const db = await getStore();
  destroyStore = () => db.destroy();
  const { addUser } = await import('../../engine/store/console');
  const { hashPassword } = await import('../../engine/console/passwords');
  const passwordHash = await hashPassword(PASSWORD, { N: 2 ** 12, r: 8, p: 1 });
  await addUser(db, { email: ADMIN, role: 'admin', passwordHash });
  await addUser(db, { email: COLLEAGUE, role: 'analyst', passwordHash });
  server = await startConsoleRouteServer();
}, 60_000);

afterEach(() => {
  delete process.env.TRUST_FORWARDED_HOST;
});

afterAll(async () => {
  await server?.close();
  await destroyStore?.();
  if (savedTrust === undefined) delete process.env.TRUST_FORWARDED_HOST;
  else process.env.TRUST_FORWARDED_HOST = savedTrust;
  rmSync(dir, { recursive: true, force: true });
});

/** What a proxy in front of a public https console sends the app: its own upstream Host, the browser's host and scheme. */
const PUBLIC_PROXIED = { host: '127.0.0.1:3000', 'x-forwarded-host': 'console.example.com', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };

/** A form post as a browser without Sec-Fetch-Site sends it: its page's Origin, and `headers` for where it was sent. */
function post(path: string, fields: Record<string, string>, origin: string, headers: Record<string, string>, cookie?: string): Promise<Answer> {
  return send(
    server.port,
    'POST',
    path,
    {
      accept: BROWSER_ACCEPT,
      'content-type': 'application/x-www-form-urlencoded',
      origin,
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    new URLSearchParams(fields).toString(),
  );
}

const cookieOf = (a: Answer) => String(a.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
const html = (text: string) => text.replace(/&amp;/g, '&');

/** The admin signed in with `origin`/`headers`: the session cookie and its CSRF token. */
async function signIn(origin: string, headers: Record<string, string>): Promise<{ cookie: string; csrf: string }> {
  const signedIn = await post('/api/console/login', { email: ADMIN, password: PASSWORD }, origin, headers);
  expect(signedIn.status, signedIn.body).toBe(303);
  const cookie = cookieOf(signedIn);
  expect(cookie).toMatch(/=./);
  const { csrfToken } = await import('../../engine/console/csrf');
  return { cookie, csrf: csrfToken(cookie.split('=')[1]!) };
}

/** The sign-in link the Users page shows right after it was made, or undefined when it shows none. */
async function shownLink(cookie: string, headers: Record<string, string>): Promise<string | undefined> {
  const page = await send(server.port, 'GET', '/users', { cookie, ...headers });
  expect(page.status, page.body).toBe(200);
  const link = /<code data-sign-in-link="[^"]*">([^<]*)<\/code>/.exec(page.body)?.[1];
  return link === undefined ? undefined : html(link);
}

describe('behind a trusted proxy', () => {
  it('a same-origin post from a browser without Sec-Fetch-Site is accepted, and the sign-in link is the public https origin', async () => {
    process.env.TRUST_FORWARDED_HOST = '1';
    const admin = await signIn('https://console.example.com', PUBLIC_PROXIED);
    const made = await post(
      '/api/console/links',
      { op: 'create', email: COLLEAGUE, csrf: admin.csrf },
      'https://console.example.com',
      PUBLIC_PROXIED,
      admin.cookie,
    );
    expect(made.status, made.body).toBe(303);
    expect(made.headers.location).toBe('/users?note=link');
    expect(await shownLink(admin.cookie, PUBLIC_PROXIED)).toMatch(/^https:\/\/console\.example\.com\/login\?link=[A-Za-z0-9_-]{43}$/);
  });

  it('a local console behind the proxy on a port of its own: the port the browser used is its origin', async () => {
    process.env.TRUST_FORWARDED_HOST = '1';
    // the proxy's Host has no port (nginx's $host); the browser's port is in X-Forwarded-Host
    const proxied = { host: 'console.localhost', 'x-forwarded-host': 'console.localhost:8080', 'x-forwarded-proto': 'http' };
    await signIn('http://console.localhost:8080', proxied);
  });

  it.each([
    ['another site', 'https://evil.example.com'],
    ['the console host over http, when the browser used https', 'http://console.example.com'],
    ['the upstream address the proxy sent to', `http://127.0.0.1:3000`],
    ['no page at all (a sandboxed frame, a data: URL)', 'null'],
  ])('a post from %s is refused: 403, and the sign-in page says so', async (_, origin) => {
    process.env.TRUST_FORWARDED_HOST = '1';
    const admin = await signIn('https://console.example.com', PUBLIC_PROXIED);
    await expectRefused(admin, origin, PUBLIC_PROXIED);
  });
});

/** A post from `origin` refused: a change with a valid session and CSRF token is a 403, no link is made; a sign-in goes back to the sign-in page without a session. */
async function expectRefused(admin: { cookie: string; csrf: string }, origin: string, headers: Record<string, string>) {
  const refused = await post('/api/console/links', { op: 'create', email: COLLEAGUE, csrf: admin.csrf }, origin, headers, admin.cookie);
  expect(refused.status, origin).toBe(403);
  expect(JSON.parse(refused.body)).toMatchObject({ error: 'Console forms are accepted from the console’s own pages only' });
  expect(await shownLink(admin.cookie, headers)).toBeUndefined();
  const signIn = await post('/api/console/login', { email: ADMIN, password: PASSWORD }, origin, headers);
  expect(signIn.headers.location, origin).toBe('/login?error=refused');
  expect(signIn.headers['set-cookie']).toBeUndefined();
}

describe('with no trusted proxy (TRUST_FORWARDED_HOST unset)', () => {
  const direct = () => ({ host: `console.localhost:${server.port}` });

  it.each([
    ['another site', () => 'https://evil.example.com'],
    ['https, for a console reached over http', () => `https://console.localhost:${server.port}`],
    ['the console host on another port', () => 'http://console.localhost:9999'],
  ])('a post from %s is refused: 403', async (_, origin) => {
    const admin = await signIn(`http://console.localhost:${server.port}`, direct());
    await expectRefused(admin, origin(), direct());
  });

  it("a client's own X-Forwarded-Host and -Proto are not believed: a post naming them as its origin is refused", async () => {
    const spoofed = { ...direct(), 'x-forwarded-host': 'evil.localhost:9999', 'x-forwarded-proto': 'https' };
    // the console's own origin still is its origin, whatever they say
    const admin = await signIn(`http://console.localhost:${server.port}`, spoofed);
    await expectRefused(admin, 'https://evil.localhost:9999', spoofed);
  });

  it("the sign-in link keeps the console's origin, not a client's X-Forwarded-Host", async () => {
    const admin = await signIn(`http://console.localhost:${server.port}`, direct());
    const made = await post(
      '/api/console/links',
      { op: 'create', email: COLLEAGUE, csrf: admin.csrf },
      `http://console.localhost:${server.port}`,
      direct(),
      admin.cookie,
    );
    expect(made.headers.location).toBe('/users?note=link');
    const link = await shownLink(admin.cookie, { ...direct(), 'x-forwarded-host': 'evil.localhost:9999', 'x-forwarded-proto': 'https' });
    expect(new URL(link!).origin).toBe(`http://console.localhost:${server.port}`);
  });
});

describe('a sign-in link that opens at a console page', () => {
  const origin = () => `http://console.localhost:${server.port}`;
  const direct = () => ({ host: `console.localhost:${server.port}` });

  it('the colleague lands on the page the admin named after using the link', async () => {
    const admin = await signIn(origin(), direct());
    const made = await post(
      '/api/console/links',
      { op: 'create', email: COLLEAGUE, csrf: admin.csrf, open: '/leads?status=sold' },
      origin(),
      direct(),
      admin.cookie,
    );
    expect(made.headers.location).toBe('/users?note=link');
    const link = (await shownLink(admin.cookie, direct()))!;
    expect(new URL(link).searchParams.get('next')).toBe('/leads?status=sold');

    // the colleague opens the link: the sign-in page's button, then signed in, at that page
    const url = new URL(link);
    const page = await send(server.port, 'GET', `${url.pathname}${url.search}`, { host: url.host, accept: BROWSER_ACCEPT });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Sign in with this link');
    const token = /name="token" value="([^"]*)"/.exec(page.body)![1]!;
    const next = html(/name="next" value="([^"]*)"/.exec(page.body)![1]!);
    const used = await post('/api/console/links', { op: 'use', token, next }, origin(), direct());
    expect(used.status).toBe(303);
    expect(used.headers.location).toBe('/leads?status=sold');
    const landed = await send(server.port, 'GET', used.headers.location!, { ...direct(), cookie: cookieOf(used) });
    expect(landed.status, landed.body.slice(0, 300)).toBe(200);
    expect(landed.body).toContain('<h1');
    expect(landed.body).toMatch(/<h1[^>]*>Leads<\/h1>/);
  });

  it.each(['https://evil.example.com/leads', '//evil.example.com/leads', '/api/console/users', 'leads', '/no-such-page'])(
    'a path that is not a console page (%s) is refused with a note, and no link is made',
    async (open) => {
      const admin = await signIn(origin(), direct());
      const made = await post('/api/console/links', { op: 'create', email: COLLEAGUE, csrf: admin.csrf, open }, origin(), direct(), admin.cookie);
      expect(made.status).toBe(303);
      expect(made.headers.location).toBe('/users?note=link_open');
      const page = await send(server.port, 'GET', made.headers.location!, { ...direct(), cookie: admin.cookie });
      expect(page.body).toContain('<p role="alert"');
      expect(html(page.body)).toContain('That page is not a console page: give a path such as /leads. No sign-in link was made.');
      expect(page.body).not.toContain('data-sign-in-link');
    },
  );

  it.each(['', '/', '  '])('an Open at of %j is the overview: the link names no page', async (open) => {
    const admin = await signIn(origin(), direct());
    const made = await post('/api/console/links', { op: 'create', email: COLLEAGUE, csrf: admin.csrf, open }, origin(), direct(), admin.cookie);
    expect(made.headers.location).toBe('/users?note=link');
    const link = (await shownLink(admin.cookie, direct()))!;
    expect(link).toMatch(new RegExp(`^http://console\\.localhost:${server.port}/login\\?link=[A-Za-z0-9_-]{43}$`));
  });

  it('the Users page labels the field, per account', async () => {
    const admin = await signIn(origin(), direct());
    const page = await send(server.port, 'GET', '/users', { ...direct(), cookie: admin.cookie });
    const field = new RegExp(
      `<label[^>]*for="open-${COLLEAGUE.replace(/\./g, '\\.')}"[^>]*>Open at<span class="sr-only">[^<]*${COLLEAGUE.replace(/\./g, '\\.')}`,
    );
    expect(page.body).toMatch(field);
    expect(page.body).toMatch(new RegExp(`<input id="open-${COLLEAGUE.replace(/\./g, '\\.')}"[^>]* name="open"`));
  });
});
