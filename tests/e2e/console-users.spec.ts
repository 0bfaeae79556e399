/**
 * Console accounts from the console: an admin adds an account through the form, its temporary
 * password is shown once (a reload does not show it again), the new user signs in with it, and
 * when the admin disables the account the user's open session ends at their next click.
 */
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './helpers';
import { addUser, clearNetworkAttempts, CONSOLE, run, signIn } from './console.fixtures';

test.beforeAll(clearNetworkAttempts);

test('an admin adds a user whose temporary password is shown once; the user signs in; disabled, their open session ends', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, addUser('admin'));
  await page.goto(`${CONSOLE}/users`);
  await expectNoAxeViolations(page);
  const email = `added-${run}@example.com`;
  const add = page.getByRole('form', { name: 'Add an account' });
  await add.getByLabel('Email').fill(email);
  await add.getByRole('combobox').selectOption('analyst');
  await page.getByRole('button', { name: 'Add with a temporary password' }).click();
  await expect(page.getByRole('status')).toHaveText(/Account added/);
  const password = (await page.locator('[data-temporary-password]').textContent()) ?? '';
  expect(password.length).toBeGreaterThanOrEqual(20);
  await expectNoAxeViolations(page);
  await page.reload();
  await expect(page.locator('[data-temporary-password]')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(password);

  const user = await (await browser.newContext()).newPage();
  await signIn(user, email, password);
  await expect(user).toHaveURL(`${CONSOLE}/`);
  await user.goto(`${CONSOLE}/leads`);
  await expect(user.getByRole('heading', { level: 1 })).toHaveText('Leads');

  await page.getByRole('button', { name: `Disable ${email}` }).click();
  await expect(page.getByRole('status')).toHaveText('Account disabled; its sessions have ended.');
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('disabled');

  // the user's next click: the session is gone, back to the sign-in page
  await user.getByRole('link', { name: 'Leads' }).click();
  await expect(user).toHaveURL(/\/login\?error=expired/);
  // and the password no longer signs in
  await signIn(user, email, password);
  await expect(user).toHaveURL(/\/login\?error=wrong/);
});
