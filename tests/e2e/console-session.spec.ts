/**
 * A console session that has expired: the next page sends the person to the sign-in page with a
 * message saying so (and drops the dead cookie), and a form post with it is refused with 401
 * (a browser's form, sent after a sign-out in another tab, goes to the sign-in page saying so).
 * Signing in again returns to the page the operator was going to.
 * The session's expiry is moved into the past in the e2e server's store, as time would.
 */
import { expect, test } from '@playwright/test';
import { newId } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';
import { addUser, checkPage, clearNetworkAttempts, CONSOLE, CONSOLE_HOST, PASSWORD, raw, signIn, withStore } from './console.fixtures';

test.beforeAll(() => clearNetworkAttempts());

test('an expired session: the next page is the sign-in page saying the session expired, and a post with it gets 401', async ({ page }) => {
  test.setTimeout(120_000);
  const email = addUser('admin');
  await signIn(page, email);
  await expect(page).toHaveURL(`${CONSOLE}/`);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const csrf = await page.locator('input[name="csrf"]').first().inputValue();
  expect((await raw('GET', '/leads', CONSOLE_HOST, '', { cookie })).status).toBe(200);

  const expired = new Date(Date.now() - 1000).toISOString();
  await withStore(async (db) => {
    const user = await db.selectFrom('console_users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await db.updateTable('console_sessions').set({ expires_at: expired }).where('user_id', '=', user.id).execute();
  });

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Leads' }).click();
  await expect(page).toHaveURL(`${CONSOLE}/login?error=expired&next=%2Fleads`);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Your session has expired. Sign in again.');
  expect((await page.context().cookies()).filter((c) => c.name === '__Host-console_session')).toEqual([]);
  await checkPage(page, '/login?error=expired', 'Sign in');
  // without the cookie now, the pages ask for a sign-in without claiming a session expired
  expect((await page.goto(`${CONSOLE}/leads`))?.url()).toBe(`${CONSOLE}/login?next=%2Fleads`);

  const post = await raw('POST', '/api/console/export', CONSOLE_HOST, `csrf=${encodeURIComponent(csrf)}&from=2026-01-01&to=2026-01-02`, {
    cookie,
    'content-type': 'application/x-www-form-urlencoded',
  });
  expect(post.status).toBe(401);
  expect(JSON.parse(post.body)).toMatchObject({ error: 'Sign in first' });
  const page2 = await raw('GET', '/leads', CONSOLE_HOST, '', { cookie });
  expect(page2.status).toBe(307);
  expect(page2.headers.location).toBe('/login?error=expired&next=%2Fleads');
});

test('a form sent after signing out in another tab: the sign-in page says the session ended and nothing was changed', async ({ page }) => {
  test.setTimeout(120_000);
  const email = addUser('admin');
  await signIn(page, email);
  await expect(page).toHaveURL(`${CONSOLE}/`);
  await page.goto(`${CONSOLE}/account`);
  const other = await page.context().newPage();
  await other.goto(`${CONSOLE}/`);
  await Promise.all([other.waitForURL(`${CONSOLE}/login?status=out`), other.getByRole('button', { name: 'Sign out' }).click()]);
  await other.close();
  // the first tab's form, sent without a session: the route's side and API clients in tests/unit/console-browser-refusals.test.ts
  await Promise.all([page.waitForURL(`${CONSOLE}/login?error=session_form&next=%2Faccount`), page.getByRole('button', { name: 'Save' }).click()]);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Your session had expired or was signed out, so nothing was changed. Sign in again, then open the page and send the form again.',
  );
  await checkPage(page, '/login?error=session_form&next=%2Faccount', 'Sign in');
  const actions = await withStore((db) => db.selectFrom('console_audit').select('action').where('actor', '=', email).orderBy('at').execute());
  expect(actions.map((a) => a.action)).toEqual(['sign_in', 'sign_out']);
});

test('signed out, a lead’s link leads to the sign-in page, and signing in opens that lead', async ({ page }) => {
  test.setTimeout(120_000);
  // an admin: the lead's form trace (?trace=open) is the admin's
  const email = addUser('admin');
  const leadId = newId('ld');
  await withStore((db) =>
    db
      .insertInto('leads')
      .values({ id: leadId, ...leadRow({ email: `return-${email}` }) })
      .execute(),
  );
  await signIn(page, email);
  await expect(page).toHaveURL(`${CONSOLE}/`);
  await Promise.all([page.waitForURL(/\/login\?status=out$/), page.getByRole('button', { name: 'Sign out' }).click()]);

  // as from an alert email's link: the sign-in page carries where the operator was going
  await page.goto(`${CONSOLE}/leads/${leadId}?trace=open`);
  await expect(page).toHaveURL(`${CONSOLE}/login?next=${encodeURIComponent(`/leads/${leadId}?trace=open`)}`);
  await checkPage(page, `/login?next=${encodeURIComponent(`/leads/${leadId}?trace=open`)}`, 'Sign in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  // the password check is scrypt with 128 MiB: seconds on a busy machine
  await Promise.all([page.waitForURL(`${CONSOLE}/leads/${leadId}?trace=open`, { timeout: 30_000 }), page.getByLabel('Password').press('Enter')]);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Lead ${leadId}`);
});

test('a message key a page does not know shows no message, names every object inherits included', async ({ page }) => {
  test.setTimeout(120_000);
  const inherited = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  for (const key of inherited)
    for (const param of ['error', 'status']) {
      const res = await raw('GET', `/login?${param}=${key}`, CONSOLE_HOST);
      expect(res.status, `/login?${param}=${key}`).toBe(200);
      expect(res.body).not.toContain('role="alert"');
    }
  expect((await raw('GET', '/login?error=wrong', CONSOLE_HOST)).body).toContain('The email or password is wrong.');

  await signIn(page, addUser('admin'));
  await expect(page).toHaveURL(`${CONSOLE}/`);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  for (const key of inherited)
    for (const path of [`/account?note=${key}`, `/account?error=${key}`, `/account?status=${key}`, `/settings?note=${key}`, `/users?note=${key}`]) {
      const res = await raw('GET', path, CONSOLE_HOST, '', { cookie });
      expect(res.status, path).toBe(200);
      expect(res.body, path).not.toMatch(/\[object Object\]|\[native code\]|role="(alert|status)"/);
    }
  // a key the page does know still says its message
  expect((await raw('GET', '/users?note=role', CONSOLE_HOST, '', { cookie })).body).toContain('Role changed.');
});
