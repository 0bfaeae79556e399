/**
 * The sign-in lockout against guesses sent all at once rather than one by one: on one instance
 * (SQLite) and on three instances sharing a real PostgreSQL 15 (three stores, three pools). Each
 * attempt is counted before its password is checked, in one step with the lock check, so a burst
 * gets no more passwords checked than LOGIN_RULES allows in sequence, and the lock is the first
 * lockout's length, not one doubled by every attempt that raced it. The same for second-factor
 * codes, which are checked at once (no hashing queue): through the real form route, on three
 * instances' stores, a burst of codes gets no more checked than the rules allow.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLogin, type ConsoleRequest } from '../../engine/console/api';
import { csrfToken } from '../../engine/console/csrf';
import { matchTotp, newTotpSecret } from '../../engine/console/totp';
import { totpRoute } from '../../engine/console/totpRoutes';
import { spendTotpStep, startTotpSetup } from '../../engine/console/totpStore';
import { LOGIN_RULES } from '../../engine/console/loginLimit';
import { hashPassword } from '../../engine/console/passwords';
import { addUser, findUser, loadAttempts } from '../../engine/store/console';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { startPostgres, type RunningPostgres } from '../support/postgres';

const dir = mkdtempSync(join(tmpdir(), 'loansites-lockout-burst-'));
const cheap = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'the owner passphrase 1';
let postgres: RunningPostgres | undefined;
const stores: Store[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await Promise.all(stores.map((s) => s.destroy()));
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const login = (db: Store, email: string, password: string, ip: string) =>
  consoleLogin(db, { method: 'POST', headers: { host: 'console.localhost:3000' }, body: { email, password }, ip } satisfies ConsoleRequest);

/** `count` wrong passwords sent at once, spread over the instances; how each was answered. */
async function burst(instances: Store[], email: string, count: number): Promise<Record<number, number>> {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) => login(instances[i % instances.length]!, email, `wrong guess ${i}`, '198.51.100.9')),
  );
  const tally: Record<number, number> = {};
  for (const a of answers) tally[a.status] = (tally[a.status] ?? 0) + 1;
  return tally;
}

async function expectBurstLimited(instances: Store[]) {
  const db = instances[0]!;
  const email = `burst${stores.length}@example.com`;
  await addUser(db, { email, role: 'admin', passwordHash: await hashPassword(PASSWORD, cheap) });
  // in rounds, as the hashing queue lets them through: never more checked than a guesser one by one gets
  let checked = 0;
  for (let round = 0; round < 4; round++) {
    const tally = await burst(instances, email, 12);
    checked += tally[401] ?? 0;
    expect(
      Object.keys(tally).every((s) => ['401', '429', '503'].includes(s)),
      JSON.stringify(tally),
    ).toBe(true);
  }
  expect(checked).toBe(LOGIN_RULES.maxFailures);
  const pair = await loadAttempts(db, `email:${email}|net:198.51.100.0`);
  expect(pair.failures).toBe(LOGIN_RULES.maxFailures);
  // the first lockout: LOGIN_RULES.lockMs, not doubled by the attempts that raced the one that locked
  expect(pair.lockedUntil - pair.windowStart).toBe(LOGIN_RULES.lockMs);
  // and the owner, from their own network, still signs in
  expect((await login(instances[1 % instances.length]!, email, PASSWORD, '203.0.113.5')).status).toBe(200);
}

describe('a burst of wrong passwords sent at once', () => {
  it('on one instance (SQLite): no more checked than the rules allow, one lockout', async () => {
    const db = openStore({ url: '', file: join(dir, 'one.sqlite') });
    stores.push(db);
    await migrateStore(db);
    await expectBurstLimited([db]);
  }, 60_000);

  it('on three instances sharing PostgreSQL: no more checked than the rules allow, one lockout', async () => {
    const url = await postgres!.createDatabase('lockout_burst');
    const instances = [openStore({ url }), openStore({ url }), openStore({ url })];
    stores.push(...instances);
    await migrateStore(instances[0]!);
    await expectBurstLimited(instances);
  }, 60_000);
});

/** An instance's form route for the second factor: POST /api/console/totp on its own store. */
async function totpServer(db: Store): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    totpRoute(db, req).then(
      (a) => res.writeHead(a.status, a.headers as Record<string, string>).end(),
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const postCode = (port: number, cookie: string, csrf: string, code: string) =>
  new Promise<string>((resolve, reject) => {
    const body = new URLSearchParams({ csrf, action: 'code', code }).toString();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/console/totp',
        headers: {
          host: 'console.localhost',
          origin: 'http://console.localhost',
          'content-type': 'application/x-www-form-urlencoded',
          cookie,
          'x-forwarded-for': '198.51.100.9',
        },
      },
      (res) => (res.resume(), res.on('end', () => resolve(String(res.headers.location ?? res.statusCode)))),
    );
    req.on('error', reject);
    req.end(body);
  });

describe('a burst of wrong second-factor codes sent at once', () => {
  it('on three instances sharing PostgreSQL: no more checked than the rules allow', async () => {
    const url = await postgres!.createDatabase('lockout_burst_totp');
    const instances = [openStore({ url }), openStore({ url }), openStore({ url })];
    stores.push(...instances);
    const db = instances[0]!;
    await migrateStore(db);
    await addUser(db, { email: 'two@example.com', role: 'analyst', passwordHash: await hashPassword(PASSWORD, cheap) });
    const user = (await findUser(db, 'two@example.com'))!;
    const secret = newTotpSecret();
    await startTotpSetup(db, user.id, secret);
    await spendTotpStep(db, user.id, 1, true);
    const signedIn = await consoleLogin(db, {
      method: 'POST',
      headers: { host: 'console.localhost' },
      body: { email: 'two@example.com', password: PASSWORD },
      ip: '198.51.100.9',
    });
    expect(signedIn.body).toMatchObject({ stage: 'code' });
    const cookie = signedIn.headers['Set-Cookie']!.split(';')[0]!;
    const csrf = csrfToken(cookie.slice(cookie.indexOf('=') + 1));
    const servers = await Promise.all(instances.map(totpServer));
    try {
      const wrong: string[] = [];
      for (let n = 0; wrong.length < 30; n++) {
        const code = String(100000 + n * 7919).slice(-6);
        if (matchTotp(secret, code, Date.now(), 0) === undefined) wrong.push(code);
      }
      const answers = await Promise.all(wrong.map((code, i) => postCode(servers[i % 3]!.port, cookie, csrf, code)));
      // checked: refused as wrong, or the failure that locked; refused unchecked: locked already, or the session ended by the lock
      const checked = answers.filter((a) => a === '/login?error=code' || a === '/login?error=locked').length;
      expect(
        answers.every((a) => ['/login?error=code', '/login?error=locked', '/login'].includes(a) || a.startsWith('/login?error=locked&minutes=')),
        answers.join(' '),
      ).toBe(true);
      expect(checked, answers.join(' ')).toBe(LOGIN_RULES.maxFailures);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  }, 60_000);
});
