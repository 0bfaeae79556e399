/**
 * The no-sale alert from the console, on a production server of its own (its own store and one
 * stand-in buyer, so no other spec's sales reach it and its alerts reach no other spec): an admin
 * sets "no sale for 1 min" on Settings (a quiet time out of range is refused with the reason); the
 * buyer is scheduled and nothing has sold, so the alert shows on the overview and reaches the local
 * webhook, signed, and a local SMTP server as an e-mail; a borrower's lead is then sold to the
 * buyer and the resolved message follows on both.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { freePort } from '../support/ports';
import { startInstance, type Instance } from '../support/instances';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtpReceiver';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { addUser, checkPage, signIn } from './console.fixtures';
import { fillAndSubmit } from './sale.fixtures';

/** This spec's own server's port (leased: no spec running beside it is given it). */
let PORT: number;
let CONSOLE_URL: string;
const SECRET = 'console-alerts-more-buyer-secret';
const HOOK_SECRET = 'console-alerts-more-hook-secret';
const BUYER = 'always-on';
const dir = mkdtempSync(join(tmpdir(), 'loansites-console-alerts-more-'));
const DB_FILE = join(dir, 'store.sqlite');

let server: Instance;
let buyer: StandInBuyer;
let hook: WebhookReceiver;
let smtp: SmtpReceiver;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  PORT = await freePort(E2E_PORT + 17);
  CONSOLE_URL = `http://console.localhost:${PORT}`;
  buyer = await startStandInBuyer(BUYER, SECRET, { ping: { bid: 20 } });
  hook = await startWebhookReceiver();
  smtp = await startSmtpReceiver();
  mkdirSync(join(dir, 'buyers'));
  writeFileSync(join(dir, 'buyers', `${BUYER}.json`), JSON.stringify(buyer.document({ acceptsTestLeads: true, acceptsDuplicates: true })));
  server = await startInstance(PORT, {
    LOANSITES_DB_FILE: DB_FILE,
    DATABASE_URL: '',
    LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
    BUYER_ALWAYS_ON_SECRET: SECRET,
    LEAD_DESTINATIONS: '',
    RATE_LIMIT_LEADS: '1000',
    RATE_LIMIT_FORM_TRACE: '1000',
    ALERT_CHECK_MS: '500',
    ALERT_WEBHOOK_URL: hook.url,
    ALERT_WEBHOOK_SECRET: HOOK_SECRET,
    ALERT_SMTP_URL: smtp.url('alerts', 'smtp-password-never-shown'),
    ALERT_EMAIL_FROM: 'alerts@loansites.example',
    ALERT_EMAIL_TO: 'ops@loansites.example',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await buyer?.close();
  await hook?.close();
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
});

const hookTexts = () => hook.received.map((r) => (JSON.parse(r.body) as { text: string }).text);
const mailSubjects = () => smtp.received.map((m) => m.subject);

test('a no-sale alert set on Settings shows on the overview, is sent to the webhook and by e-mail, and resolves after a sale', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, addUser('admin', DB_FILE), undefined, CONSOLE_URL);
  await checkPage(page, '/settings', 'Settings', 200, CONSOLE_URL);
  await expect(page.getByTestId('email')).toHaveText('They are also e-mailed to 1 address through 127.0.0.1:' + new URL(smtp.url('a', 'b')).port + '.');
  await expect(page.locator('body')).not.toContainText('smtp-password-never-shown');
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Add no-sale alert' }) });
  await form.getByLabel(/No sale for/).fill('2000');
  await form.getByRole('button', { name: 'Add no-sale alert' }).click();
  await expect(page.getByRole('alert')).toHaveText('The quiet time is a whole number of minutes from 1 to 1440.');
  await form.getByLabel(/No sale for/).fill('1');
  await form.getByRole('button', { name: 'Add no-sale alert' }).click();
  await expect(page.getByRole('status')).toHaveText('Alert added.');
  await expect(page.getByText('no sale for 1 min while buyers are scheduled')).toBeVisible();

  // The buyer has no schedule and nothing has sold: the alert opens at the next check.
  const opened = `No sale for 1 min while buyers are scheduled (${BUYER}); the last sale was never.`;
  await expect.poll(hookTexts, { timeout: 30_000 }).toEqual([`:rotating_light: ${opened}`]);
  const sent = hook.received[0]!;
  expect(sent.headers['x-loansites-signature']).toBe(`sha256=${createHmac('sha256', HOOK_SECRET).update(sent.body).digest('hex')}`);
  await expect.poll(mailSubjects, { timeout: 30_000 }).toEqual([`[Alert] ${opened}`]);
  await checkPage(page, '/', 'Overview', 200, CONSOLE_URL);
  await expect(page.getByRole('region', { name: 'Alerts' })).toContainText(opened);

  // A borrower's lead is sold to the buyer: the alert resolves, once, on both channels.
  const borrower = await browser.newPage();
  await fillAndSubmit(borrower, { brand: 'ipaydayloans', path: '/apply', email: `sold.${Date.now()}@example.org`, port: PORT });
  await expect.poll(() => buyer.accepted.size, { timeout: 60_000 }).toBe(1);
  await expect.poll(() => hookTexts().length, { timeout: 30_000 }).toBe(2);
  expect(hookTexts()[1]).toBe(`:white_check_mark: Resolved: ${opened}`);
  await expect.poll(() => mailSubjects().length, { timeout: 30_000 }).toBe(2);
  expect(mailSubjects()[1]).toMatch(/^\[Resolved\] Resolved: No sale for 1 min/);
  await page.reload();
  await expect(page.getByText(opened)).toHaveCount(0);
  await borrower.close();
});
