/**
 * The console pages' rules and form routes: which posts count as same-origin, how the overview
 * reads its date range, how a lead search is read, the buyers' pivot and alert; and over a temp
 * SQLite store, the form routes a browser posts to — sign in (redirects with the cookie or a
 * message), a reveal needs the CSRF token and the role and is audited, an analyst's leads are
 * masked until revealed, and the leads CSV neutralises formula cells and is for admins only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capsUsedOf } from '../../engine/console/buyerCaps';
import { buyersOverview, buyerStats, type EventCount } from '../../engine/console/buyerQueries';
import { csrfToken } from '../../engine/console/csrf';
import { queryText } from '../../engine/console/pages';
import { exportRangeProblem, exportRoute } from '../../engine/console/exportRoute';
import { loginRoute, logoutRoute, revealRoute } from '../../engine/console/formRoutes';
import { parseForm, sameOriginPost } from '../../engine/console/forms';
import { leadDetail, listLeadsPage, revealedBy } from '../../engine/console/leadQueries';
import { leadListQuery, searchOf } from '../../engine/console/leadFilter';
import { hashPassword } from '../../engine/console/passwords';
import { overviewQuery } from '../../engine/console/range';
import { localTime } from '../../engine/sale/schedule';
import type { Buyer } from '../../schemas/buyer.types';
import { sortBreakdown } from '../../engine/console/breakdownSort';
import { ApiError } from '../../engine/http/api';
import { addUser } from '../../engine/store/console';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { leadRow } from '../support/leadRow';
import { consolePost } from '../support/consoleForm';

describe('same-origin form posts', () => {
  // a post to http://console.localhost:3000 over a plain connection, with no trusted proxy
  const post = (headers: Record<string, string>) => ({ headers: { host: 'console.localhost:3000', ...headers }, socket: {} }) as unknown as IncomingMessage;
  it.each([
    [{ 'sec-fetch-site': 'same-origin' }, true],
    [{ 'sec-fetch-site': 'same-site' }, false],
    [{ 'sec-fetch-site': 'cross-site' }, false],
    [{ 'sec-fetch-site': 'none' }, false],
    [{ origin: 'http://console.localhost:3000' }, true],
    // the console was reached over http: a page of the https origin is another origin
    [{ origin: 'https://console.localhost:3000' }, false],
    [{ origin: 'http://console.localhost:3001' }, false],
    [{ origin: 'http://ipaydayloans.localhost:3000' }, false],
    [{ origin: 'null' }, false],
    // a client's own X-Forwarded-Host is not the console's origin without a trusted proxy
    [{ origin: 'http://evil.localhost:3000', 'x-forwarded-host': 'evil.localhost:3000' }, false],
    [{ 'sec-fetch-site': 'cross-site', origin: 'http://console.localhost:3000' }, false],
    [{}, true],
  ])('%j → %s', (headers, ok) => {
    expect(sameOriginPost(post(headers))).toBe(ok);
  });
  it('a form body: every field a string, the first of a repeated name', () => {
    expect(parseForm('email=a%40b.com&password=x+y&email=evil')).toEqual({ email: 'a@b.com', password: 'x y' });
  });
  it('a page query: the first of a repeated name too, so a doubled filter still filters', () => {
    // Next gives a repeated query name as an array
    const query = leadListQuery(
      { status: queryText(['sold', 'unsold']), brand: queryText(['ipaydayloans', 'weloans']) },
      new Set(['ipaydayloans', 'weloans']),
      'admin',
    );
    expect(query.filter).toMatchObject({
      status: 'sold',
      brand: 'ipaydayloans',
    });
    expect(queryText(['x'.repeat(300)], 40)).toHaveLength(40);
    expect(queryText(undefined)).toBe('');
  });
});

describe('the overview range', () => {
  const now = new Date('2025-03-10T15:00:00Z');
  const brands = new Set(['ipaydayloans']);
  it.each([
    [{}, '2025-03-04', '2025-03-10', ''],
    [{ from: '2025-03-01', to: '2025-03-01' }, '2025-03-01', '2025-03-01', ''],
    [{ from: '2025-02-30', to: '2025-03-01' }, '2025-03-04', '2025-03-10', 'real days'],
    [{ from: '2025-03-05', to: '2025-03-01' }, '2025-03-04', '2025-03-10', 'before the start'],
    [{ from: '2023-01-01', to: '2025-03-01' }, '2025-03-04', '2025-03-10', 'at most 366 days'],
    [{ from: '<script>', to: '' }, '2025-03-04', '2025-03-10', 'real days'],
    // a real day, but its comparison period would be in year -1
    [{ from: '0000-01-01', to: '0000-01-07' }, '2025-03-04', '2025-03-10', 'Dates are days from 2000-01-01 to 9999-12-30'],
    [{ from: '1999-12-31', to: '2000-01-02' }, '2025-03-04', '2025-03-10', 'from 2000-01-01'],
    [{ from: '9999-12-25', to: '9999-12-31' }, '2025-03-04', '2025-03-10', 'to 9999-12-30'],
    [{ from: '2000-01-01', to: '2000-01-07' }, '2000-01-01', '2000-01-07', ''],
  ])('%j → %s … %s', (q, from, to, problem) => {
    const r = overviewQuery(q, brands, now);
    expect([r.from, r.to]).toEqual([from, to]);
    expect(r.filter.from).toBe(`${from}T00:00:00.000Z`);
    expect(Date.parse(r.filter.to) - Date.parse(`${to}T00:00:00Z`)).toBe(86_400_000);
    if (problem) expect(r.problem).toContain(problem);
    else expect(r.problem).toBe('');
  });
  it('ends the default range on the operator’s today: at 21:00 in New York, not on the UTC day already begun', () => {
    const evening = new Date('2025-03-11T01:00:00Z');
    expect(overviewQuery({}, brands, evening, 'America/New_York')).toMatchObject({ from: '2025-03-04', to: '2025-03-10' });
    expect(overviewQuery({}, brands, evening)).toMatchObject({ from: '2025-03-05', to: '2025-03-11' });
    expect(overviewQuery({}, brands, new Date('2025-03-10T23:30:00Z'), 'Australia/Sydney')).toMatchObject({ to: '2025-03-11' });
  });
  it('only a known brand filters; the campaign is trimmed and capped at the longest a visit keeps', () => {
    expect(overviewQuery({ brand: 'nope', campaign: ' spring ' }, brands, now).filter).toMatchObject({ campaign: 'spring' });
    expect(overviewQuery({ brand: 'nope' }, brands, now).filter.brand).toBeUndefined();
    expect(overviewQuery({ brand: 'ipaydayloans', campaign: 'x'.repeat(600) }, brands, now).filter).toMatchObject({
      brand: 'ipaydayloans',
      campaign: 'x'.repeat(500),
    });
  });
});

describe('the overview filters and sorted breakdowns', () => {
  const now = new Date('2025-03-10T15:00:00Z');
  it('source, landing page and device filter the funnel; an unknown device class is ignored', () => {
    const r = overviewQuery({ source: ' google ', landing: 'payday-loans', device: 'mobile' }, new Set(), now);
    expect(r.filter).toMatchObject({ source: 'google', landing: '/payday-loans', device: 'mobile' });
    expect(overviewQuery({ device: 'toaster' }, new Set(), now).filter.device).toBeUndefined();
    expect(overviewQuery({ landing: '/apply' }, new Set(), now).filter.landing).toBe('/apply');
  });
  it.each([
    ['', '', { column: 'visits', dir: 'desc' }],
    ['revenue', '', { column: 'revenue', dir: 'desc' }],
    ['key', '', { column: 'key', dir: 'asc' }],
    ['sold', 'asc', { column: 'sold', dir: 'asc' }],
    ['password', 'desc', { column: 'visits', dir: 'desc' }],
    ['stored', 'sideways', { column: 'stored', dir: 'desc' }],
  ])('sort=%j dir=%j → %j', (sort, dir, expected) => {
    expect(overviewQuery({ sort, dir }, new Set(), now).sort).toEqual(expected);
  });
  const row = (key: string, visits: number, stored: number, revenueCents: number) => ({
    key,
    visits,
    applyViews: 0,
    step1: 0,
    step2: 0,
    submitted: stored,
    stored,
    sold: 0,
    returned: 0,
    revenueCents,
  });
  const rows = [row('spring', 100, 5, 900), row('Autumn', 40, 4, 4500), row('winter', 100, 1, 0), row('', 0, 0, 0)];
  it.each([
    [{ column: 'visits', dir: 'desc' }, ['spring', 'winter', 'Autumn', '']],
    [{ column: 'revenue', dir: 'desc' }, ['Autumn', 'spring', 'winter', '']],
    [{ column: 'conversion', dir: 'desc' }, ['Autumn', 'spring', 'winter', '']],
    [{ column: 'conversion', dir: 'asc' }, ['', 'winter', 'spring', 'Autumn']],
    [{ column: 'key', dir: 'asc' }, ['', 'Autumn', 'spring', 'winter']],
    [{ column: 'stored', dir: 'asc' }, ['', 'winter', 'Autumn', 'spring']],
  ] as const)('sorted by %j: %j (ties keep the query order)', (sort, keys) => {
    expect(sortBreakdown(rows, sort).map((r) => r.key)).toEqual(keys);
  });
});

describe('lead search, for a role that sees personal data masked (whole values only)', () => {
  it.each([
    ['', {}],
    ['ld_m1abc', { search: { column: 'id', value: 'ld_m1abc', prefix: false } }],
    ['Ana@Example.COM ', { search: { column: 'email', value: 'ana@example.com', prefix: false } }],
    ['(512) 555-0123', { search: { column: 'phone', value: '5125550123', prefix: false } }],
    ['+1 512 555 0123', { search: { column: 'phone', value: '5125550123', prefix: false } }],
    ['0412 345 678', { search: { column: 'phone', value: '0412345678', prefix: false } }],
    ["x' OR 1=1", { problem: expect.stringMatching(/whole email/) }],
  ])('%j → %j', (text, want) => {
    expect(searchOf(text, 'analyst')).toEqual(want);
  });
});

describe('buyers', () => {
  const c = (buyer_id: string, step: string, outcome: string, n: number, latency = 0, latencyCount = 0): EventCount => ({
    buyer_id,
    step,
    outcome,
    n,
    latency,
    latencyCount,
  });
  it('pings, bids, posts and wins per buyer, with rates, average price and latency; most revenue first', () => {
    const rows = buyerStats(
      [
        c('a', 'ping', 'bid', 3, 300, 3),
        c('a', 'ping', 'no-bid', 1, 100, 1),
        c('a', 'post', 'accepted', 2, 400, 2),
        c('a', 'post', 'refused', 1),
        c('b', 'ping', 'no-bid', 5),
      ],
      [{ buyer_id: 'a', n: 2, cents: 5000 }],
      new Map([['b', Array(10).fill('no-bid')]]),
      new Map([['a', 'duplicate']]),
    );
    expect(rows.map((r) => r.buyer)).toEqual(['a', 'b']);
    expect(rows[0]).toMatchObject({
      pings: 4,
      bids: 3,
      bidRate: 0.75,
      posts: 3,
      accepted: 2,
      wins: 2,
      revenueCents: 5000,
      averagePriceCents: 2500,
      averageLatencyMs: 133,
      lastError: 'duplicate',
      alert: false,
    });
    expect(rows[1]).toMatchObject({ pings: 5, bids: 0, alert: true });
  });
  it('no alert with fewer than ten calls, or with one bid among them', () => {
    const rows = buyerStats(
      [c('x', 'ping', 'no-bid', 9), c('y', 'ping', 'bid', 1)],
      [],
      new Map([
        ['x', Array(9).fill('refused')],
        ['y', [...Array(9).fill('refused'), 'bid']],
      ]),
      new Map(),
    );
    expect(rows.map((r) => r.alert)).toEqual([false, false]);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'loansites-console-pages-'));
let db: Store;
const cheap = { N: 2 ** 12, r: 8, p: 1 };
const LEAD = 'ld_console1';

beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'c.sqlite') });
  await migrateStore(db);
  for (const role of ['admin', 'analyst', 'viewer'] as const)
    await addUser(db, { email: `${role}@example.com`, role, passwordHash: await hashPassword(`${role} passphrase 1`, cheap) });
  const at = new Date().toISOString();
  const lead = {
    id: LEAD,
    ...leadRow({
      idempotency_key: 'k1',
      created_at: at,
      loan_kind: 'payday',
      amount: 500,
      last_name: '=HYPERLINK("http://evil.example")',
      email: 'ana.garcia@example.org',
      sealed: '',
      consent_version: 'v1',
      consent_text: 'I agree',
      consent_hash: '',
      source: '+cmd',
      // what a visitor's utm_source can hold: read with ";" as the list separator, unquoted, it is two cells, the second a formula
      source2: 'x;=2+3',
      host: 'ipaydayloans.localhost',
      environment: 'test',
    }),
  };
  await db.insertInto('leads').values(lead).execute();
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('buyers: returns and caps used', () => {
  it('a buyer that returned one of its three sales shows 3 won, 1 returned (33.3%), the price kept, and its caps as used today and this month in its own time zone', async () => {
    const now = new Date();
    const t = localTime(now, 'America/Chicago');
    const template = await db.selectFrom('leads').selectAll().where('id', '=', LEAD).executeTakeFirstOrThrow();
    const sale = (id: string, status: 'sold' | 'returned') => ({
      lead_id: id,
      status,
      duplicate: 0,
      runs: 1,
      buyer_id: 'capped',
      price_cents: 2000,
      buyer_day: t.day,
      buyer_month: t.month,
      created_at: now.toISOString(),
      decided_at: now.toISOString(),
    });
    for (const [id, status] of [
      ['ld_caps1', 'sold'],
      ['ld_caps2', 'sold'],
      ['ld_caps3', 'returned'],
    ] as const) {
      await db
        .insertInto('leads')
        .values({ ...template, id, idempotency_key: id, created_at: '2020-01-01T00:00:00.000Z' }) // outside every export range the other tests ask for
        .execute();
      await db.insertInto('lead_sales').values(sale(id, status)).execute();
    }
    await db
      .insertInto('lead_returns')
      .values({ lead_id: 'ld_caps3', buyer_id: 'capped', reason: 'fraud', note: '', price_cents: 2000, created_at: now.toISOString() })
      .execute();
    const capped = { id: 'capped', caps: { perDay: 5, perMonth: 100 }, schedule: { timeZone: 'America/Chicago' } } as unknown as Buyer;
    const uncapped = { id: 'open' } as unknown as Buyer;
    const from = new Date(now.getTime() - 86_400_000).toISOString();
    const to = new Date(now.getTime() + 86_400_000).toISOString();
    const rows = await buyersOverview(db, from, to, await capsUsedOf(db, [capped, uncapped], now));
    expect(rows.find((r) => r.buyer === 'capped')).toMatchObject({
      wins: 3,
      revenueCents: 4000,
      averagePriceCents: 2000,
      returned: 1,
      returnedCents: 2000,
      returnRate: 1 / 3,
      capsUsed: '2 of 5 today, 2 of 100 this month',
    });
    expect(rows.find((r) => r.buyer === 'open')).toBeUndefined();
  });
});

/** A form post as the browser sends it. */
const post = consolePost;

