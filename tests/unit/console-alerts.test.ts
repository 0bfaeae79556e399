/**
 * Alerts: the rules as table tests (what an admin may set, when a cap or an acceptance alert
 * fires), then on SQLite and PostgreSQL a buyer at 90 % and 100 % of its daily cap and a buyer
 * accepting too little over the look-back window, each alert opened once and resolved once, and
 * the webhook messages sent signed to a local receiver, retried after a 503 through the outbox's
 * back-off, and shown on the overview while open.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { acceptanceLow, capLevels, ruleOf, ruleText } from '../../engine/console/alertRules';
import { addAlertRule, deliverAlerts, evaluateAlerts, openAlerts, removeAlertRule } from '../../engine/console/alerts';
import { insertLead } from '../../engine/store/leads';
import { addEvents, type NewEvent } from '../../engine/store/sales';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

describe('alert rules', () => {
  const buyers = new Set(['acme']);
  it.each([
    [
      { kind: 'cap', buyer: 'acme' },
      { ok: true, rule: { kind: 'cap', subject: 'acme', threshold: 0, windowHours: 0, unit: '', windowMinutes: 0, minimum: 0 } },
    ],
    [
      { kind: 'acceptance', buyer: '', threshold: '40', window: '6' },
      { ok: true, rule: { kind: 'acceptance', subject: '', threshold: 40, windowHours: 6, unit: '', windowMinutes: 0, minimum: 0 } },
    ],
    [{ kind: 'weather' }, { ok: false, problem: 'The kind must be one of cap, acceptance, failures, no-sale, lead-rate.' }],
    [
      { kind: 'cap', buyer: 'nobody' },
      { ok: false, problem: 'Choose a buyer from the list, or every buyer.' },
    ],
    [
      { kind: 'acceptance', threshold: '0', window: '6' },
      { ok: false, problem: 'The acceptance threshold is a whole percentage from 1 to 100.' },
    ],
    [
      { kind: 'acceptance', threshold: '50%', window: '6' },
      { ok: false, problem: 'The acceptance threshold is a whole percentage from 1 to 100.' },
    ],
    [
      { kind: 'acceptance', threshold: '50', window: '169' },
      { ok: false, problem: 'The look-back window is a whole number of hours from 1 to 168.' },
    ],
  ])('%j → %j', (form, want) => {
    expect(ruleOf(form, buyers)).toEqual(want);
  });
  it.each([
    [0, 10, []],
    [8, 10, []],
    [9, 10, [90]],
    [10, 10, [90, 100]],
    [12, 10, [90, 100]],
    [5, undefined, []],
  ])('%d sold of a cap of %s reaches %j', (sold, cap, levels) => {
    expect(capLevels(sold, cap)).toEqual(levels);
  });
  it.each([
    [10, 3, 40, true],
    [10, 4, 40, false],
    [4, 0, 40, false], // too few offers to say
  ])('%d offered, %d accepted, under %d %%: %s', (offered, accepted, pct, low) => {
    expect(acceptanceLow(offered, accepted, pct)).toBe(low);
  });
  it('reads as an operator would say it', () => {
    expect(ruleText({ kind: 'acceptance', subject: 'acme', threshold: 40, windowHours: 6 })).toBe(
      'buyer acme accepting under 40 % of leads offered over the last 6 h',
    );
    expect(ruleText({ kind: 'cap', subject: '', threshold: 0, windowHours: 0 })).toBe('any buyer at 90 % and 100 % of a daily or monthly cap');
  });
});

const stores = bothStores('loansites-alerts-');
let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await startWebhookReceiver();
});
afterAll(() => hook.close());

const ACME = { id: 'acme', caps: { perDay: 10 } } as unknown as Buyer;
const BETA = { id: 'beta' } as unknown as Buyer;
const NOW = new Date('2026-11-20T15:00:00.000Z');
const SECRET = 'webhook-secret';

describe.each(stores.kinds('alerts.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('opens a cap alert at 90 % and at 100 % once each, resolves them when the day turns, and sends each to the webhook signed', async () => {
    const rule = await addAlertRule(db(), { kind: 'cap', subject: 'acme', threshold: 0, windowHours: 0 }, 'admin@example.com');
    const sell = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const lead = await insertLead(db(), leadRow({ created_at: NOW.toISOString() }), []);
        await db()
          .insertInto('lead_sales')
          .values({
            lead_id: lead.id,
            status: 'sold',
            duplicate: 0,
            buyer_id: 'acme',
            price_cents: 100,
            buyer_day: '2026-11-20',
            buyer_month: '2026-11',
            runs: 1,
            created_at: NOW.toISOString(),
            decided_at: NOW.toISOString(),
          })
          .execute();
      }
    };
    await sell(8);
    expect(await evaluateAlerts(db(), [ACME, BETA], NOW)).toEqual({ opened: 0, resolved: 0 });
    await sell(1);
    expect(await evaluateAlerts(db(), [ACME, BETA], NOW)).toEqual({ opened: 1, resolved: 0 });
    // checked again (another instance, a minute later): nothing new is sent
    expect(await evaluateAlerts(db(), [ACME, BETA], NOW)).toEqual({ opened: 0, resolved: 0 });
    await sell(1);
    expect(await evaluateAlerts(db(), [ACME, BETA], NOW)).toEqual({ opened: 1, resolved: 0 });
    expect((await openAlerts(db())).map((a) => a.message).sort()).toEqual([
      'Buyer acme is at 100 % of its daily cap: 10 of 10 sold (2026-11-20).',
      'Buyer acme is at 90 % of its daily cap: 9 of 10 sold (2026-11-20).',
    ]);
    // the next day (UTC: the buyer has no schedule zone) the cap is fresh
    const tomorrow = new Date('2026-11-21T01:00:00.000Z');
    expect(await evaluateAlerts(db(), [ACME, BETA], tomorrow)).toEqual({ opened: 0, resolved: 2 });
    expect(await openAlerts(db())).toEqual([]);

    hook.received.length = 0;
    hook.answers.push(503);
    const h = { url: hook.url, secret: SECRET };
    expect(await deliverAlerts(db(), h, tomorrow)).toBe(3); // the first (503) is retried later
    expect(await deliverAlerts(db(), h, new Date(tomorrow.getTime() + 1000))).toBe(0); // not due yet: back-off
    expect(await deliverAlerts(db(), h, new Date(tomorrow.getTime() + 6000))).toBe(1);
    expect(hook.received).toHaveLength(5);
    const texts = hook.received.slice(1).map((r) => (JSON.parse(r.body) as { text: string }).text);
    expect(texts.filter((t) => t.includes('Resolved'))).toHaveLength(2);
    for (const r of hook.received) expect(r.headers['x-loansites-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(r.body).digest('hex')}`);
    expect(await removeAlertRule(db(), rule, 'admin@example.com')).toBe(true);
    const audited = await db().selectFrom('console_audit').select('action').where('target', '=', rule).orderBy('at').execute();
    expect(audited.map((a) => a.action)).toEqual(['alert_rule_added', 'alert_rule_removed']);
  });

  it('opens an acceptance alert over the look-back window only, and resolves it when the window holds better answers', async () => {
    const rule = await addAlertRule(db(), { kind: 'acceptance', subject: '', threshold: 50, windowHours: 2 }, 'admin@example.com');
    const offers = async (at: Date, outcomes: ('bid' | 'no-bid')[]) => {
      const events: NewEvent[] = [];
      for (const outcome of outcomes) {
        const lead = await insertLead(db(), leadRow({ created_at: at.toISOString() }), []);
        events.push({ lead_id: lead.id, buyer_id: 'beta', step: 'ping', outcome, latency_ms: 100, at: at.toISOString() });
      }
      await addEvents(db(), events);
    };
    // three hours ago beta refused everything: outside a 2-hour window
    await offers(new Date(NOW.getTime() - 3 * 3_600_000), ['no-bid', 'no-bid', 'no-bid', 'no-bid', 'no-bid', 'no-bid']);
    expect(await evaluateAlerts(db(), [ACME, BETA], NOW)).toMatchObject({ opened: 0 });
    // in the last hour: 1 of 5
    await offers(new Date(NOW.getTime() - 3_600_000), ['bid', 'no-bid', 'no-bid', 'no-bid', 'no-bid']);
    expect(await evaluateAlerts(db(), [ACME, BETA], NOW)).toMatchObject({ opened: 1 });
    expect((await openAlerts(db())).map((a) => a.message)).toEqual(['Buyer beta accepted 1 of 5 leads (20 %) over the last 2 h, under 50 %.']);
    // then 5 bids: 6 of 10 in the window
    await offers(new Date(NOW.getTime() - 60_000), ['bid', 'bid', 'bid', 'bid', 'bid']);
    expect(await evaluateAlerts(db(), [ACME, BETA], NOW)).toMatchObject({ opened: 0, resolved: 1 });
    await removeAlertRule(db(), rule, 'admin@example.com');
  });
});
