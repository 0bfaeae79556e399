/**
 * The sign-in lockout by account and network, over a temp SQLite store (engine/console/api.ts,
 * loginLimit.ts): a guesser's failures lock their network out of the account, not its owner; the
 * guesser's lock doubles with each failure after one ends, and their network is refused for every
 * account after NETWORK_LOGIN_RULES' failures; guessing spread over many networks locks the account
 * for networks it never signed in from, but not for its owner's. And password hashing runs a few at
 * a time: a burst of sign-ins beyond the queue is answered 503 with Retry-After, uncounted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLogin, type ConsoleRequest } from '../../engine/console/api';
import { ACCOUNT_LOGIN_RULES, NETWORK_LOGIN_RULES } from '../../engine/console/loginLimit';
import { HASH_LIMITS, hashPassword } from '../../engine/console/passwords';
import { addUser } from '../../engine/store/console';
import { migrateStore, openStore, type Store } from '../../engine/store/db';

const dir = mkdtempSync(join(tmpdir(), 'loansites-console-lockout-'));
let db: Store;
const cheap = { N: 2 ** 12, r: 8, p: 1 };
const PASSWORD = 'the owner passphrase 1';
beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'l.sqlite') });
  await migrateStore(db);
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

let accounts = 0;
async function account(): Promise<string> {
  const email = `admin${++accounts}@example.com`;
  await addUser(db, { email, role: 'admin', passwordHash: await hashPassword(PASSWORD, cheap) });
  return email;
}
const MIN = 60_000;
const login = (email: string, password: string, ip: string, at = new Date()) =>
  consoleLogin(db, { method: 'POST', headers: { host: 'console.localhost:3000' }, body: { email, password }, ip, now: at } satisfies ConsoleRequest);

describe('a guesser on another network', () => {
  it('five wrong passwords lock the guesser’s network out of the account (429 even for the right one), while the owner signs in from theirs', async () => {
    const email = await account();
    for (let i = 0; i < 5; i++) expect((await login(email, 'wrong-guess', '192.0.2.66')).status).toBe(401);
    const guesser = await login(email, PASSWORD, '192.0.2.66');
    expect(guesser.status).toBe(429);
    expect(Number(guesser.headers['Retry-After'])).toBeGreaterThan(14 * 60);
    expect((await login(email, PASSWORD, '198.51.100.99')).status).toBe(200);
    // another address in the guesser's /24 is the same network
    expect((await login(email, PASSWORD, '192.0.2.67')).status).toBe(429);
  });

  it('is slowed, then refused: each failure after a lock ends locks it twice as long', async () => {
    const email = await account();
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) await login(email, 'wrong-guess', '192.0.2.70', new Date(t0));
    const after = new Date(t0 + 16 * MIN);
    expect((await login(email, 'wrong-guess', '192.0.2.70', after)).status).toBe(401);
    const locked = await login(email, PASSWORD, '192.0.2.70', new Date(after.getTime() + 1000));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['Retry-After'])).toBeGreaterThan(29 * 60);
    expect((await login(email, PASSWORD, '198.51.100.99', after)).status).toBe(200);
  });

  it(`a network that fails ${NETWORK_LOGIN_RULES.maxFailures} times across accounts is refused for every account`, async () => {
    const ip = '192.0.2.80';
    for (let i = 0; i < NETWORK_LOGIN_RULES.maxFailures; i++) await login(`nobody${i}@example.com`, 'wrong-guess', ip);
    expect((await login(await account(), PASSWORD, ip)).status).toBe(429);
  }, 120_000);
});

describe('guessing spread over many networks', () => {
  it(`after ${ACCOUNT_LOGIN_RULES.maxFailures} failures from anywhere, a network the account never signed in from is refused, the owner’s is not`, async () => {
    const email = await account();
    expect((await login(email, PASSWORD, '203.0.113.10')).status).toBe(200);
    for (let i = 0; i < ACCOUNT_LOGIN_RULES.maxFailures; i++) expect((await login(email, 'wrong-guess', `10.${i}.0.1`)).status).toBe(401);
    expect((await login(email, PASSWORD, '198.18.0.1')).status).toBe(429);
    expect((await login(email, PASSWORD, '203.0.113.10')).status).toBe(200);
  });
});

describe('a burst of sign-ins', () => {
  it('hashes a few at a time: those beyond the queue are answered 503 with Retry-After at once and not counted as failures', async () => {
    const email = await account();
    // the real cost: each check takes long enough for the burst to pile up behind it
    await addUser(db, { email: `slow-${email}`, role: 'admin', passwordHash: await hashPassword(PASSWORD) });
    const burst = HASH_LIMITS.slots + HASH_LIMITS.queue + 3;
    const answers = await Promise.all(Array.from({ length: burst }, (_, i) => login(`slow-${email}`, 'wrong-guess', `198.19.${i}.1`)));
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(3);
    expect(busy[0]!.headers['Retry-After']).toBe(String(HASH_LIMITS.retryAfterSeconds));
    expect(answers.filter((a) => a.status === 401).length).toBe(burst - busy.length);
    const failures = await db.selectFrom('console_audit').select('id').where('target', '=', `slow-${email}`).where('action', '=', 'sign_in_failed').execute();
    expect(failures.length).toBe(burst - busy.length);
  }, 120_000);
});
