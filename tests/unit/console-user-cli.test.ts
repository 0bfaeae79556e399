/**
 * npm run console:user, run as a process against a temp SQLite store: add (password from
 * standard input, hashed), list, reset (ends the user's sessions), remove; every refusal with its
 * reason and exit status; the audit log records each change. Then sessions in the store.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../engine/console/passwords';
import { createSession, endSession, findUser, loadAttempts, saveAttempts, sessionUser } from '../../engine/store/console';
import { openStore, type Store } from '../../engine/store/db';

const dir = mkdtempSync(join(tmpdir(), 'loansites-console-'));
const file = join(dir, 'console.sqlite');
let db: Store;
beforeAll(() => {
  db = openStore({ url: '', file });
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], stdin = '') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/console-user.ts', ...args], {
    input: stdin,
    encoding: 'utf8',
    env: { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '', CONSOLE_SCRYPT_N: '16384' },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

describe('npm run console:user', () => {
  it('adds the first admin with the password from standard input, stored as a scrypt hash', async () => {
    const r = cli(['add', '--email', ' Ops@Example.com ', '--role', 'admin', '--password-stdin'], 'a long admin passphrase\n');
    expect(r).toMatchObject({ code: 0, out: 'added ops@example.com (admin)' });
    const user = await findUser(db, 'ops@example.com');
    expect(user?.role).toBe('admin');
    expect(user?.password_hash).toMatch(/^scrypt\$/);
    expect(user?.password_hash).not.toContain('passphrase');
    expect(await verifyPassword('a long admin passphrase', user!.password_hash)).toBe(true);
  }, 60_000);

  it.each(
    (
      [
        [
          'the same email again',
          ['add', '--email', 'ops@example.com', '--role', 'viewer', '--password-stdin'],
          'another passphrase',
          1,
          'has an account already',
        ],
        [
          'an unknown role',
          ['add', '--email', 'x@example.com', '--role', 'root', '--password-stdin'],
          'another passphrase',
          2,
          '--role must be one of admin, analyst, viewer',
        ],
        ['no email', ['add', '--role', 'viewer', '--password-stdin'], 'another passphrase', 2, 'Give the account with --email'],
        ['a password on the command line', ['add', '--email', 'x@example.com', '--role', 'viewer', '--password', 'pw'], '', 2, "Unknown option '--password'"],
        ['no --password-stdin', ['add', '--email', 'x@example.com', '--role', 'viewer'], '', 2, 'with --password-stdin'],
        ['a short password', ['add', '--email', 'x@example.com', '--role', 'viewer', '--password-stdin'], 'short', 1, 'at least 12 characters'],
        ['an unknown command', ['promote', '--email', 'x@example.com'], '', 2, 'Unknown command "promote"'],
        ['removing nobody', ['remove', '--email', 'nobody@example.com'], '', 1, 'nobody@example.com has no account'],
        [
          'removing the last enabled admin',
          ['remove', '--email', 'ops@example.com'],
          '',
          1,
          'ops@example.com is the last enabled admin: add another admin first',
        ],
      ] as [string, string[], string, number, string][]
    ).map(([name, args, stdin, code, message]) => [name, code, args, stdin, message] as const),
  )(
    // the exit status second: the title's %i takes the second value
    'refuses %s (exit %i, with the reason)',
    (_name, code, args, stdin, message) => {
      const r = cli(args, stdin);
      expect(r.code).toBe(code);
      expect(r.err).toContain(message);
    },
    60_000,
  );

  it('lists, resets (ending the user’s sessions), removes, and audits each change', async () => {
    expect(cli(['add', '--email', 'ana@example.com', '--role', 'analyst', '--password-stdin'], 'analyst passphrase 1').code).toBe(0);
    const list = cli(['list']);
    expect(list.out.split('\n').map((l) => l.split('\t').slice(0, 2))).toEqual([
      ['ana@example.com', 'analyst'],
      ['ops@example.com', 'admin'],
    ]);
    const ana = (await findUser(db, 'ana@example.com'))!;
    const token = await createSession(db, ana.id);
    expect((await sessionUser(db, token))?.email).toBe('ana@example.com');
    expect(cli(['reset', '--email', 'ana@example.com', '--password-stdin'], 'analyst passphrase 2')).toMatchObject({ code: 0 });
    expect(await sessionUser(db, token)).toBeUndefined();
    expect(await verifyPassword('analyst passphrase 2', (await findUser(db, 'ana@example.com'))!.password_hash)).toBe(true);
    expect(cli(['remove', '--email', 'ana@example.com'])).toMatchObject({ code: 0, out: 'removed ana@example.com' });
    expect(await findUser(db, 'ana@example.com')).toBeUndefined();
    const log = await db.selectFrom('console_audit').select(['actor', 'action', 'target']).orderBy('at').orderBy('action').execute();
    expect(log.map((e) => [e.actor, e.action, e.target])).toEqual([
      ['cli', 'user_added', 'ops@example.com'],
      ['cli', 'user_added', 'ana@example.com'],
      ['cli', 'password_reset', 'ana@example.com'],
      ['cli', 'user_removed', 'ana@example.com'],
    ]);
  }, 120_000);

  it('an option given twice is refused, and nothing is added', async () => {
    const r = cli(['add', '--email', 'first@example.com', '--email=second@example.com', '--role', 'admin', '--password-stdin'], 'a long passphrase here\n');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^--email is given twice; give it once/);
    expect(await findUser(db, 'first@example.com')).toBeUndefined();
    expect(await findUser(db, 'second@example.com')).toBeUndefined();
  }, 60_000);

  it('--help prints the usage and exits 0', () => {
    const r = cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: npm run console:user -- add --email E/);
    expect(r.err).toBe('');
  }, 60_000);

  it('an editor limited to a brand no one has is refused, naming the id; the list shows each editor’s brands', async () => {
    const typo = cli(['add', '--email', 'ed@example.com', '--role', 'editor', '--brands', 'ipaydayloan', '--password-stdin'], 'an editor passphrase\n');
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('--brands: no brand has the id "ipaydayloan"; the studio lists ');
    expect(typo.err).toContain('Nothing was added');
    expect(await findUser(db, 'ed@example.com')).toBeUndefined();
    const ok = cli(['add', '--email', 'ed@example.com', '--role', 'editor', '--brands', 'ipaydayloans', '--password-stdin'], 'an editor passphrase\n');
    expect(ok.code).toBe(0);
    expect(cli(['list']).out).toMatch(/^ed@example\.com\teditor\tsince \d{4}-\d\d-\d\d\tbrands ipaydayloans$/m);
  }, 120_000);
});

describe('sessions and sign-in attempts in the store', () => {
  it('a session ends at its expiry or on sign-out; only the token’s hash is stored', async () => {
    const ops = (await findUser(db, 'ops@example.com'))!;
    const now = new Date('2025-03-01T10:00:00Z');
    const token = await createSession(db, ops.id, now, 3600_000);
    expect((await sessionUser(db, token, new Date('2025-03-01T10:59:59Z')))?.role).toBe('admin');
    expect(await sessionUser(db, token, new Date('2025-03-01T11:00:00Z'))).toBeUndefined();
    expect(await sessionUser(db, 'forged-token', now)).toBeUndefined();
    const stored = await db.selectFrom('console_sessions').select('token_hash').execute();
    expect(stored.some((s) => s.token_hash === token)).toBe(false);
    await endSession(db, token);
    expect(await sessionUser(db, token, now)).toBeUndefined();
  });
  it('attempt records round-trip (shared by every instance)', async () => {
    const rec = { failures: 3, windowStart: Date.parse('2025-03-01T10:00:00Z'), lockedUntil: 0 };
    await saveAttempts(db, 'email:ops@example.com', rec);
    expect(await loadAttempts(db, 'email:ops@example.com')).toEqual(rec);
    await saveAttempts(db, 'email:ops@example.com', { ...rec, failures: 5, lockedUntil: rec.windowStart + 900_000 });
    expect((await loadAttempts(db, 'email:ops@example.com')).failures).toBe(5);
    expect(await loadAttempts(db, 'email:nobody')).toEqual({ failures: 0, windowStart: 0, lockedUntil: 0 });
  });
});
