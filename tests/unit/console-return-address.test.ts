/**
 * Signing in returns the operator to the console page they were going to: a page opened while
 * signed out (a lead's link from an alert email), or the page of a form posted after the session
 * ended, carried by the sign-in page through the password and the two-step code. Only a console
 * page of the console's own list is ever a return address; anything else (another host, a scheme,
 * an API path, an encoded slash, …) signs the operator in to the overview as before. Over the
 * console's form-post route on a started server and a real SQLite store; the pages as
 * getServerSideProps reads them (with Next's resolvedUrl under the internal prefix) and React renders them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GetServerSidePropsContext } from 'next';
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../engine/store/db';
import { BROWSER_ACCEPT, CONSOLE_TEST_HOST } from '../support/consoleForm';

const dir = mkdtempSync(join(tmpdir(), 'console-return-address-'));
let db: Store;
let server: Server;
const PASSWORD = 'a long passphrase 1';
const TOTP_SECRET = Buffer.from('12345678901234567890');

/** What Chromium sends with a form's post. */
const BROWSER = { 'content-type': 'application/x-www-form-urlencoded', accept: BROWSER_ACCEPT, 'sec-fetch-site': 'same-origin' };

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  const { getStore } = await import('../../engine/store/db');
  db = await getStore();
  const { addUser, findUser } = await import('../../engine/store/console');
  const { hashPassword } = await import('../../engine/console/passwords');
  const { startTotpSetup, spendTotpStep } = await import('../../engine/console/totpStore');
  const passwordHash = await hashPassword(PASSWORD, { N: 2 ** 12, r: 8, p: 1 });
  await addUser(db, { email: 'analyst@example.com', role: 'analyst', passwordHash });
  await addUser(db, { email: 'two@example.com', role: 'analyst', passwordHash });
  await addUser(db, { email: 'admin@example.com', role: 'admin', passwordHash });
  const two = (await findUser(db, 'two@example.com'))!;
  await startTotpSetup(db, two.id, TOTP_SECRET);
  // enabled at a step long past, so the code of now is still to be spent
  await spendTotpStep(db, two.id, 1, true);
  const { default: handler } = await import('../../pages/api/console/[action]');
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
}, 60_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Posts a console form to the started server: status, headers and body. */
function post(action: string, fields: Record<string, string>, cookie = '') {
  const body = new URLSearchParams(fields).toString();
  return new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'POST',
        path: `/api/console/${action}`,
        headers: { host: CONSOLE_TEST_HOST, cookie, 'content-length': Buffer.byteLength(body), ...BROWSER },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const cookieOf = (headers: IncomingHttpHeaders) => headers['set-cookie']![0]!.split(';')[0]!;

type PageModule = {
  getServerSideProps: (ctx: GetServerSidePropsContext) => Promise<{ props?: object; redirect?: { destination: string } }>;
  default: FunctionComponent<object>;
};
const PAGES = {
  login: () => import('../../pages/_console/login'),
  lead: () => import('../../pages/_console/leads/[id]'),
  leads: () => import('../../pages/_console/leads/index'),
  refused: () => import('../../pages/_console/refused'),
  experiment: () => import('../../pages/_console/experiments/[id]'),
} as const;

/**
 * A console page's getServerSideProps as Next runs it for the console host's `address` (the front door
 * maps it under /_console): where it redirects, or the sign-in forms' hidden return fields.
 */
async function openPage(page: keyof typeof PAGES, address: string, cookie = '') {
  const mod = (await PAGES[page]()) as unknown as PageModule;
  const url = new URL(address, 'http://console.localhost');
  const ctx = {
    req: { headers: { host: CONSOLE_TEST_HOST, cookie }, socket: { remoteAddress: '198.51.100.9' } },
    res: { statusCode: 200, setHeader: () => undefined },
    query: { ...Object.fromEntries(url.searchParams), ...(page === 'experiment' ? { id: url.pathname.split('/').pop() } : {}) },
    params: page === 'lead' || page === 'experiment' ? { id: url.pathname.split('/').pop() } : {},
    resolvedUrl: `/_console${url.pathname === '/' ? '' : url.pathname}${url.search}`,
  } as unknown as GetServerSidePropsContext;
  const out = await mod.getServerSideProps(ctx);
  if (out.redirect) return { redirect: out.redirect.destination, returnFields: [] as string[] };
  const html = renderToStaticMarkup(createElement(mod.default, out.props!));
  const returnFields = [...html.matchAll(/<input type="hidden" name="next" value="([^"]*)"\/>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  return { redirect: undefined, returnFields, html };
}

describe('a page opened while signed out', () => {
  it('goes to the sign-in page carrying its path and query, and signing in lands on it', async () => {
    const lead = await openPage('lead', '/leads/L42abc');
    expect(lead.redirect).toBe('/login?next=%2Fleads%2FL42abc');
    const list = await openPage('leads', '/leads?status=sold&brand=cocoloan');
    expect(list.redirect).toBe('/login?next=%2Fleads%3Fstatus%3Dsold%26brand%3Dcocoloan');

    const login = await openPage('login', list.redirect!);
    expect(login.returnFields).toEqual(['/leads?status=sold&brand=cocoloan']);
    const wrong = await post('login', { email: 'analyst@example.com', password: 'not it', next: login.returnFields[0]! });
    // a wrong password keeps the return address for the next try
    expect(wrong.headers.location).toBe('/login?error=wrong&next=%2Fleads%3Fstatus%3Dsold%26brand%3Dcocoloan');
    const signedIn = await post('login', { email: 'analyst@example.com', password: PASSWORD, next: login.returnFields[0]! });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/leads?status=sold&brand=cocoloan');

    // a session that had expired (the browser still sends its cookie): the same, saying so
    const expired = await openPage('lead', '/leads/L42abc', '__Host-console_session=no-longer-a-session');
    expect(expired.redirect).toBe('/login?error=expired&next=%2Fleads%2FL42abc');
    // already signed in, the sign-in page sends the operator straight on
    expect((await openPage('login', '/login?next=%2Fleads%2FL42abc', cookieOf(signedIn.headers))).redirect).toBe('/leads/L42abc');
  });
});

describe('a form posted after the session ended', () => {
  it('the sign-in page carries the form’s page, and signing in lands on it', async () => {
    const exportForm = await post('export', { csrf: 'from-the-old-session', from: '2026-01-01', to: '2026-01-02' });
    expect(exportForm.status).toBe(303);
    expect(exportForm.headers.location).toBe('/login?error=session_form&next=%2Fexports');
    // a lead's reveal: the lead's own page
    const reveal = await post('reveal', { csrf: 'from-the-old-session', lead: 'L42abc' });
    expect(reveal.headers.location).toBe('/login?error=session_form&next=%2Fleads%2FL42abc');

    const login = await openPage('login', exportForm.headers.location!);
    expect(login.html).toContain('nothing was changed');
    expect(login.returnFields).toEqual(['/exports']);
    const signedIn = await post('login', { email: 'analyst@example.com', password: PASSWORD, next: login.returnFields[0]! });
    expect(signedIn.headers.location).toBe('/exports');
  });
});

describe('two-step sign-in', () => {
  it('the return address goes through the password and the code to the page', async () => {
    const { totp } = await import('../../engine/console/totp');
    const password = await post('login', { email: 'two@example.com', password: PASSWORD, next: '/leads/L42abc' });
    expect(password.status).toBe(303);
    expect(password.headers.location).toBe('/login?next=%2Fleads%2FL42abc');
    const cookie = cookieOf(password.headers);
    const codePage = await openPage('login', password.headers.location!, cookie);
    expect(codePage.html).toContain('action="/api/console/totp"');
    expect(codePage.returnFields).toEqual(['/leads/L42abc']);
    const csrf = /name="csrf" value="([^"]+)"/.exec(codePage.html!)![1]!;
    // a page opened half signed in (the code still to come) also goes back to the sign-in page with it
    expect((await openPage('leads', '/leads?status=sold', cookie)).redirect).toBe('/login?next=%2Fleads%3Fstatus%3Dsold');

    const wrong = await post('totp', { csrf, action: 'code', code: '000000', next: '/leads/L42abc' }, cookie);
    expect(wrong.headers.location).toBe('/login?error=code&next=%2Fleads%2FL42abc');
    const right = await post('totp', { csrf, action: 'code', code: totp(TOTP_SECRET, Date.now()), next: '/leads/L42abc' }, cookie);
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/leads/L42abc');
    expect(right.headers['set-cookie']?.[0]).toMatch(/^__Host-console_session=[^;]+; /);
  });
});

