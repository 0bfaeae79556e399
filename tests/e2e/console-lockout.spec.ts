/**
 * The console's sign-in lockout, over real connections from distinct loopback addresses (each is
 * a client network of its own to the server, which trusts no forwarding header here): a guesser
 * who knows an admin's email locks only their own network out of the account, the admin still
 * signs in from theirs, and the guesser's next failure after the lock locks them for longer.
 * And what a guesser typed shows in the audit log as visible escapes, never as bidirectional text.
 */
import { expect, test } from '@playwright/test';
import { addUser, checkPage, CONSOLE_HOST, PASSWORD, raw, signIn } from './console.fixtures';

const GUESSER = '127.0.66.6';
const OWNER = '127.0.99.9';

/** The sign-in form's post as curl sends it (no Origin: not a browser), from `from`; where it redirects. */
async function postSignIn(email: string, password: string, from: string) {
  const body = new URLSearchParams({ email, password }).toString();
  const res = await raw('POST', '/api/console/login', CONSOLE_HOST, body, { 'content-type': 'application/x-www-form-urlencoded' }, from);
  expect(res.status).toBe(303);
  return { location: String(res.headers.location), cookie: String(res.headers['set-cookie'] ?? '') };
}

test('five wrong passwords from another network lock that network out, not the admin: the owner signs in from theirs', async () => {
  test.setTimeout(180_000);
  const email = addUser('admin');
  for (let i = 0; i < 5; i++) expect((await postSignIn(email, 'wrong-guess', GUESSER)).location).toBe('/login?error=wrong');
  // the guesser is refused now, even with the right password
  expect((await postSignIn(email, PASSWORD, GUESSER)).location).toBe('/login?error=locked&minutes=15');
  const owner = await postSignIn(email, PASSWORD, OWNER);
  expect(owner.location).toBe('/');
  expect(owner.cookie).toMatch(/^__Host-console_session=/);
});

test('what a guesser typed as an email shows in the audit log with its bidirectional override as a visible escape', async ({ page }) => {
  test.setTimeout(180_000);
  const typed = 'a\u202eevil@x.com';
  expect((await postSignIn(typed, 'wrong-guess', '127.0.77.7')).location).toBe('/login?error=wrong');
  await signIn(page, addUser('admin'));
  await checkPage(page, '/audit', 'Audit log');
  const entry = page.getByRole('row').filter({ hasText: 'sign_in_failed' }).filter({ hasText: 'evil@x.com' }).first();
  await expect(entry.getByRole('cell').nth(1)).toHaveText('a\\u202eevil@x.com');
  expect(await page.locator('main').innerText()).not.toContain('\u202e');
});
