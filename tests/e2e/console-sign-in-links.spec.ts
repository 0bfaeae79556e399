/**
 * A one-time sign-in link, as an admin and a new colleague use it: the admin makes the link on
 * Users, by keyboard, for the console page it opens at ("Open at"; a path that is no console
 * page is refused with a note saying so), and sees it once; the colleague opens it (its ?next=),
 * presses the button and is signed in on that page; the same link a second time says it was used,
 * and signs nobody in.
 */
import { expect, test } from '@playwright/test';
import { addUser, checkPage, CONSOLE, signIn } from './console.fixtures';

test('an admin makes a sign-in link; it signs its user in once', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const viewer = addUser('viewer');
  await signIn(page, addUser('admin'));
  await checkPage(page, '/users', 'Users');
  const openAt = page.getByLabel(`the sign-in link for ${viewer} opens`);
  // a page that is not the console's: refused, with a note saying what to give, and no link made
  await openAt.focus();
  await page.keyboard.type('https://evil.example/brands');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('That page is not a console page: give a path such as /leads. No sign-in link was made.');
  await expect(page.locator('[data-sign-in-link]')).toHaveCount(0);
  await checkPage(page, '/users?note=link_open', 'Users');

  // the Brands page, by keyboard: the field, then Tab to its button
  await openAt.focus();
  await page.keyboard.type('/brands');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: `Make a sign-in link ${viewer}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText('Sign-in link made.');
  await expect(page.locator('[data-sign-in-link]').locator('..')).toContainText('opening at /brands');
  const url = new URL((await page.locator('[data-sign-in-link]').textContent())!);
  // the link as shown, on this plain-http local console: its own scheme and port, so it opens as copied
  expect(url.origin).toBe(CONSOLE);
  expect(url.pathname).toBe('/login');
  expect(url.searchParams.get('next')).toBe('/brands');
  // shown once: a reload no longer has it
  await page.reload();
  await expect(page.locator('[data-sign-in-link]')).toHaveCount(0);

  const colleague = await browser.newContext();
  const theirs = await colleague.newPage();
  const link = url.href;
  await checkPage(theirs, `/login${url.search}`, 'Sign in');
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
