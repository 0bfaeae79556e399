/**
 * A console form post a browser sends, refused for what its page could not show, lands on a
 * console page that says so rather than a page of bare JSON (the console's pages run no script):
 * a form from a page that had expired (no or a wrong CSRF token), a form the operator's role does
 * not allow (made by hand, or left open after the role changed), a form about a brand the
 * operator's account may not change, a form posted after the session ended (to the sign-in page),
 * and an export of more than EXPORT_MAX rows. An API client (Accept: application/json, or no text/html) keeps the JSON answer
 * and status it had. Over the console's form-post route on a started server and a real SQLite
 * store; the pages as getServerSideProps reads them and React renders them.
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
import { CONSOLE_TEST_HOST, consoleSignIn } from '../support/consoleForm';
import { leadRow } from '../support/leadRow';

const dir = mkdtempSync(join(tmpdir(), 'console-browser-refusals-'));
let db: Store;
let server: Server;
type Who = 'admin' | 'analyst' | 'editor';
const users: Record<Who, { cookie: string; csrf: string }> = {
  admin: { cookie: '', csrf: '' },
  analyst: { cookie: '', csrf: '' },
  editor: { cookie: '', csrf: '' },
};

/** What Chromium sends with a form's post: the form's content type and a navigation's Accept. */
const BROWSER = {
  'content-type': 'application/x-www-form-urlencoded',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'sec-fetch-site': 'same-origin',
};
const JSON_CLIENT = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
/** A terminal client: no Accept beyond curl's default. */
const CURL = { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' };

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  const { getStore } = await import('../../engine/store/db');
  db = await getStore();
  const { addUser } = await import('../../engine/store/console');
  const { hashPassword } = await import('../../engine/console/passwords');
  for (const role of ['admin', 'analyst', 'editor'] as const) {
    // the editor may change one brand only
    const brands = role === 'editor' ? ['cocoloan'] : undefined;
    await addUser(db, { email: `${role}@example.com`, role, brands, passwordHash: await hashPassword('a long passphrase 1', { N: 2 ** 12, r: 8, p: 1 }) });
    users[role] = (await consoleSignIn(db, `${role}@example.com`, 'a long passphrase 1'))!;
  }
  const { default: handler } = await import('../../pages/api/console/[action]');
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
}, 60_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  const { closeStore } = await import('../../engine/store/db');
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