describe('a one-time sign-in link', () => {
  /** A link an admin made for `email`, as the Users page shows it (its token). */
  async function linkFor(email: string) {
    const { createSignInLink, takeShownLinks } = await import('../../engine/console/signInLinks');
    await createSignInLink(db, email, 'admin@example.com');
    const [shown] = await takeShownLinks(db, 'admin@example.com');
    return shown!.token;
  }

  it('made for a console page (its ?next=), lands on that page once used', async () => {
    const token = await linkFor('analyst@example.com');
    const login = await openPage('login', `/login?${new URLSearchParams({ link: token, next: '/leads?status=sold' })}`);
    expect(login.html).toContain('action="/api/console/links"');
    expect(login.returnFields).toEqual(['/leads?status=sold']);
    const used = await post('links', { op: 'use', token, next: login.returnFields[0]! });
    expect(used.status).toBe(303);
    expect(used.headers.location).toBe('/leads?status=sold');
    // a used link says so and keeps where the operator was going, for the password instead
    const again = await post('links', { op: 'use', token, next: login.returnFields[0]! });
    expect(again.headers.location).toBe('/login?error=link&next=%2Fleads%3Fstatus%3Dsold');
  });

  it('with a second factor, the page is carried to the code prompt', async () => {
    const token = await linkFor('two@example.com');
    const used = await post('links', { op: 'use', token, next: '/leads/L42abc' });
    expect(used.headers.location).toBe('/login?next=%2Fleads%2FL42abc');
    const codePage = await openPage('login', used.headers.location!, cookieOf(used.headers));
    expect(codePage.returnFields).toEqual(['/leads/L42abc']);
  });

  it('a return address that is not a console page signs in to the overview', async () => {
    for (const next of ['https://evil.example/leads', '//evil.example', '/api/console/users', '/leads/../api/console/users']) {
      const token = await linkFor('analyst@example.com');
      expect((await openPage('login', `/login?${new URLSearchParams({ link: token, next })}`)).returnFields).toEqual([]);
      const used = await post('links', { op: 'use', token, next });
      expect(used.headers.location).toBe('/');
    }
  });
});