async function signIn(role: string): Promise<{ cookie: string; csrf: string }> {
  const r = await loginRoute(db, post({ email: `${role}@example.com`, password: `${role} passphrase 1` }));
  expect(r).toMatchObject({ status: 303, headers: { Location: '/' } });
  const cookie = r.headers!['Set-Cookie']!.split(';')[0]!;
  return { cookie, csrf: csrfToken(cookie.split('=')[1]!) };
}

describe('the form routes', () => {
  it('sign in: the cookie and the overview; a wrong password or a malformed form back to the sign-in page with a message code', async () => {
    await signIn('admin');
    expect(await loginRoute(db, post({ email: 'admin@example.com', password: 'nope nope' }))).toMatchObject({
      status: 303,
      headers: { Location: '/login?error=wrong' },
    });
    expect(await loginRoute(db, post({ email: 'admin@example.com' }))).toMatchObject({ headers: { Location: '/login?error=invalid' } });
    expect(await loginRoute(db, post({ email: 'admin@example.com', password: 'admin passphrase 1' }, { 'sec-fetch-site': 'cross-site' }))).toMatchObject({
      headers: { Location: '/login?error=refused' },
    });
  });

  it('sign out needs the CSRF token: without it 403 and the session stays', async () => {
    const { cookie, csrf } = await signIn('viewer');
    await expect(logoutRoute(db, post({ csrf: 'forged' }, { cookie }))).rejects.toMatchObject({ status: 403 });
    await expect(logoutRoute(db, post({}, { cookie }))).rejects.toBeInstanceOf(ApiError);
    const out = await logoutRoute(db, post({ csrf }, { cookie }));
    expect(out).toMatchObject({ status: 303, headers: { Location: '/login?status=out' } });
    expect(out.headers!['Set-Cookie']).toMatch(/Max-Age=0/);
  });

  it('an analyst sees the lead masked; a reveal needs the token, is audited, and then shows it; a viewer may not reveal', async () => {
    const listed = await listLeadsPage(db, 'analyst', leadListQuery({}, new Set(), 'analyst'));
    expect(listed.rows[0]).toMatchObject({ id: LEAD, email: 'a•••@e•••.org', phone: '•••-•••-0123', masked: true });
    expect((await listLeadsPage(db, 'admin', leadListQuery({ q: '(512) 555-0123' }, new Set(), 'admin'))).rows[0]).toMatchObject({
      phone: '5125550123',
      masked: false,
    });
    const { cookie, csrf } = await signIn('analyst');
    await expect(revealRoute(db, post({ lead: LEAD, csrf: 'x' }, { cookie }))).rejects.toMatchObject({ status: 403 });
    expect(await revealedBy(db, 'analyst@example.com', LEAD)).toBe(false);
    expect(await revealRoute(db, post({ lead: LEAD, csrf }, { cookie }))).toMatchObject({ status: 303, headers: { Location: `/leads/${LEAD}` } });
    expect(await revealedBy(db, 'analyst@example.com', LEAD)).toBe(true);
    expect((await leadDetail(db, 'analyst', LEAD, true))?.lead).toMatchObject({ email: 'ana.garcia@example.org', masked: false });
    await expect(revealRoute(db, post({ lead: 'ld_missing', csrf }, { cookie }))).rejects.toMatchObject({ status: 404 });
    const viewer = await signIn('viewer');
    await expect(revealRoute(db, post({ lead: LEAD, csrf: viewer.csrf }, { cookie: viewer.cookie }))).rejects.toMatchObject({
      status: 403,
      message: 'Your role (viewer) may not reveal a lead’s personal data',
    });
  });
});

