/**
 * Console accounts managed from the console (POST /api/console/users), on SQLite and a real
 * PostgreSQL: an admin adds an account whose temporary password is shown once, to that admin
 * only, and signs in; a role change, disabling (the user's open session ends at once and the
 * password no longer signs in), enabling and a second-factor reset are audited; the last admin
 * cannot be disabled or demoted, nobody disables themselves; a non-admin and a forged post are refused.
 */
import { describe, expect, it, vi } from 'vitest';

// every test here posts as the same admins, on both stores, within a minute (the limit has its own test)
vi.hoisted(() => {
  process.env.RATE_LIMIT_CONSOLE_USERS = '1000';
});
import { requireUser } from '../../engine/console/api';
import { HASH_LIMITS, hashPassword } from '../../engine/console/passwords';
import { usersRoute } from '../../engine/console/userRoutes';
import { addUser, findUser } from '../../engine/store/console';
import { takeShownOnce, userRows } from '../../engine/store/consoleUserAdmin';
import { bothStores, migratedStore } from '../support/bothStores';
import { consolePost, consoleSignIn } from '../support/consoleForm';

const stores = bothStores('loansites-user-admin-');
const cheap = { N: 2 ** 12, r: 8, p: 1 };

describe.each(stores.kinds('users.sqlite'))('%s: accounts from the console', (_kind, options) => {
  const db = migratedStore(options);
  const as = async (email: string, password: string) => (await consoleSignIn(db(), email, password))!;
  const change = (who: { cookie: string; csrf: string }, fields: Record<string, string>) =>
    usersRoute(db(), consolePost({ csrf: who.csrf, ...fields }, { cookie: who.cookie }));
  const sessionOf = (who: { cookie: string }) => requireUser(db(), { method: 'GET', headers: { cookie: who.cookie }, ip: '198.51.100.9' }, 'overview.view');
  const actions = async (target: string) =>
    (await db().selectFrom('console_audit').select(['action', 'actor']).where('target', '=', target).orderBy('at').execute()).map(
      (a) => `${a.actor} ${a.action}`,
    );

  // the route hashes with the real scrypt parameters (128 MiB): seconds on a busy machine
  it('an admin adds an analyst with a temporary password shown once to them only; the analyst signs in with it; disabling ends their session', async () => {
    await addUser(db(), { email: 'boss@example.com', role: 'admin', passwordHash: await hashPassword('boss passphrase 1', cheap) });
    await addUser(db(), { email: 'other@example.com', role: 'admin', passwordHash: await hashPassword('other passphrase 1', cheap) });
    const boss = await as('boss@example.com', 'boss passphrase 1');
    expect(await change(boss, { op: 'add', email: 'New.Analyst@example.com', role: 'analyst' })).toMatchObject({
      status: 303,
      headers: { Location: '/users?note=added' },
    });
    expect(await takeShownOnce(db(), 'other@example.com')).toEqual([]);
    const shown = await takeShownOnce(db(), 'boss@example.com');
    expect(shown).toHaveLength(1);
    expect(shown[0]!.email).toBe('new.analyst@example.com');
    expect(shown[0]!.password.length).toBeGreaterThanOrEqual(20);
    expect(await takeShownOnce(db(), 'boss@example.com')).toEqual([]);
    expect((await findUser(db(), 'new.analyst@example.com'))!.shown_once).toBeNull();
    // the same email again: refused with a message
    expect(await change(boss, { op: 'add', email: 'new.analyst@example.com', role: 'viewer' })).toMatchObject({ headers: { Location: '/users?note=taken' } });

    const analyst = await as('new.analyst@example.com', shown[0]!.password);
    expect(await sessionOf(analyst)).toMatchObject({ user: { email: 'new.analyst@example.com', role: 'analyst' } });
    // an analyst may not manage users
    await expect(change(analyst, { op: 'disable', email: 'boss@example.com' })).rejects.toMatchObject({
      status: 403,
      message: 'Your role (analyst) may not manage accounts',
    });

    expect(await change(boss, { op: 'role', email: 'new.analyst@example.com', role: 'viewer' })).toMatchObject({ headers: { Location: '/users?note=role' } });
    expect(await sessionOf(analyst)).toMatchObject({ user: { role: 'viewer' } });
    expect(await change(boss, { op: 'disable', email: 'new.analyst@example.com' })).toMatchObject({ headers: { Location: '/users?note=disabled' } });
    expect(await sessionOf(analyst)).toMatchObject({ refused: { status: 401 } });
    expect(await consoleSignIn(db(), 'new.analyst@example.com', shown[0]!.password)).toBeUndefined();
    expect((await userRows(db())).find((u) => u.email === 'new.analyst@example.com')!.disabled_at).not.toBeNull();
    expect(await change(boss, { op: 'enable', email: 'new.analyst@example.com' })).toMatchObject({ headers: { Location: '/users?note=enabled' } });
    expect(await consoleSignIn(db(), 'new.analyst@example.com', shown[0]!.password)).toBeDefined();
    expect(await actions('new.analyst@example.com')).toEqual(
      expect.arrayContaining([
        'boss@example.com user_added',
        'boss@example.com role_changed',
        'boss@example.com user_disabled',
        'boss@example.com user_enabled',
      ]),
    );
  }, 120_000);

  it('the last enabled admin cannot be disabled or demoted, an admin cannot disable themselves, a forged post is refused', async () => {
    const boss = await as('boss@example.com', 'boss passphrase 1');
    expect(await change(boss, { op: 'disable', email: 'boss@example.com' })).toMatchObject({ headers: { Location: '/users?note=self' } });
    expect(await change(boss, { op: 'role', email: 'boss@example.com', role: 'analyst' })).toMatchObject({ headers: { Location: '/users?note=self' } });
    expect(await change(boss, { op: 'disable', email: 'other@example.com' })).toMatchObject({ headers: { Location: '/users?note=disabled' } });
    // boss is now the only enabled admin: the other admin, once enabled and signed in, cannot demote or disable them
    expect(await change(boss, { op: 'enable', email: 'other@example.com' })).toMatchObject({ headers: { Location: '/users?note=enabled' } });
    expect(await change(boss, { op: 'role', email: 'other@example.com', role: 'viewer' })).toMatchObject({ headers: { Location: '/users?note=role' } });
    const other = await as('other@example.com', 'other passphrase 1');
    await expect(change(other, { op: 'role', email: 'boss@example.com', role: 'viewer' })).rejects.toMatchObject({ status: 403 });
    await addUser(db(), { email: 'third@example.com', role: 'admin', passwordHash: await hashPassword('third passphrase 1', cheap), now: new Date() });
    const third = await as('third@example.com', 'third passphrase 1');
    expect(await change(third, { op: 'disable', email: 'boss@example.com' })).toMatchObject({ headers: { Location: '/users?note=disabled' } });
    expect(await change(third, { op: 'role', email: 'third@example.com', role: 'viewer' })).toMatchObject({ headers: { Location: '/users?note=self' } });
    expect(await change(third, { op: 'enable', email: 'boss@example.com' })).toMatchObject({ headers: { Location: '/users?note=enabled' } });
    // demoting the other admin is fine while one remains; demoting the last is not
    const bossAgain = await as('boss@example.com', 'boss passphrase 1');
    expect(await change(bossAgain, { op: 'role', email: 'third@example.com', role: 'analyst' })).toMatchObject({ headers: { Location: '/users?note=role' } });
    expect(await change(bossAgain, { op: 'role', email: 'nobody@example.com', role: 'analyst' })).toMatchObject({
      headers: { Location: '/users?note=missing' },
    });
    expect(await change(bossAgain, { op: 'add', email: 'not-an-email', role: 'analyst' })).toMatchObject({ headers: { Location: '/users?note=email' } });
    expect(await change(bossAgain, { op: 'add', email: 'x@example.com', role: 'owner' })).toMatchObject({ headers: { Location: '/users?note=role_invalid' } });
    await expect(
      usersRoute(db(), consolePost({ csrf: 'forged', op: 'disable', email: 'third@example.com' }, { cookie: bossAgain.cookie })),
    ).rejects.toMatchObject({
      status: 403,
    });
  });

  it('the last admin guard holds in the store itself', async () => {
    const { setDisabled, setRole } = await import('../../engine/store/consoleUserAdmin');
    expect(await setDisabled(db(), 'boss@example.com', true)).toBe('last-admin');
    expect(await setRole(db(), 'boss@example.com', 'viewer')).toBe('last-admin');
  });

  it('setting what an account already is changes nothing and is not audited as a change', async () => {
    const boss = await as('boss@example.com', 'boss passphrase 1');
    await addUser(db(), { email: 'steady@example.com', role: 'editor', passwordHash: await hashPassword('steady passphrase 1', cheap) });
    for (const [fields, first] of [
      [{ op: 'role', role: 'analyst' }, 'role'],
      [{ op: 'disable' }, 'disabled'],
      [{ op: 'enable' }, 'enabled'],
    ] as const) {
      expect(await change(boss, { ...fields, email: 'steady@example.com' })).toMatchObject({ headers: { Location: `/users?note=${first}` } });
      if (fields.op !== 'enable')
        expect(await change(boss, { ...fields, email: 'steady@example.com' })).toMatchObject({ headers: { Location: '/users?note=unchanged' } });
    }
    expect(await change(boss, { op: 'enable', email: 'steady@example.com' })).toMatchObject({ headers: { Location: '/users?note=unchanged' } });
    expect(await change(boss, { op: 'role', email: 'steady@example.com', role: 'editor' })).toMatchObject({ headers: { Location: '/users?note=role' } });
    expect(await change(boss, { op: 'brands', email: 'steady@example.com', brands: 'cocoloan' })).toMatchObject({
      headers: { Location: '/users?note=brands' },
    });
    expect(await change(boss, { op: 'brands', email: 'steady@example.com', brands: 'cocoloan' })).toMatchObject({
      headers: { Location: '/users?note=unchanged' },
    });
    expect(await actions('steady@example.com')).toEqual([
      'boss@example.com role_changed',
      'boss@example.com user_disabled',
      'boss@example.com user_enabled',
      'boss@example.com role_changed',
      'boss@example.com brands_changed',
    ]);
  });

  it('adding an account while password checks fill the queue says the server is busy (no error, nothing added); later it works', async () => {
    const boss = await as('boss@example.com', 'boss passphrase 1');
    const limits = { ...HASH_LIMITS };
    // every slot and place in the queue taken, as a flood of sign-ins takes them
    Object.assign(HASH_LIMITS, { slots: 0, queue: 0 });
    try {
      const busy = await change(boss, { op: 'add', email: 'queued@example.com', role: 'viewer' });
      expect(busy).toMatchObject({ status: 303, headers: { Location: '/users?note=busy', 'Retry-After': '2' } });
    } finally {
      Object.assign(HASH_LIMITS, limits);
    }
    expect(await findUser(db(), 'queued@example.com')).toBeUndefined();
    expect(await takeShownOnce(db(), 'boss@example.com')).toEqual([]);
    expect(await change(boss, { op: 'add', email: 'queued@example.com', role: 'viewer' })).toMatchObject({ headers: { Location: '/users?note=added' } });
  }, 120_000);

  it('a second factor reset is audited and ends the sessions', async () => {
    const boss = await as('boss@example.com', 'boss passphrase 1');
    const third = await as('third@example.com', 'third passphrase 1');
    await db().updateTable('console_users').set({ totp_enabled: 1, totp_secret: 'x' }).where('email', '=', 'third@example.com').execute();
    expect(await change(boss, { op: 'totp-reset', email: 'third@example.com' })).toMatchObject({ headers: { Location: '/users?note=totp' } });
    expect(await sessionOf(third)).toMatchObject({ refused: { status: 401 } });
    expect((await findUser(db(), 'third@example.com'))!.totp_enabled).toBe(0);
    expect(await actions('third@example.com')).toContain('boss@example.com totp_reset');
  });
});
