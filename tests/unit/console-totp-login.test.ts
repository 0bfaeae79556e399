/**
 * The second factor over a real store, SQLite and PostgreSQL (the 011 migration on both): the secret sealed at rest and opened again, a time
 * step spent once only, the password leading to a `code` session that reaches nothing (401), an
 * admin in a deployment without an authenticator signed in to set one up only, and the CLI's
 * totp-reset for a lost phone (sessions ended, lock lifted).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLogin, consoleSession, type ConsoleRequest } from '../../engine/console/api';
import { hashPassword } from '../../engine/console/passwords';
import { newTotpSecret } from '../../engine/console/totp';
import { spendTotpStep, startTotpSetup, userTotp } from '../../engine/console/totpStore';
import { runUserCli } from '../../engine/console/userCli';
import { isSealed } from '../../engine/keys/sealing';
import { addUser, findUser, saveAttempts } from '../../engine/store/console';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { startPostgres, type RunningPostgres } from '../support/postgres';

const dir = mkdtempSync(join(tmpdir(), 'loansites-console-totp-'));
let db: Store;
let pg: RunningPostgres | undefined;
const cheap = { N: 2 ** 12, r: 8, p: 1 };
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let ipN = 0;
const req = (r: Partial<ConsoleRequest>): ConsoleRequest => ({ method: 'GET', headers: { host: 'console.localhost:3000' }, ip: `203.0.${ipN++}.9`, ...r });
const login = (email: string) => consoleLogin(db, req({ method: 'POST', body: { email, password: 'a long passphrase 1' } }));
const cookieOf = (setCookie: string | undefined) => setCookie!.split(';')[0]!;

describe.each(['SQLite', 'PostgreSQL'] as const)('the second factor in the store (%s)', (kind) => {
  beforeAll(async () => {
    db =
      kind === 'SQLite'
        ? openStore({ url: '', file: join(dir, 't.sqlite') })
        : openStore({ url: await (pg ??= await startPostgres()).createDatabase('console_totp') });
    await migrateStore(db);
    for (const [email, role] of [
      ['two@example.com', 'analyst'],
      ['admin@example.com', 'admin'],
    ] as const)
      await addUser(db, { email, role, passwordHash: await hashPassword('a long passphrase 1', cheap) });
    // starting PostgreSQL (initdb) takes well over vitest's 10 s hook default on a loaded machine
  }, 120_000);
  afterAll(() => db.destroy());

  it('the secret is sealed at rest and opens to the same bytes; a time step is spent once only', async () => {
    const user = (await findUser(db, 'two@example.com'))!;
    const secret = newTotpSecret();
    expect(await startTotpSetup(db, user.id, secret)).toBe(true);
    const row = (await findUser(db, 'two@example.com'))!;
    expect(isSealed(row.totp_secret!)).toBe(true);
    expect(row.totp_secret).not.toContain(secret.toString('base64'));
    expect((await userTotp(db, user.id)).secret).toEqual(secret);
    expect(await spendTotpStep(db, user.id, 100, true)).toBe(true);
    expect(await spendTotpStep(db, user.id, 100)).toBe(false);
    expect(await spendTotpStep(db, user.id, 99)).toBe(false);
    expect(await spendTotpStep(db, user.id, 101)).toBe(true);
    expect(await userTotp(db, user.id)).toMatchObject({ enabled: true, lastStep: 101 });
    // enabled: a new set-up is refused (the CLI's totp-reset first)
    expect(await startTotpSetup(db, user.id, newTotpSecret())).toBe(false);
  });

  it('with it on, the password gives a session at stage "code" for 10 minutes that reaches nothing yet', async () => {
    const r = await login('two@example.com');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ stage: 'code' });
    expect(r.headers['Set-Cookie']).toContain('Max-Age=600;');
    const s = await consoleSession(db, req({ headers: { host: 'console.localhost:3000', cookie: cookieOf(r.headers['Set-Cookie']) } }));
    expect(s.status).toBe(401);
  });

  it('an admin in a deployment without an authenticator is signed in to set one up only; on a laptop, fully', async () => {
    const local = await login('admin@example.com');
    expect(local.body).not.toHaveProperty('stage');
    const before = process.env.LOANSITES_DEPLOYMENT;
    process.env.LOANSITES_DEPLOYMENT = 'production';
    try {
      const deployed = await login('admin@example.com');
      expect(deployed.body).toMatchObject({ stage: 'enrol' });
      const s = await consoleSession(db, req({ headers: { host: 'ops.example.com', cookie: cookieOf(deployed.headers['Set-Cookie']) } }));
      expect(s.status).toBe(401);
    } finally {
      if (before === undefined) delete process.env.LOANSITES_DEPLOYMENT;
      else process.env.LOANSITES_DEPLOYMENT = before;
    }
  });

  it('console:user totp-reset removes it, ends the sessions and lifts the account’s lock, from anywhere and from each network', async () => {
    const lock = { failures: 5, windowStart: Date.now(), lockedUntil: Date.now() + 900_000 };
    await saveAttempts(db, 'email:two@example.com', lock);
    await saveAttempts(db, 'email:two@example.com|net:203.0.113.0', lock);
    await saveAttempts(db, 'email:two@example.com.au|net:203.0.113.0', lock);
    const out: string[] = [];
    const code = await runUserCli(['totp-reset', '--email', 'TWO@example.com'], db, {
      readStdin: async () => '',
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('two-step sign-in removed for two@example.com');
    const user = (await findUser(db, 'two@example.com'))!;
    expect(user).toMatchObject({ totp_secret: null, totp_enabled: 0, totp_last_step: 0 });
    expect(await db.selectFrom('console_sessions').select('token_hash').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await db.selectFrom('console_login_attempts').select('key').where('key', 'like', 'email:two@example.com%').execute()).toEqual([
      { key: 'email:two@example.com.au|net:203.0.113.0' },
    ]);
    expect((await login('two@example.com')).body).not.toHaveProperty('stage');
    expect(await runUserCli(['totp-reset', '--email', 'nobody@example.com'], db, { readStdin: async () => '', out: () => {}, err: () => {} })).toBe(1);
  });
});
