/**
 * Alerts from the console: an admin adds an acceptance alert on Settings (a wrong threshold is
 * refused with the reason); a buyer then refuses the leads offered to it, and within seconds the
 * alert shows on the overview and reaches a local webhook receiver as signed Slack-style JSON;
 * an analyst has no Settings page and a post of theirs is refused; removing the alert is audited.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { E2E_ALERT_PORT, E2E_ALERT_SECRET } from '../../playwright.config';
import { insertLead } from '../../engine/store/leads';
import { addEvents, type NewEvent } from '../../engine/store/sales';
import { leadRow } from '../support/leadRow';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { addUser, checkPage, CONSOLE, CONSOLE_HOST, raw, signIn, withStore } from './console.fixtures';

const buyer = `alert-${randomBytes(4).toString('hex')}`;
let hook: WebhookReceiver | undefined;

test.afterAll(() => hook?.close());

test('an acceptance alert set on Settings shows on the overview and reaches the webhook, signed', async ({ page }) => {
  test.setTimeout(180_000);
  hook = await startWebhookReceiver(E2E_ALERT_PORT);
  // rules an earlier, interrupted run left behind
  await withStore((db) => db.deleteFrom('alert_rules').execute());
  await signIn(page, addUser('admin'));
  await checkPage(page, '/settings', 'Settings');
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Add alert' }) });
  await form.getByLabel('Kind').selectOption('acceptance');
  await form.getByLabel('Acceptance under (%)').fill('150');
  await form.getByLabel(/Over the last/).fill('1');
  await form.getByRole('button', { name: 'Add alert' }).click();
  await expect(page.getByRole('alert')).toHaveText('The acceptance threshold is a whole percentage from 1 to 100.');
  await form.getByLabel('Kind').selectOption('acceptance');
  await form.getByLabel('Acceptance under (%)').fill('50');
  await form.getByLabel(/Over the last/).fill('1');
  await form.getByRole('button', { name: 'Add alert' }).click();
  await expect(page.getByRole('status')).toHaveText('Alert added.');
  await expect(page.getByText('any buyer accepting under 50 % of leads offered over the last 1 h')).toBeVisible();
  await expect(page.getByTestId('webhook')).toContainText(`sent, signed, to 127.0.0.1:${E2E_ALERT_PORT}`);

  // The buyer refuses 5 of 6 leads offered to it now.
  await withStore(async (db) => {
    const events: NewEvent[] = [];
    for (const outcome of ['bid', 'no-bid', 'no-bid', 'no-bid', 'no-bid', 'no-bid'] as const) {
      const lead = await insertLead(db, leadRow(), []);
      events.push({ lead_id: lead.id, buyer_id: buyer, step: 'ping', outcome, latency_ms: 90, at: new Date().toISOString() });
    }
    await addEvents(db, events);
  });
  const message = `Buyer ${buyer} accepted 1 of 6 leads (17 %) over the last 1 h, under 50 %.`;
  await expect
    .poll(() => hook!.received.map((r) => JSON.parse(r.body) as { text: string }).find((b) => b.text.includes(buyer))?.text, { timeout: 30_000 })
    .toBe(`:rotating_light: ${message}`);
  const sent = hook!.received.find((r) => r.body.includes(buyer))!;
  expect(sent.headers['x-loansites-signature']).toBe(`sha256=${createHmac('sha256', E2E_ALERT_SECRET).update(sent.body).digest('hex')}`);
  expect(JSON.parse(sent.body)).toMatchObject({ alert: { state: 'open', kind: 'acceptance', subject: `${buyer} acceptance` } });

  await checkPage(page, '/', 'Overview');
  await expect(page.getByRole('region', { name: 'Alerts' })).toContainText(message);

  // Removed: audited, and no longer listed.
  await page.goto(`${CONSOLE}/settings`);
  await page.getByRole('button', { name: 'Remove the alert: any buyer accepting under 50 % of leads offered over the last 1 h' }).first().click();
  await expect(page.getByRole('status')).toHaveText('Alert removed.');
  await checkPage(page, '/audit', 'Audit log');
  await expect(page.getByRole('table').first()).toContainText('alert_rule_removed');
});

test('an analyst has no Settings page, and a post of theirs is refused', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, addUser('analyst'));
  await checkPage(page, '/settings', 'Not for your role', 403);
  await expect(page.getByRole('navigation')).not.toContainText('Settings');
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await raw('POST', '/api/console/settings', CONSOLE_HOST, 'op=rate&currency=CAD&rate=9&csrf=x', {
    cookie,
    'content-type': 'application/x-www-form-urlencoded',
    'sec-fetch-site': 'same-origin',
    origin: CONSOLE,
  });
  expect(res.status).toBe(403);
});