describe('an experiment’s form', () => {
  const EXPERIMENT = 'payday-hero-headline';
  /** The experiment's page with filters, as its address bar shows it. */
  const PAGE = `/experiments/${EXPERIMENT}?brand=ipaydayloans&from=2026-01-01&device=mobile`;
  const fields = (csrf: string, next?: string) => ({
    csrf,
    brand: 'ipaydayloans',
    experiment: EXPERIMENT,
    op: 'pause',
    version: '0',
    ...(next === undefined ? {} : { next }),
  });

  it('posted after the session ended: signing in again lands on the experiment’s page, not the list', async () => {
    const ended = await post('experiments', fields('from-the-old-session', PAGE));
    expect(ended.status).toBe(303);
    expect(ended.headers.location).toBe(`/login?${new URLSearchParams({ error: 'session_form', next: PAGE })}`);
    const login = await openPage('login', ended.headers.location!);
    expect(login.html).toContain('nothing was changed');
    expect(login.returnFields).toEqual([PAGE]);
    const signedIn = await post('login', { email: 'admin@example.com', password: PASSWORD, next: login.returnFields[0]! });
    expect(signedIn.headers.location).toBe(PAGE);
    // a form without the page's address (drawn before it carried one) still names the experiment's own page
    const bare = await post('experiments', fields('from-the-old-session'));
    expect(bare.headers.location).toBe(`/login?${new URLSearchParams({ error: 'session_form', next: `/experiments/${EXPERIMENT}?brand=ipaydayloans` })}`);
  });

  it('from a page that had expired: the Refused page links back to the experiment’s page', async () => {
    const admin = await post('login', { email: 'admin@example.com', password: PASSWORD });
    const cookie = cookieOf(admin.headers);
    const expired = await post('experiments', fields('from-before-the-last-sign-in', PAGE), cookie);
    expect(expired.headers.location).toBe(`/refused?${new URLSearchParams({ why: 'expired', back: PAGE })}`);
    const refused = await openPage('refused', expired.headers.location!, cookie);
    expect(refused.html).toContain(`<a href="${PAGE.replace(/&/g, '&amp;')}"`);
    expect(refused.html).toContain('Open the page again');
  });

  it('sent: back on the page it was on, filters kept, saying what happened; an address that is not that page is not followed', async () => {
    const admin = await post('login', { email: 'admin@example.com', password: PASSWORD });
    const cookie = cookieOf(admin.headers);
    const page = await openPage('experiment', PAGE, cookie);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.html!)![1]!;
    expect(page.returnFields).toContain(PAGE);
    // a page of another experiment, or another console page, is not where this form was
    for (const next of ['/users', `/experiments/another-one?brand=ipaydayloans`, 'https://evil.example/experiments']) {
      const elsewhere = await post('experiments', { ...fields(csrf, next), op: 'resume' }, cookie);
      expect(elsewhere.headers.location).toBe(`/experiments/${EXPERIMENT}?brand=ipaydayloans&note=state`);
    }
    const paused = await post('experiments', fields(csrf, `${PAGE}&note=stale`), cookie);
    expect(paused.status).toBe(303);
    expect(paused.headers.location).toBe(`${PAGE}&note=paused`);
    const shown = await openPage('experiment', paused.headers.location!, cookie);
    expect(shown.html).toContain('Paused: everyone sees the control now');
    // its forms carry the page's address without the note
    expect(shown.returnFields).toContain(PAGE);
  });
});