/** Runs the export route; its status, headers and body. */
async function exportOf(fields: Record<string, string>, cookie: string) {
  const out = { status: 0, headers: {} as Record<string, string>, body: '' };
  const res = {
    set statusCode(s: number) {
      out.status = s;
    },
    setHeader: (k: string, v: string) => (out.headers[k.toLowerCase()] = v),
    write: (b: string | Buffer) => ((out.body += String(b)), true),
    end: (b?: string | Buffer) => (out.body += b === undefined ? '' : String(b)),
  } as unknown as ServerResponse;
  await exportRoute(db, post(fields, { cookie }), res);
  return out;
}

describe('the leads export', () => {
  it('an admin downloads a CSV whose formula cells are text, and the export is audited', async () => {
    const { cookie, csrf } = await signIn('admin');
    const day = new Date().toISOString().slice(0, 10);
    const r = await exportOf({ csrf, from: day, to: day }, cookie);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="leads-${day}-${day}.csv"`);
    expect(r.body).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(r.body).toContain(",'+cmd,");
    expect(r.body).toContain(',"x;=2+3",');
    expect(r.body).not.toMatch(/,=|,\+/);
    const log = await db.selectFrom('console_audit').select(['actor', 'detail']).where('action', '=', 'export').execute();
    expect(log).toEqual([{ actor: 'admin@example.com', detail: JSON.stringify({ from: day, to: day, brand: '', rows: 1 }) }]);
  });
  it('an analyst is refused (403), and so is a post without the token', async () => {
    const analyst = await signIn('analyst');
    expect((await exportOf({ csrf: analyst.csrf, from: '2025-01-01', to: '2025-01-02' }, analyst.cookie)).status).toBe(403);
    const admin = await signIn('admin');
    expect((await exportOf({ from: '2025-01-01', to: '2025-01-02' }, admin.cookie)).status).toBe(403);
  });
  it('a reversed or unreadable range goes back to the Exports page, which says why above the form that sent it; nothing is exported', async () => {
    const admin = await signIn('admin');
    const before = await db.selectFrom('console_audit').select('id').where('action', '=', 'export').execute();
    const leads = await exportOf({ csrf: admin.csrf, from: '2025-01-09', to: '2025-01-02' }, admin.cookie);
    expect(leads).toMatchObject({ status: 303, headers: { location: '/exports?refused=leads&from=2025-01-09&to=2025-01-02' } });
    const ads = await exportOf({ csrf: admin.csrf, kind: 'google-ads', from: '2025-01-09', to: '2025-01-02', brand: 'nope' }, admin.cookie);
    expect(ads).toMatchObject({ status: 303, headers: { location: '/exports?refused=google-ads&from=2025-01-09&to=2025-01-02&brand=nope' } });
    // the page reads the problem again from its link, with the export's own checks
    const query = (location: string) => Object.fromEntries(new URL(location, 'http://x').searchParams);
    const brands = new Set(['cashnow']);
    const kindOf = (q: Record<string, string>) => ({ ...q, kind: q.refused });
    expect(exportRangeProblem(kindOf(query(leads.headers.location!)), brands, 'admin')).toBe('The end date is before the start date.');
    expect(exportRangeProblem(kindOf(query(ads.headers.location!)), brands, 'admin')).toBe('The end is before the start.');
    expect(exportRangeProblem({ kind: 'leads', from: '2025-02-30', to: '2025-03-01' }, brands, 'admin')).toBe('Dates must be real days written YYYY-MM-DD.');
    expect(exportRangeProblem({ kind: 'leads', from: '2025-01-01', to: '2025-01-02' }, brands, 'admin')).toBe('');
    expect(await db.selectFrom('console_audit').select('id').where('action', '=', 'export').execute()).toEqual(before);
  });
  it('the Google Ads conversions of the range: sold production leads with a gclid, formula-safe, named; opted-out visitors left out', async () => {
    const { cookie, csrf } = await signIn('admin');
    const now = new Date();
    const day = now.toISOString().slice(0, 10);
    const template = await db.selectFrom('leads').selectAll().where('id', '=', LEAD).executeTakeFirstOrThrow();
    for (const [id, clickId, optOut] of [
      ['ld_conv1', 'gg=1+2', 0],
      ['ld_conv2', 'ggOPTEDOUT', 1],
    ] as const) {
      await db
        .insertInto('leads')
        .values({ ...template, id, idempotency_key: id, environment: 'production', click_id: clickId, privacy_opt_out: optOut, currency: 'USD' })
        .execute();
      await db
        .insertInto('lead_sales')
        .values({
          lead_id: id,
          status: 'sold',
          duplicate: 0,
          runs: 1,
          buyer_id: 'b',
          price_cents: 3100,
          created_at: now.toISOString(),
          decided_at: now.toISOString(),
        })
        .execute();
    }
    const r = await exportOf({ csrf, from: day, to: day, kind: 'google-ads', name: 'Sold lead' }, cookie);
    expect(r.status).toBe(200);
    expect(r.headers['content-disposition']).toBe(`attachment; filename="google-ads-conversions-${day}-${day}.csv"`);
    const lines = r.body.trim().split('\r\n');
    expect(lines[0]).toBe('Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency');
    expect(lines.slice(1)).toEqual([`'=1+2,Sold lead,${now.toISOString().slice(0, 10)} ${now.toISOString().slice(11, 19)}+0000,31.00,USD`]);
    expect((await exportOf({ csrf, from: day, to: day, kind: 'everything' }, cookie)).status).toBe(400);
  });
});
