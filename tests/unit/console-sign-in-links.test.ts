/**
 * One-time sign-in links through the console's routes: an admin makes one for an account, sees
 * it once; it signs that user in once (a second use, an expired link, a guessed one and a
 * disabled account are refused with one message); a user with a second factor still gives the
 * code; only an admin with the page's CSRF token can make one; making and using are audited.
 */
import { describe, expect, it } from 'vitest';
import { requireUser } from '../../engine/console/api';
import { hashPassword } from '../../engine/console/passwords';
import { signInLinkRoute } from '../../engine/console/signInLinkRoute';
import { USER_NOTES } from '../../engine/console/userRoutes';
import { createSignInLink, takeShownLinks } from '../../engine/console/signInLinks';
import { addUser } from '../../engine/store/console';
import { setDisabled } from '../../engine/store/consoleUserAdmin';
import { bothStores, migratedStore } from '../support/bothStores';
import { consolePost, consoleSignIn } from '../support/consoleForm';

const stores = bothStores('loansites-links-');
const cheap = { N: 2 ** 12, r: 8, p: 1 };

describe.each(stores.kinds('links.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);
  const use = (token: string) => signInLinkRoute(db(), consolePost({ op: 'use', token }));

  it('a link made by an admin signs its user in once, and is shown to that admin once', async () => {
    await addUser(db(), { email: 'boss@example.com', role: 'admin', passwordHash: await hashPassword('boss passphrase 1', cheap) });
    await addUser(db(), { email: 'ana@example.com', role: 'analyst', passwordHash: await hashPassword('ana passphrase 12', cheap) });
    const boss = (await consoleSignIn(db(), 'boss@example.com', 'boss passphrase 1'))!;
    const made = await signInLinkRoute(db(), consolePost({ op: 'create', email: 'Ana@example.com', csrf: boss.csrf }, { cookie: boss.cookie }));
    expect(made).toMatchObject({ status: 303, headers: { Location: '/users?note=link' } });
    const [shown, ...more] = await takeShownLinks(db(), 'boss@example.com');
    expect(more).toEqual([]);
    expect(shown).toMatchObject({ email: 'ana@example.com' });
    expect(shown!.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await takeShownLinks(db(), 'boss@example.com')).toEqual([]); // once

    const first = await use(shown!.token);
    expect(first).toMatchObject({ status: 303, headers: { Location: '/' } });
    const cookie = first.headers!['Set-Cookie']!.split(';')[0]!;
    const who = await requireUser(db(), { method: 'GET', headers: { cookie }, ip: '198.51.100.9' }, 'overview.view');
    expect('user' in who && who.user?.email).toBe('ana@example.com');
    expect(await use(shown!.token)).toMatchObject({ status: 303, headers: { Location: '/login?error=link' } });
    expect(await use('A'.repeat(43))).toMatchObject({ headers: { Location: '/login?error=link' } });

    const audits = await db().selectFrom('console_audit').select(['actor', 'action']).where('target', '=', 'ana@example.com').orderBy('at').execute();
    expect(audits.map((a) => `${a.actor} ${a.action}`)).toEqual(['boss@example.com sign_in_link_created', 'ana@example.com sign_in_link_used']);
  });

  it('refuses an expired link and one for a disabled account; a user with a second factor still gives the code', async () => {
    await createSignInLink(db(), 'ana@example.com', 'boss@example.com', new Date(Date.now() - 2 * 3600_000));
    const [old] = await takeShownLinks(db(), 'boss@example.com');
    expect(await use(old!.token)).toMatchObject({ headers: { Location: '/login?error=link' } });

    await createSignInLink(db(), 'ana@example.com', 'boss@example.com');
    const [fresh] = await takeShownLinks(db(), 'boss@example.com');
    await setDisabled(db(), 'ana@example.com', true);
    expect(await use(fresh!.token)).toMatchObject({ headers: { Location: '/login?error=link' } });
    expect(await createSignInLink(db(), 'ana@example.com', 'boss@example.com')).toBe('disabled');
    await setDisabled(db(), 'ana@example.com', false);

    await db().updateTable('console_users').set({ totp_enabled: 1 }).where('email', '=', 'ana@example.com').execute();
    await createSignInLink(db(), 'ana@example.com', 'boss@example.com');
    const [coded] = await takeShownLinks(db(), 'boss@example.com');
    expect(await use(coded!.token)).toMatchObject({ status: 303, headers: { Location: '/login' } });
    await db().updateTable('console_users').set({ totp_enabled: 0 }).where('email', '=', 'ana@example.com').execute();
  });

  it('only an admin, with the page’s CSRF token, makes a link', async () => {
    const ana = (await consoleSignIn(db(), 'ana@example.com', 'ana passphrase 12'))!;
    await expect(signInLinkRoute(db(), consolePost({ op: 'create', email: 'boss@example.com', csrf: ana.csrf }, { cookie: ana.cookie }))).rejects.toMatchObject(
      { status: 403 },
    );
    const boss = (await consoleSignIn(db(), 'boss@example.com', 'boss passphrase 1'))!;
    await expect(signInLinkRoute(db(), consolePost({ op: 'create', email: 'ana@example.com', csrf: 'forged' }, { cookie: boss.cookie }))).rejects.toMatchObject(
      { status: 403 },
    );
    await expect(
      signInLinkRoute(db(), consolePost({ op: 'create', email: 'ana@example.com', csrf: boss.csrf }, { cookie: boss.cookie, 'sec-fetch-site': 'cross-site' })),
    ).rejects.toMatchObject({ status: 403 });
    expect(await signInLinkRoute(db(), consolePost({ op: 'create', email: 'nobody@example.com', csrf: boss.csrf }, { cookie: boss.cookie }))).toMatchObject({
      headers: { Location: '/users?note=missing' },
    });
  });

  it('over the rate limits, making or trying links comes back to the Users or sign-in page saying so; an API client asking for JSON gets the 429', async () => {
    const from = (fields: Record<string, string>, headers: Record<string, string>, ip: string) =>
      Object.assign(consolePost(fields, headers), { socket: { remoteAddress: ip } });
    // tried from one address: a guessed link each time, until the limit
    const ip = _kind === 'SQLite' ? '198.51.100.61' : '198.51.100.62';
    let tried = await signInLinkRoute(db(), from({ op: 'use', token: 'B'.repeat(43) }, {}, ip));
    for (let i = 0; i < 30 && tried.headers?.Location === '/login?error=link'; i++)
      tried = await signInLinkRoute(db(), from({ op: 'use', token: 'B'.repeat(43) }, {}, ip));
    expect(tried).toMatchObject({ status: 303, headers: { Location: '/login?error=link_limited' } });
    await expect(signInLinkRoute(db(), from({ op: 'use', token: 'B'.repeat(43) }, { accept: 'application/json' }, ip))).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many sign-in links tried/),
    });
    // made by one admin
    const email = `links-${_kind.toLowerCase()}@example.com`;
    await addUser(db(), { email, role: 'admin', passwordHash: await hashPassword('links passphrase 1', cheap) });
    const admin = (await consoleSignIn(db(), email, 'links passphrase 1'))!;
    const make = (headers: Record<string, string> = {}) =>
      signInLinkRoute(db(), consolePost({ op: 'create', email: 'ana@example.com', csrf: admin.csrf }, { cookie: admin.cookie, ...headers }));
    let made = await make();
    for (let i = 0; i < 30 && made.headers?.Location === '/users?note=link'; i++) made = await make();
    expect(made).toMatchObject({ status: 303, headers: { Location: '/users?note=link_limited' } });
    await expect(make({ accept: 'application/json' })).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/^Too many sign-in links made/) });
    expect(USER_NOTES.link_limited).toBe('Too many sign-in links made in the last minute, so none was made. Wait a minute and try again.');
  });
});
