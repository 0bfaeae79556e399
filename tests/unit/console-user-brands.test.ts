/**
 * An admin sets which brands an editor may change in the studio from the console's Users page
 * (POST /api/console/users, op "brands"), on SQLite and a real PostgreSQL: limited to one brand,
 * the editor is refused (403) publishing another and may publish its own; an id no brand has is
 * refused with a message naming it and nothing changes; only an editor's account takes a list;
 * an empty list gives every brand back; each change is audited with the admin as actor.
 */
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../engine/console/passwords';
import { studioRoute } from '../../engine/console/studioApi';
import { usersRoute } from '../../engine/console/userRoutes';
import { addUser } from '../../engine/store/console';
import { userRows } from '../../engine/store/consoleUserAdmin';
import { bothStores, migratedStore } from '../support/bothStores';
import { consolePost, consoleSignIn } from '../support/consoleForm';
import { studioRequest } from '../support/studioRequest';

const stores = bothStores('loansites-user-brands-');
const cheap = { N: 2 ** 12, r: 8, p: 1 };
type Who = { cookie: string; csrf: string };

describe.each(stores.kinds('user-brands.sqlite'))('%s: an editor’s brands set from the console', (_kind, options) => {
  const db = migratedStore(options);
  const user = async (email: string, role: 'admin' | 'editor' | 'analyst'): Promise<Who> => {
    await addUser(db(), { email, role, passwordHash: await hashPassword('a long passphrase 1', cheap) });
    return (await consoleSignIn(db(), email, 'a long passphrase 1'))!;
  };
  const change = (who: Who, fields: Record<string, string>) => usersRoute(db(), consolePost({ csrf: who.csrf, ...fields }, { cookie: who.cookie }));
  /** The status of a publish of version 999 of `brand` (403 when refused for the brand; 404 — no such version — when allowed). */
  const publish = async (who: Who, brand: string) => {
    try {
      return (
        await studioRoute(db(), studioRequest('POST', `brands/${brand}/publish`, who, { version: 999 }), ['brands', brand, 'publish'], {
          announce: async () => {},
        })
      ).status;
    } catch (err) {
      const e = err as { status?: number };
      if (!e.status) throw err;
      return e.status;
    }
  };
  const brandsOf = async (email: string) => (await userRows(db())).find((u) => u.email === email)!.brands;

  it('limits an editor to one brand: publishing another is refused with 403, its own is not; unknown ids are refused by name; empty gives every brand back', async () => {
    const admin = await user('admin@example.com', 'admin');
    const editor = await user('editor@example.com', 'editor');
    await user('analyst@example.com', 'analyst');
    expect(await publish(editor, 'cocoloan')).toBe(404);

    expect(await change(admin, { op: 'brands', email: 'editor@example.com', brands: 'ipaydayloans' })).toMatchObject({
      status: 303,
      headers: { Location: '/users?note=brands' },
    });
    expect(await brandsOf('editor@example.com')).toBe('ipaydayloans');
    expect(await publish(editor, 'cocoloan')).toBe(403);
    expect(await publish(editor, 'ipaydayloans')).toBe(404);

    // an id no brand has: refused, named back, nothing changed
    expect(await change(admin, { op: 'brands', email: 'editor@example.com', brands: 'ipaydayloans, no-such-brand' })).toMatchObject({
      headers: { Location: '/users?note=brands_unknown&unknown=no-such-brand' },
    });
    expect(await change(admin, { op: 'brands', email: 'editor@example.com', brands: '<script>' })).toMatchObject({
      headers: { Location: '/users?note=brands_unknown' },
    });
    expect(await brandsOf('editor@example.com')).toBe('ipaydayloans');
    // only an editor's account is limited to brands
    expect(await change(admin, { op: 'brands', email: 'analyst@example.com', brands: 'cocoloan' })).toMatchObject({
      headers: { Location: '/users?note=brands_role' },
    });
    expect(await brandsOf('analyst@example.com')).toBeNull();
    // a non-admin may not set anyone's brands
    await expect(change(editor, { op: 'brands', email: 'editor@example.com', brands: '' })).rejects.toMatchObject({ status: 403 });

    // empty: every brand again
    expect(await change(admin, { op: 'brands', email: 'editor@example.com', brands: '' })).toMatchObject({ headers: { Location: '/users?note=brands' } });
    expect(await brandsOf('editor@example.com')).toBeNull();
    expect(await publish(editor, 'cocoloan')).toBe(404);

    const audited = await db()
      .selectFrom('console_audit')
      .select(['actor', 'action', 'detail'])
      .where('target', '=', 'editor@example.com')
      .where('action', '=', 'brands_changed')
      .orderBy('at')
      .execute();
    expect(audited.map((a) => [a.actor, JSON.parse(String(a.detail))])).toEqual([
      ['admin@example.com', { brands: ['ipaydayloans'] }],
      ['admin@example.com', { brands: 'every brand' }],
    ]);
  });
});
