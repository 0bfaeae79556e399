/**
 * A one-time sign-in link, as an admin and a new colleague use it: the admin makes the link on
 * Users and sees it once; the colleague opens it (sent to a console page: its ?next=), presses the
 * button and is signed in on that page; the same link a second time says it was used, and signs nobody in.
 */
import { expect, test } from '@playwright/test';
import { addUser, checkPage, CONSOLE, signIn } from './console.fixtures';

test('an admin makes a sign-in link; it signs its user in once', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const viewer = addUser('viewer');
  await signIn(page, addUser('admin'));
  await checkPage(page, '/users', 'Users');
  await page.getByRole('button', { name: `Make a sign-in link ${viewer}` }).click();
  await expect(page.getByRole('status')).toContainText('Sign-in link made.');
  const url = new URL((await page.locator('[data-sign-in-link]').textContent())!);
  // the link as shown, on this plain-http local console: its own scheme and port, so it opens as copied
  expect(url.origin).toBe(CONSOLE);
  expect(url.pathname).toBe('/login');
  // shown once: a reload no longer has it
  await page.reload();
  await expect(page.locator('[data-sign-in-link]')).toHaveCount(0);

  const colleague = await browser.newContext();
  const theirs = await colleague.newPage();
  const link = url.href;
  // the admin sends it for the Brands page
  await checkPage(theirs, `/login${url.search}&next=%2Fbrands`, 'Sign in');
  await theirs.getByRole('button', { name: 'Sign in with this link' }).click();
  await expect(theirs).toHaveURL(`${CONSOLE}/brands`);
  await expect(theirs.getByRole('heading', { level: 1 })).toHaveText('Brands');

  const other = await browser.newContext();
  const again = await other.newPage();
  await again.goto(link);
  await again.getByRole('button', { name: 'Sign in with this link' }).click();
  await expect(again.getByRole('alert')).toHaveText('That sign-in link was used already, has expired, or is not one of ours. Ask an admin for a new one.');
  // where a link tried over the rate limit comes back to (the route's side: tests/unit/console-sign-in-links.test.ts)
  await checkPage(again, '/login?error=link_limited', 'Sign in', 429);
  await expect(again.getByRole('alert')).toHaveText('Too many sign-in links tried from here in the last minute. Wait a minute, then open your link again.');
  await colleague.close();
  await other.close();
});