/** Posts a console form to the started server as `who` (or with a session cookie as given): status, headers and body. */
function post(action: string, fields: Record<string, string>, headers: Record<string, string>, who: Who | { cookie: string }) {
  const body = new URLSearchParams(fields).toString();
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'POST',
        path: `/api/console/${action}`,
        headers: {
          host: CONSOLE_TEST_HOST,
          cookie: typeof who === 'string' ? users[who].cookie : who.cookie,
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A console page as the browser gets it for `who`: its status and the text of its main area (tags dropped). */
async function consolePageText(path: 'refused' | 'exports' | 'leads/index' | 'login', query: Record<string, string>, who: Who | { cookie: string }) {
  const pages = {
    refused: () => import('../../pages/_console/refused'),
    login: () => import('../../pages/_console/login'),
    exports: () => import('../../pages/_console/exports'),
    'leads/index': () => import('../../pages/_console/leads/index'),
  };
  const mod = (await pages[path]()) as unknown as {
    getServerSideProps: (ctx: GetServerSidePropsContext) => Promise<{ props?: object; redirect?: unknown }>;
    default: FunctionComponent<object>;
  };
  const res = { statusCode: 200, setHeader: () => undefined };
  const ctx = {
    req: { headers: { host: CONSOLE_TEST_HOST, cookie: typeof who === 'string' ? users[who].cookie : who.cookie }, socket: { remoteAddress: '198.51.100.9' } },
    res,
    query,
  } as unknown as GetServerSidePropsContext;
  const { props } = await mod.getServerSideProps(ctx);
  const html = renderToStaticMarkup(createElement(mod.default, props!));
  const alert = /<(div|p) role="alert"[^>]*>(.*?)<\/\1>/s.exec(html)?.[2] ?? '';
  const text = (s: string) =>
    s
      .replace(/<\/p><p[^>]*>/g, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&#x27;/g, "'")
      .trim();
  return { status: res.statusCode, heading: text(/<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1] ?? ''), alert: text(alert), html };
}

describe('a form from a page that had expired', () => {
  it('a browser is sent to a page saying nothing was changed, with the way back to the form’s page; an API client keeps its 403 JSON', async () => {
    const fields = { csrf: 'from-an-old-session', op: 'role', email: 'analyst@example.com', role: 'viewer' };
    const browser = await post('users', fields, BROWSER, 'admin');
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe('/refused?why=expired&back=%2Fusers');
    const page = await consolePageText('refused', { why: 'expired', back: '/users' }, 'admin');
    expect(page).toMatchObject({
      status: 403,
      heading: 'This page had expired',
      alert: 'Nothing was changed: the page you sent the form from had expired. Open it again and try again.',
    });
    expect(page.html).toContain('<a href="/users"');
    expect(page.html).toContain('Open the page again');
    // a reveal's expired form leads back to its lead
    expect((await post('reveal', { csrf: '', lead: 'ld_someone1' }, BROWSER, 'analyst')).headers.location).toBe(
      '/refused?why=expired&back=%2Fleads%2Fld_someone1',
    );
    for (const client of [JSON_CLIENT, CURL]) {
      const api = await post('users', fields, client, 'admin');
      expect(api.status).toBe(403);
      expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(api.body).toBe('{"error":"The form is out of date; reload the page and try again"}');
    }
    const row = await db.selectFrom('console_users').select('role').where('email', '=', 'analyst@example.com').executeTakeFirstOrThrow();
    expect(row.role).toBe('analyst');
  });

  it('the way back is only ever one of the console’s own pages', async () => {
    for (const back of ['//evil.example/users', 'https://evil.example/', '/api/console/users', '/nowhere', 'javascript:alert(1)'])
      expect((await consolePageText('refused', { why: 'expired', back }, 'admin')).html).toContain('<a href="/"');
    expect((await consolePageText('refused', { why: 'expired', back: '/leads/ld_someone1' }, 'admin')).html).toContain('<a href="/leads/ld_someone1"');
  });
});

describe('a form the operator’s role does not allow', () => {
  it('a browser is sent to a page naming the role the action needs; an API client keeps its 403 JSON', async () => {
    const fields = { csrf: users.analyst.csrf, from: '2025-01-01', to: '2025-01-02' };
    const browser = await post('export', fields, BROWSER, 'analyst');
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe('/refused?why=role&permission=exports.run');
    const page = await consolePageText('refused', { why: 'role', permission: 'exports.run' }, 'analyst');
    expect(page).toMatchObject({
      status: 403,
      heading: 'Not for your role',
      alert:
        'Nothing was changed: your role (analyst) may not export leads or upload costs. That needs the admin role. If your role changed while the page was open, it still showed a form your role no longer has. Ask an admin if you need it.',
    });
    expect(page.html).toContain('<a href="/"');
    // an action more than one role may do names them all
    const { refusedText } = await import('../../engine/console/formRefusals');
    expect(refusedText({ why: 'role', permission: 'leads.reveal' }, 'viewer').lines[0]).toBe(
      'Nothing was changed: your role (viewer) may not reveal a lead’s personal data. That needs the admin or analyst role.',
    );
    // a made-up permission says only the page's own words
    expect((await consolePageText('refused', { why: 'role', permission: '<b>constructor</b>' }, 'analyst')).heading).toBe('This page had expired');
    for (const client of [JSON_CLIENT, CURL]) {
      const api = await post('export', fields, client, 'analyst');
      expect(api.status).toBe(403);
      expect(api.body).toBe('{"error":"Your role (analyst) may not export leads or upload costs"}');
    }
    expect((await post('users', { csrf: users.analyst.csrf, op: 'role' }, BROWSER, 'analyst')).headers.location).toBe(
      '/refused?why=role&permission=users.manage',
    );
  });
});

describe('a form posted after the session ended', () => {
  it('a browser is sent to the sign-in page saying the session had ended and nothing was changed; an API client keeps its 401 JSON', async () => {
    // signed in in two tabs, signed out in one: the other tab's form still carries the old cookie
    const { consoleSignIn } = await import('../support/consoleForm');
    const tab = (await consoleSignIn(db, 'admin@example.com', 'a long passphrase 1'))!;
    const out = await post('logout', { csrf: tab.csrf }, BROWSER, tab);
    expect(out.headers.location).toBe('/login?status=out');
    const fields = { csrf: tab.csrf, op: 'role', email: 'analyst@example.com', role: 'viewer' };
    const signedOut = await post('users', fields, BROWSER, tab);
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.location).toBe('/login?error=session_form&next=%2Fusers');
    // the dead cookie is dropped, as the pages drop it
    expect(signedOut.headers['set-cookie']?.[0]).toMatch(/^__Host-console_session=; .*Max-Age=0/);
    // an expired session: the browser no longer sends the cookie at all
    const expired = await post('experiments', { csrf: tab.csrf, brand: 'cocoloan', experiment: 'x', op: 'pause', version: '0' }, BROWSER, { cookie: '' });
    expect(expired.status).toBe(303);
    expect(expired.headers.location).toBe('/login?error=session_form&next=%2Fexperiments%2Fx%3Fbrand%3Dcocoloan');
    expect(expired.headers['set-cookie']).toBeUndefined();

    const page = await consolePageText('login', { error: 'session_form' }, { cookie: '' });
    expect(page).toMatchObject({
      status: 200,
      heading: 'Sign in',
      alert: 'Your session had expired or was signed out, so nothing was changed. Sign in again, then open the page and send the form again.',
    });
    expect(page.html).toContain('action="/api/console/login"');

    for (const client of [JSON_CLIENT, CURL]) {
      const api = await post('users', fields, client, tab);
      expect(api.status).toBe(401);
      expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(api.headers['set-cookie']).toBeUndefined();
      expect(api.body).toBe('{"error":"Sign in first"}');
    }
    const row = await db.selectFrom('console_users').select('role').where('email', '=', 'analyst@example.com').executeTakeFirstOrThrow();
    expect(row.role).toBe('analyst');
  });
});

describe('a form about a brand the operator’s account may not change', () => {
  it('a browser is sent to a page naming the brand and that an admin can give access; an API client keeps its 403 JSON', async () => {
    const fields = { csrf: users.editor.csrf, brand: 'ipaydayloans', experiment: 'payday-hero-headline', op: 'pause', version: '0' };
    const browser = await post('experiments', fields, BROWSER, 'editor');
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe('/refused?why=brand&brand=ipaydayloans');
    const page = await consolePageText('refused', { why: 'brand', brand: 'ipaydayloans' }, 'editor');
    expect(page).toMatchObject({
      status: 403,
      heading: 'Not one of your brands',
      alert: 'Nothing was changed: your account may not change the brand “ipaydayloans”. An admin can give your account access to it on the Users page.',
    });
    expect(page.html).toContain('<a href="/"');
    for (const client of [JSON_CLIENT, CURL]) {
      const api = await post('experiments', fields, client, 'editor');
      expect(api.status).toBe(403);
      expect(api.body).toBe('{"error":"Your account may not change the brand \\"ipaydayloans\\""}');
    }
    const { publishedBrand } = await import('../../engine/store/brandRevisions');
    expect(await publishedBrand(db, 'ipaydayloans')).toBeUndefined();
  });

  it('the page names only a brand id, and only one the account may not change', async () => {
    // text that is not a brand id says only the page's own words (and nothing of the address)
    const made = await consolePageText('refused', { why: 'brand', brand: '<img src=x onerror=alert(1)>' }, 'editor');
    expect(made.heading).toBe('This page had expired');
    expect(made.html).not.toContain('onerror');
    // the editor's own brand, or an admin (every brand): the account may change it after all
    expect((await consolePageText('refused', { why: 'brand', brand: 'cocoloan' }, 'editor')).heading).toBe('This page had expired');
    expect((await consolePageText('refused', { why: 'brand', brand: 'ipaydayloans' }, 'admin')).heading).toBe('This page had expired');
  });
});

describe('an export of more than EXPORT_MAX rows', () => {
  const DAY = '2024-06-03';
  beforeAll(async () => {
    const { EXPORT_MAX } = await import('../../engine/console/adminQueries');
    const at = `${DAY}T12:00:00.000Z`;
    // sold, each with a Google click id: over the limit for both exports
    const base = leadRow({ created_at: at, click_id: 'ggMany' });
    const rows = Array.from({ length: EXPORT_MAX + 1 }, (_, i) => ({ ...base, id: `ld_many${i}`, idempotency_key: `many-${i}-abcdefghijklmnop` }));
    const sale = { status: 'sold' as const, duplicate: 0, runs: 1, buyer_id: 'b', price_cents: 3100, created_at: at, decided_at: at };
    // a few hundred rows a statement: SQLite's limit on bound values
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) {
        const some = rows.slice(i, i + 500);
        await trx.insertInto('leads').values(some).execute();
        await trx
          .insertInto('lead_sales')
          .values(some.map((r) => ({ ...sale, lead_id: r.id })))
          .execute();
      }
    });
  }, 120_000);

  it('from the Exports page: back to it, which says the limit and to narrow the range; an API client keeps its 413', async () => {
    const fields = { csrf: users.admin.csrf, from: DAY, to: DAY };
    const browser = await post('export', fields, BROWSER, 'admin');
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe(`/exports?refused=leads&from=${DAY}&to=${DAY}&too=many`);
    const page = await consolePageText('exports', Object.fromEntries(new URL(browser.headers.location!, 'http://x').searchParams), 'admin');
    expect(page.alert).toBe(
      'Nothing was exported More than 50,000 leads are in this range, so nothing was exported. Narrow the dates or choose one brand, and export the range in parts.',
    );
    // the form keeps what was typed
    expect(page.html).toMatch(new RegExp(`name="from"[^>]*value="${DAY}"|value="${DAY}"[^>]*name="from"`));
    const api = await post('export', fields, JSON_CLIENT, 'admin');
    expect(api.status).toBe(413);
    expect(api.body).toBe('{"error":"More than 50000 leads in this range: export a shorter range or one brand"}');
    expect((await post('export', fields, CURL, 'admin')).status).toBe(413);
    // the Google Ads conversions of the same range: said above their own form
    const ads = await post('export', { ...fields, kind: 'google-ads' }, BROWSER, 'admin');
    expect(ads.headers.location).toBe(`/exports?refused=google-ads&from=${DAY}&to=${DAY}&too=many`);
    expect((await consolePageText('exports', Object.fromEntries(new URL(ads.headers.location!, 'http://x').searchParams), 'admin')).alert).toBe(
      'Nothing was exported More than 50,000 sold leads with a Google click id are in this range, so nothing was exported. Narrow the dates or choose one brand, and export the range in parts.',
    );
    expect((await post('export', { ...fields, kind: 'google-ads' }, JSON_CLIENT, 'admin')).body).toBe(
      '{"error":"More than 50000 conversions in this range: export a shorter range or one brand"}',
    );
    expect(await db.selectFrom('console_audit').select('id').where('action', '=', 'export').execute()).toEqual([]);
  }, 60_000);

  it('from the leads list: back to the list, its filter kept, saying to narrow the dates or add a filter', async () => {
    const fields = { csrf: users.admin.csrf, kind: 'leads', back: 'leads', from: DAY, to: DAY, state: 'tx' };
    const browser = await post('export', fields, BROWSER, 'admin');
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe(`/leads?from=${DAY}&to=${DAY}&state=TX&export=too_many`);
    const page = await consolePageText('leads/index', Object.fromEntries(new URL(browser.headers.location!, 'http://x').searchParams), 'admin');
    expect(page.alert).toBe(
      'Nothing was exported More than 50,000 leads match these filters, so nothing was exported. Narrow the dates or add a filter (brand, status, state…) and download again.',
    );
    expect((await post('export', fields, JSON_CLIENT, 'admin')).status).toBe(413);
  }, 60_000);
});
