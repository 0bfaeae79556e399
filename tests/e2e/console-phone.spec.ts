/**
 * The console on a phone (390 px wide): every page an admin can open fits the screen — the page
 * itself never scrolls sideways (a wide table scrolls in its own box, which says so) — passes axe,
 * and every target is at least 44 px (or spaced as WCAG 2.5.8 allows).
 */
import { expect, test } from '@playwright/test';
import { newId } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';
import { expectNoAxeViolations } from './helpers';
import { addUser, clearNetworkAttempts, CONSOLE, signIn, withStore } from './console.fixtures';
import { smallTapTargets } from './tapTargets';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const leadId = newId('ld');

test.beforeAll(async () => {
  await clearNetworkAttempts();
  await withStore((db) =>
    db
      .insertInto('leads')
      .values({ id: leadId, ...leadRow() })
      .execute(),
  );
});

test('every console page at 390 px: no sideways scroll of the page, axe clean, 44 px targets', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, addUser('admin'));
  for (const path of ['/users', '/audit', '/account', '/', '/leads', `/leads/${leadId}`, '/buyers', '/brands', '/exports', '/settings']) {
    const res = await page.goto(`${CONSOLE}${path}`);
    expect(res?.status(), path).toBe(200);
    // what sticks out past the screen's right edge (outside a box that scrolls itself), to say which element widens the page
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !el.parentElement?.closest('.console-scroll'))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80)),
    );
    expect(wide, path).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), path).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
    expect(await smallTapTargets(page, 44), path).toEqual([]);
  }
  // a wide table says it scrolls, and its box (not the page) does
  await page.goto(`${CONSOLE}/leads`);
  const box = page.getByRole('region', { name: /scrolls sideways/ }).first();
  await expect(box).toBeVisible();
  await expect(box).toContainText('Scroll sideways for every column');
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
});
