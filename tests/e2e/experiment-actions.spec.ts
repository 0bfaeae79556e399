/**
 * Stopping an experiment from its console page, end to end, on a production server of this
 * spec's own (the stop publishes a revision of the payday brand, which the shared e2e server's
 * other specs must not see): an admin stops the payday brand's /payday-loans headline experiment
 * with its challenger as the winner; a visitor without the experiments' cookie and one whose
 * cookie holds the control then both get the winner's headline. An analyst sees the page without
 * any form. Axe finds nothing on the page, with its forms or without.
 */
import { expect, test, type Browser } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { E2E_PORT } from '../../playwright.config';
import { freePort } from '../support/ports';
import { addUser, checkPage, signIn } from './console.fixtures';
import { brandUrl } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer.fixtures';

const EXPERIMENT = 'payday-hero-headline';
const HOST = 'ipaydayloans.localhost';
const CONTROL = 'Payday Loans Online';
const WINNER = 'Cash Before Payday, Without the Runaround';

let own: OwnServer;
let port: number;
const consoleUrl = () => `http://console.localhost:${port}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  port = await freePort(E2E_PORT + 7);
  own = await startOwnServer(port, { secret: 'e2e-experiment-actions', buyers: [] });
});

test.afterAll(async () => {
  await own?.stop();
});

/** A browser whose experiments' cookie holds `variant` (none: no cookie), opening /payday-loans; its h1. */
async function headlineFor(browser: Browser, variant?: string) {
  const context = await browser.newContext();
  if (variant) await context.addCookies([{ name: 'lsx', value: `${randomBytes(8).toString('hex')}|${EXPERIMENT}:${variant}`, domain: HOST, path: '/' }]);
  const page = await context.newPage();
  await page.goto(brandUrl('ipaydayloans', '/payday-loans', port));
  const text = await page.getByRole('heading', { level: 1 }).innerText();
  await context.close();
  return text;
}

test('an analyst sees the experiment page without any form', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, addUser('analyst', own.dbFile), undefined, consoleUrl());
  // one end of a range alone: the whole experiment, said above the verdict
  await checkPage(page, `/experiments/${EXPERIMENT}?from=2026-01-01`, `Experiment ${EXPERIMENT}`, 200, consoleUrl());
  await expect(page.getByRole('alert')).toHaveText('A range needs both a start and an end day; showing the whole experiment, from its start to today.');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.locator('form[action="/api/console/experiments"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Stop with/ })).toHaveCount(0);
});

test('an admin stops it with the challenger as the winner; a visitor without the cookie and one holding the control both get the winner', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // before: the control's cookie shows the control
  expect(await headlineFor(browser, 'control')).toBe(CONTROL);

  await signIn(page, addUser('admin', own.dbFile), undefined, consoleUrl());
  await checkPage(page, `/experiments/${EXPERIMENT}?device=mobile`, `Experiment ${EXPERIMENT}`, 200, consoleUrl());
  await page.getByRole('button', { name: 'Stop with cash-before-payday as the winner' }).click();
  // back on the page it was sent from, its filter kept
  await expect(page).toHaveURL(`${consoleUrl()}/experiments/${EXPERIMENT}?device=mobile&brand=ipaydayloans&note=stopped`);
  await expect(page.getByRole('status').filter({ hasText: 'Stopped: the winner is now the page itself' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Stop with/ })).toHaveCount(0);
  await checkPage(page, `/experiments/${EXPERIMENT}?brand=ipaydayloans&note=stopped`, `Experiment ${EXPERIMENT}`, 200, consoleUrl());

  await expect.poll(() => headlineFor(browser), { timeout: 15_000 }).toBe(WINNER);
  expect(await headlineFor(browser, 'control')).toBe(WINNER);
});
