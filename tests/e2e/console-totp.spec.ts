/**
 * Two-step sign-in in the console: a user sets up an authenticator on /account (the otpauth://
 * link and the key as text; the secret sealed in the store), confirms it with a code the test
 * computes as an app would (RFC 6238), and from then on the password leads to a code prompt that
 * nothing else gets past; a wrong or replayed code is refused, five wrong codes lock the account
 * like wrong passwords, and `npm run console:user -- totp-reset` removes it for a lost phone.
 */
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { E2E_DB_FILE } from '../../playwright.config';
import { base32Decode, totp } from '../../engine/console/totp';
import { isSealed } from '../../engine/keys/sealing';
import { addUser, checkPage, clearNetworkAttempts, CONSOLE, PASSWORD, signIn, withStore } from './console.fixtures';

test.beforeAll(() => clearNetworkAttempts());

const codeField = (page: Page) => page.getByLabel('Code from your authenticator app');

/** The password step of a sign-in for an account with two-step sign-in on: it ends at the code prompt. */
async function passwordStep(page: Page, email: string) {
  await page.goto(`${CONSOLE}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(`${CONSOLE}/login`, { timeout: 30_000 }), page.getByLabel('Password').press('Enter')]);
  await expect(codeField(page)).toBeVisible();
}

async function enterCode(page: Page, code: string) {
  await codeField(page).fill(code);
  // signed in: the page it was going to (the overview by default); refused: the sign-in page with a message
  await Promise.all([page.waitForURL((url) => url.pathname !== '/login' || url.search.includes('error=')), codeField(page).press('Enter')]);
}

/** Sets up two-step sign-in for the signed-in user; the key as the page shows it. */
async function enrol(page: Page): Promise<Buffer> {
  await checkPage(page, '/account', 'Your account');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('link', { name: /^otpauth:\/\/totp\/loansites%20console:/ })).toBeVisible();
  const key = base32Decode(await page.getByTestId('totp-secret').innerText())!;
  expect(key.length).toBe(20);
  await checkPage(page, '/account', 'Your account');
  // the app's link carries the same key
  const uri = (await page.getByRole('link', { name: /^otpauth:/ }).getAttribute('href'))!;
  expect(base32Decode(new URLSearchParams(uri.split('?')[1]).get('secret')!)).toEqual(key);
  // a wrong code does not turn it on
  await page.getByLabel('Code from the app').fill(totp(key, Date.now() - 5 * 60_000));
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('That code is not right');
  await page.getByLabel('Code from the app').fill(totp(key, Date.now()));
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await expect(page.getByRole('main').getByRole('status')).toHaveText('Two-step sign-in is on. Each sign-in now asks for a code from your app.');
  return key;
}

test('set up with a code from the app; then the password leads to a code prompt, a replayed code is refused, the right one signs in', async ({ page }) => {
  test.setTimeout(180_000);
  const email = addUser('analyst');
  await signIn(page, email);
  const key = await enrol(page);
  const stored = await withStore((db) =>
    db.selectFrom('console_users').select(['totp_secret', 'totp_enabled']).where('email', '=', email).executeTakeFirstOrThrow(),
  );
  expect(stored.totp_enabled).toBe(1);
  expect(isSealed(stored.totp_secret!)).toBe(true);
  await Promise.all([page.waitForURL(/\/login\?status=out$/), page.getByRole('button', { name: 'Sign out' }).click()]);

  await passwordStep(page, email);
  await checkPage(page, '/login', 'Sign in');
  // half signed in reaches nothing: every page sends it back to the code
  expect((await page.goto(`${CONSOLE}/leads`))?.url()).toBe(`${CONSOLE}/login?next=%2Fleads`);
  await expect(codeField(page)).toBeVisible();
  await enterCode(page, '000000' === totp(key, Date.now()) ? '111111' : '000000');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('That code is not right, or was used already. Enter the code your app shows now.');
  // the code typed at set-up was used: it cannot sign in, even within its 30 seconds
  const next = totp(key, Date.now() + 30_000);
  await enterCode(page, next);
  // the page opened half signed in, carried through the code
  await expect(page).toHaveURL(`${CONSOLE}/leads`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leads');
  expect(
    await withStore((db) => db.selectFrom('console_audit').select('detail').where('actor', '=', email).where('action', '=', 'sign_in').orderBy('at').execute()),
  ).toContainEqual({ detail: JSON.stringify({ secondFactor: 'totp' }) });

  // The same code again, on a new sign-in, within its window: refused.
  await Promise.all([page.waitForURL(/\/login\?status=out$/), page.getByRole('button', { name: 'Sign out' }).click()]);
  await passwordStep(page, email);
  await enterCode(page, next);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('was used already');
  await expect(page).toHaveURL(`${CONSOLE}/login?error=code`);
});

test('five wrong codes lock the account like wrong passwords; `console:user totp-reset` removes the authenticator of a lost phone and lifts the lock', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = addUser('viewer');
  await signIn(page, email);
  await enrol(page);
  await Promise.all([page.waitForURL(/\/login\?status=out$/), page.getByRole('button', { name: 'Sign out' }).click()]);
  await passwordStep(page, email);
  for (let i = 0; i < 4; i++) {
    await enterCode(page, '000000');
    await expect(page).toHaveURL(`${CONSOLE}/login?error=code`);
  }
  await enterCode(page, '000000');
  await expect(page).toHaveURL(/\/login\?error=locked/);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Too many failed sign-ins');
  expect(
    await withStore((db) => db.selectFrom('console_audit').select('action').where('actor', '=', email).where('action', '=', 'lockout').execute()),
  ).toHaveLength(1);

  const out = execFileSync('npm', ['run', '--silent', 'console:user', '--', 'totp-reset', '--email', email], {
    env: { ...process.env, LOANSITES_DB_FILE: E2E_DB_FILE, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  expect(out).toContain(`two-step sign-in removed for ${email}`);
  await signIn(page, email);
  await expect(page).toHaveURL(`${CONSOLE}/`);
  await checkPage(page, '/account', 'Your account');
  await expect(page.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
});