describe('setting up a second factor without a session', () => {
  it('says nothing was changed (not that a session expired) and leads back to the account page', async () => {
    for (const action of ['setup', 'confirm']) {
      const none = await post('totp', { csrf: 'no-session', action, ...(action === 'confirm' ? { code: '123456' } : {}) });
      expect(none.status).toBe(303);
      expect(none.headers.location).toBe('/login?error=session_form&next=%2Faccount');
      expect(none.headers['set-cookie']).toBeUndefined();
    }
    const login = await openPage('login', '/login?error=session_form&next=%2Faccount');
    expect(login.html).toContain('nothing was changed');
    expect(login.html).not.toContain('Your session has expired');
    expect(login.returnFields).toEqual(['/account']);
    const signedIn = await post('login', { email: 'analyst@example.com', password: PASSWORD, next: login.returnFields[0]! });
    expect(signedIn.headers.location).toBe('/account');
    // a cookie that no longer signs anyone in: the same, and the cookie is dropped
    const dead = await post('totp', { csrf: 'no-session', action: 'setup' }, '__Host-console_session=no-longer-a-session');
    expect(dead.headers.location).toBe('/login?error=session_form&next=%2Faccount');
    expect(dead.headers['set-cookie']?.[0]).toMatch(/^__Host-console_session=; .*Max-Age=0/);
  });

  it('half signed in (the code still to come): to the code prompt, then the account page', async () => {
    const password = await post('login', { email: 'two@example.com', password: PASSWORD });
    const half = await post('totp', { csrf: 'x', action: 'setup' }, cookieOf(password.headers));
    expect(half.headers.location).toBe('/login?next=%2Faccount');
  });
});

describe('a return address that is not a console page', () => {
  const hostile: [string, string][] = [
    ['another host', 'https://evil.example/leads'],
    ['a scheme without a host', 'javascript:alert(1)'],
    ['a protocol-relative address', '//evil.example/leads'],
    ['a backslash read as a slash', '/\\evil.example/leads'],
    ['backslashes only', '\\\\evil.example'],
    ['an encoded slash', '/%2F%2Fevil.example'],
    ['an encoded slash inside a page path', '/leads%2F..%2Fapi%2Fconsole%2Fusers'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['a tab the URL parser would drop', '/\t/evil.example'],
    ['a newline', '/leads\r\nSet-Cookie: x=1'],
    ['a NUL', '/leads\u0000'],
    ['dot segments to an API path', '/leads/../api/console/users'],
    ['an API path', '/api/console/users'],
    ['the sign-out post', '/api/console/logout'],
    ['the sign-in page itself', '/login?link=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG'],
    ['the internal page prefix', '/_console/leads'],
    ['a built file', '/_next/static/chunks/main.js'],
    ['a relative path', 'leads'],
    ['a user-info host trick', '/leads@evil.example'],
    ['a page the console does not have', '/admin'],
    ['too long', `/leads?brand=${'x'.repeat(600)}`],
    ['a fragment', '/leads#//evil.example'],
    ['empty', ''],
  ];
  it.each(hostile)('%s: signing in lands on the overview, and no page carries it', async (_, next) => {
    const signedIn = await post('login', { email: 'analyst@example.com', password: PASSWORD, next });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/');
    const login = await openPage('login', `/login?${new URLSearchParams({ next })}`);
    expect(login.returnFields).toEqual([]);
    const { signInAddress } = await import('../../engine/console/returnTo');
    expect(signInAddress({ error: 'wrong' }, next)).toBe('/login?error=wrong');
  });

  it('a secret in a page’s query is never carried', async () => {
    const signedIn = await post('login', { email: 'analyst@example.com', password: PASSWORD, next: '/leads?brand=cocoloan&link=abcdefghijklmnop&csrf=x' });
    expect(signedIn.headers.location).toBe('/leads?brand=cocoloan');
  });
});
