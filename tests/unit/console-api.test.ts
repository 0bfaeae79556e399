/**
 * The console API functions over a temp SQLite store: sign in (wrong password → 401 with one
 * message for an unknown email too; lockout after five failures from a network, even for the right password),
 * the session cookie's attributes, roles (a viewer sees the funnel; an unknown or expired session
 * is 401), CSRF on sign-out, and the funnel answered from the rollups.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleFunnel, consoleLogin, consoleLogout, consoleSession, type ConsoleRequest } from '../../engine/console/api';
import { hashPassword } from '../../engine/console/passwords';
import { addUser } from '../../engine/store/console';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';

const dir = mkdtempSync(join(tmpdir(), 'loansites-console-api-'));
let db: Store;
const cheap = { N: 2 ** 12, r: 8, p: 1 };
beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'c.sqlite') });
  await migrateStore(db);
  await addUser(db, { email: 'ops@example.com', role: 'admin', passwordHash: await hashPassword('admin passphrase 1', cheap) });
  await addUser(db, { email: 'view@example.com', role: 'viewer', passwordHash: await hashPassword('viewer passphrase 1', cheap) });
  await writeTraffic(db, {
    visits: [
      visitRow(
        'v' + '1'.repeat(32),
        { path: '/', params: { utm_campaign: 'spring' } },
        { brand: 'ipaydayloans', host: 'h', userAgent: 'iPhone Mobile', optedOut: false, now: new Date('2025-03-01T10:00:00Z') },
      ),
    ],
    events: [],
  });
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

let ipN = 0;
const req = (r: Partial<ConsoleRequest>): ConsoleRequest => ({ method: 'GET', headers: { host: 'console.localhost:3000' }, ip: `198.51.${ipN++}.7`, ...r });
const login = (email: string, password: string, extra: Partial<ConsoleRequest> = {}) =>
  consoleLogin(db, req({ method: 'POST', body: { email, password }, ...extra }));
const cookieOf = (setCookie: string | undefined) => setCookie!.split(';')[0]!;

describe('signing in', () => {
  it('the right password: a __Host- cookie (HttpOnly, SameSite=Strict, Secure — on localhost too, or browsers drop a __Host- cookie), the role and a CSRF token; audited', async () => {
    const r = await login('OPS@example.com', 'admin passphrase 1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ email: 'ops@example.com', role: 'admin' });
    expect(r.headers['Set-Cookie']).toMatch(/^__Host-console_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800; Secure$/);
    const secure = await login('ops@example.com', 'admin passphrase 1', { headers: { host: 'console.example.com' } });
    expect(secure.headers['Set-Cookie']).toMatch(/; Secure$/);
    expect(r.headers['Cache-Control']).toBe('no-store');
    const log = await db.selectFrom('console_audit').select('action').where('action', '=', 'sign_in').execute();
    expect(log.length).toBe(2);
  });
  it('a wrong password and an unknown email get the same 401', async () => {
    const a = await login('ops@example.com', 'wrong passphrase');
    const b = await login('nobody@example.com', 'wrong passphrase');
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(a.body).toEqual(b.body);
  });
  it.each([[{}], [{ email: 'ops@example.com' }], [{ email: 'ops@example.com', password: 'x', admin: true }], ['text'], [null]])(
    'a malformed body %j is 400',
    async (body) => {
      expect((await consoleLogin(db, req({ method: 'POST', body }))).status).toBe(400);
    },
  );
  it('five failures from a network lock the account there: the right password is refused with 429 and Retry-After, and the lockout is audited', async () => {
    const there = { ip: '192.0.2.50' };
    await addUser(db, { email: 'lock@example.com', role: 'analyst', passwordHash: await hashPassword('analyst passphrase 1', cheap) });
    for (let i = 0; i < 5; i++) expect((await login('lock@example.com', `wrong ${i} passphrase`, there)).status).toBe(401);
    const r = await login('lock@example.com', 'analyst passphrase 1', there);
    expect(r.status).toBe(429);
    expect(Number(r.headers['Retry-After'])).toBeGreaterThan(800);
    expect(
      (await db.selectFrom('console_audit').select('action').where('target', '=', 'lock@example.com').where('action', '=', 'lockout').execute()).length,
    ).toBe(1);
    const later = await login('lock@example.com', 'analyst passphrase 1', { ...there, now: new Date(Date.now() + 16 * 60_000) });
    expect(later.status).toBe(200);
  });
  it('colleagues on one network: another operator still signs in after several people mistyped theirs', async () => {
    const office = { ip: '203.0.113.40' };
    await addUser(db, { email: 'colleague@example.com', role: 'viewer', passwordHash: await hashPassword('viewer passphrase 1', cheap) });
    for (let i = 0; i < 6; i++) expect((await login(`typo${i}@example.com`, 'wrong passphrase', office)).status).toBe(401);
    expect((await login('colleague@example.com', 'viewer passphrase 1', office)).status).toBe(200);
  }, 120_000);
});

describe('the session, roles, CSRF and the funnel', () => {
  it('a viewer sees the session and the funnel from the rollups; no cookie or a forged one is 401', async () => {
    const r = await login('view@example.com', 'viewer passphrase 1');
    const cookie = cookieOf(r.headers['Set-Cookie']);
    const s = await consoleSession(db, req({ headers: { cookie } }));
    expect(s.body).toMatchObject({ email: 'view@example.com', role: 'viewer' });
    const f = await consoleFunnel(db, req({ headers: { cookie }, body: { from: '2025-03-01', to: '2025-03-02', campaign: 'spring', by: 'device' } }));
    expect(f.status).toBe(200);
    expect((f.body as { funnel: { stages: { count: number }[] } }).funnel.stages[0]!.count).toBe(1);
    expect((f.body as { breakdown: { key: string }[] }).breakdown.map((b) => b.key)).toEqual(['mobile']);
    for (const bad of [
      { from: 'yesterday', to: '2025-03-02' },
      { from: '2025-03-01' },
      { from: '2025-03-01', to: '2025-03-02', by: 'email' },
      { from: '2025-13-45', to: '2025-03-02' },
    ]) {
      expect((await consoleFunnel(db, req({ headers: { cookie }, body: bad }))).status).toBe(400);
    }
    expect((await consoleSession(db, req({}))).status).toBe(401);
    expect((await consoleSession(db, req({ headers: { cookie: '__Host-console_session=forged' } }))).status).toBe(401);
  });
  it('a session expires', async () => {
    const r = await login('view@example.com', 'viewer passphrase 1');
    const cookie = cookieOf(r.headers['Set-Cookie']);
    expect((await consoleSession(db, req({ headers: { cookie }, now: new Date(Date.now() + 9 * 3600_000) }))).status).toBe(401);
  });
  it('signing out needs the session’s CSRF token; then the session is gone', async () => {
    const r = await login('ops@example.com', 'admin passphrase 1');
    const cookie = cookieOf(r.headers['Set-Cookie']);
    const csrf = (r.body as { csrf: string }).csrf;
    expect((await consoleLogout(db, req({ method: 'POST', headers: { cookie } }))).status).toBe(403);
    expect((await consoleLogout(db, req({ method: 'POST', headers: { cookie, 'x-csrf-token': csrf.slice(1) } }))).status).toBe(403);
    const out = await consoleLogout(db, req({ method: 'POST', headers: { cookie, 'x-csrf-token': csrf } }));
    expect(out.status).toBe(200);
    expect(out.headers['Set-Cookie']).toMatch(/Max-Age=0/);
    expect((await consoleSession(db, req({ headers: { cookie } }))).status).toBe(401);
  });
});
