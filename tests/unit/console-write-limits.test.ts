/**
 * The console's writes that carry personal data or accounts are limited per signed-in user, as
 * settings, sign-in links and cost uploads are: an admin's account changes, an analyst's reveals
 * of a borrower's details and held-lead decisions. Past the limit the post is a 429 that says
 * what was refused and when to try again (a browser's form post goes back to its page, which says
 * so), and nothing is changed or audited. Limits are lowered through the environment, as an
 * operator would set them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.RATE_LIMIT_CONSOLE_USERS = '3';
  process.env.RATE_LIMIT_CONSOLE_REVEAL = '3';
  process.env.RATE_LIMIT_CONSOLE_REVIEW = '3';
});

import { revealRoute } from '../../engine/console/formRoutes';
import { hashPassword } from '../../engine/console/passwords';
import { REVIEW_NOTES, reviewRoute } from '../../engine/console/reviewRoute';
import { usersRoute } from '../../engine/console/userRoutes';
import { addUser } from '../../engine/store/console';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { consolePost, consoleSignIn } from '../support/consoleForm';

const cheap = { N: 2 ** 12, r: 8, p: 1 };
/** An API client's post: it asks for JSON, and keeps the status and reason. */
const JSON_CLIENT = { accept: 'application/json' };
/** Posts from a terminal or a script: curl's default Accept, and none at all. Neither names text/html, so neither is a browser. */
const NOT_A_BROWSER = [{ accept: '*/*' }, { accept: '' }];
let tmp: string;
let db: Store;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'loansites-console-limits-'));
  db = openStore({ url: '', file: join(tmp, 'limits.sqlite') });
  await migrateStore(db);
});
afterAll(async () => {
  await db.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

const signIn = async (email: string, role: 'admin' | 'analyst') => {
  await addUser(db, { email, role, passwordHash: await hashPassword('a long passphrase 1', cheap) });
  return (await consoleSignIn(db, email, 'a long passphrase 1'))!;
};
const audited = async (actor: string) => (await db.selectFrom('console_audit').select('action').where('actor', '=', actor).execute()).length;

describe('console writes limited per user', () => {
  it('an admin changing accounts faster than a person would is told so on the Users page (an API client: a 429), and nothing more is changed', async () => {
    const admin = await signIn('limits-admin@example.com', 'admin');
    await addUser(db, { email: 'someone@example.com', role: 'viewer', passwordHash: await hashPassword('another passphrase 1', cheap) });
    const roles = ['analyst', 'viewer', 'analyst', 'viewer'];
    const answers = [];
    for (const role of roles.slice(0, 3))
      answers.push(await usersRoute(db, consolePost({ csrf: admin.csrf, op: 'role', email: 'someone@example.com', role }, { cookie: admin.cookie })));
    expect(answers.map((a) => a.headers?.Location)).toEqual(['/users?note=role', '/users?note=role', '/users?note=role']);
    const before = await audited('limits-admin@example.com');
    // the Users page's form comes back to it, which says so; an API client asking for JSON gets the 429
    expect(
      await usersRoute(db, consolePost({ csrf: admin.csrf, op: 'role', email: 'someone@example.com', role: 'viewer' }, { cookie: admin.cookie })),
    ).toMatchObject({ status: 303, headers: { Location: '/users?note=limited' } });
    await expect(
      usersRoute(db, consolePost({ csrf: admin.csrf, op: 'role', email: 'someone@example.com', role: 'viewer' }, { cookie: admin.cookie, ...JSON_CLIENT })),
    ).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many changes to accounts; try again in \d+ s$/),
      headers: { 'Retry-After': expect.stringMatching(/^\d+$/) },
    });
    // a form posted with curl or from a script is not shown a page either: it keeps the 429
    for (const client of NOT_A_BROWSER)
      await expect(
        usersRoute(db, consolePost({ csrf: admin.csrf, op: 'role', email: 'someone@example.com', role: 'viewer' }, { cookie: admin.cookie, ...client })),
      ).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/^Too many changes to accounts/) });
    expect(await audited('limits-admin@example.com')).toBe(before);
    const row = await db.selectFrom('console_users').select('role').where('email', '=', 'someone@example.com').executeTakeFirstOrThrow();
    expect(row.role).toBe('analyst');
  });

  it('an analyst revealing borrowers’ details one after another is stopped at the limit, and the refused reveal is not recorded', async () => {
    const analyst = await signIn('limits-analyst@example.com', 'analyst');
    // no such leads: each still counts, as a script walking lead ids would
    for (let i = 0; i < 3; i++)
      await expect(revealRoute(db, consolePost({ csrf: analyst.csrf, lead: `ld_nothere${i}` }, { cookie: analyst.cookie }))).rejects.toMatchObject({
        status: 404,
      });
    expect(await revealRoute(db, consolePost({ csrf: analyst.csrf, lead: 'ld_nothere9' }, { cookie: analyst.cookie }))).toMatchObject({
      status: 303,
      headers: { Location: '/leads/ld_nothere9?reveal=limited' },
    });
    await expect(revealRoute(db, consolePost({ csrf: analyst.csrf, lead: 'ld_nothere9' }, { cookie: analyst.cookie, ...JSON_CLIENT }))).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many leads revealed; try again in \d+ s$/),
    });
    // the limit is the analyst's own: another analyst is not held back
    const other = await signIn('limits-analyst2@example.com', 'analyst');
    await expect(revealRoute(db, consolePost({ csrf: other.csrf, lead: 'ld_nothere0' }, { cookie: other.cookie }))).rejects.toMatchObject({ status: 404 });
  });

  it('held-lead decisions are limited the same way', async () => {
    const admin = await signIn('limits-reviewer@example.com', 'admin');
    for (let i = 0; i < 3; i++)
      await expect(
        reviewRoute(db, consolePost({ csrf: admin.csrf, lead: `ld_nothere${i}`, decision: 'release' }, { cookie: admin.cookie })),
      ).rejects.toMatchObject({
        status: 404,
      });
    expect(await reviewRoute(db, consolePost({ csrf: admin.csrf, lead: 'ld_nothere9', decision: 'release' }, { cookie: admin.cookie }))).toMatchObject({
      status: 303,
      headers: { Location: '/leads/ld_nothere9?review=limited' },
    });
    await expect(
      reviewRoute(db, consolePost({ csrf: admin.csrf, lead: 'ld_nothere9', decision: 'release' }, { cookie: admin.cookie, ...JSON_CLIENT })),
    ).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many review decisions/),
    });
  });

  it('a decision the lead’s page does not offer goes back to it saying so; an API client asking for JSON gets the 400', async () => {
    const admin = await signIn('decider@example.com', 'admin');
    expect(await reviewRoute(db, consolePost({ csrf: admin.csrf, lead: 'ld_held1', decision: 'maybe' }, { cookie: admin.cookie }))).toMatchObject({
      status: 303,
      headers: { Location: '/leads/ld_held1?review=decision' },
    });
    expect(REVIEW_NOTES.decision).toBe('A held lead is released or rejected; nothing was changed.');
    await expect(
      reviewRoute(db, consolePost({ csrf: admin.csrf, lead: 'ld_held1', decision: 'maybe' }, { cookie: admin.cookie, ...JSON_CLIENT })),
    ).rejects.toMatchObject({ status: 400, message: 'The decision must be release or reject' });
    // curl or a script is not a browser either (another admin: within the limit of decisions)
    const scripted = await signIn('decider2@example.com', 'admin');
    for (const client of NOT_A_BROWSER)
      await expect(
        reviewRoute(db, consolePost({ csrf: scripted.csrf, lead: 'ld_held1', decision: 'maybe' }, { cookie: scripted.cookie, ...client })),
      ).rejects.toMatchObject({ status: 400, message: 'The decision must be release or reject' });
  });
});
