/**
 * The failures, no-sale and lead-rate alerts, and alerts by e-mail: the rules as table tests (what
 * an admin may set, when each fires, the edges), then on SQLite and PostgreSQL each new kind posted
 * to Settings (refused with its reason, or stored and audited), each rule opened
 * once per episode and resolved once, from the sale's timeline (buyer answers read by the sale's
 * own reader), its decisions and the traffic rollup; and the messages e-mailed to a real local
 * SMTP server beside the webhook, retried after a temporary SMTP refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { failuresHigh, leadRateLow, ruleOf, ruleText, type RuleFields } from '../../engine/console/alertRules';
import { addAlertRule, deliverAlerts, deliverEmails, evaluateAlerts, openAlerts, removeAlertRule } from '../../engine/console/alerts';
import { smtpOf } from '../../engine/console/alertEmail';
import { hashPassword } from '../../engine/console/passwords';
import { settingsRoute } from '../../engine/console/settingsRoutes';
import { addUser } from '../../engine/store/console';
import { overlayBuyer } from '../../engine/sale/buyerRevisions';
import type { Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { addEvents, PING_INTERRUPTED } from '../../engine/store/sales';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { recordedCalls } from '../support/recordedCalls';
import { recordSaleRow } from '../support/saleRecord';
import { consolePost, consoleSignIn } from '../support/consoleForm';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtpReceiver';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

const EMPTY = { threshold: 0, windowHours: 0, unit: '', windowMinutes: 0, minimum: 0 };

describe('the failures, no-sale and lead-rate rules', () => {
  const buyers = new Set(['acme']);
  const brands = new Set(['ipaydayloans']);
  it.each([
    [
      { kind: 'failures', buyer: 'acme', threshold: '20', unit: '%' },
      { ok: true, rule: { ...EMPTY, kind: 'failures', subject: 'acme', threshold: 20, windowHours: 1, unit: '%' } },
    ],
    [
      { kind: 'failures', buyer: '', threshold: '500', unit: 'calls' },
      { ok: true, rule: { ...EMPTY, kind: 'failures', subject: '', threshold: 500, windowHours: 1, unit: 'calls' } },
    ],
    [
      { kind: 'failures', threshold: '101', unit: '%' },
      { ok: false, problem: 'The failure threshold is a whole percentage from 1 to 100, or a whole number of calls from 1 to 10000.' },
    ],
    [
      { kind: 'failures', threshold: '5', unit: 'per hour' },
      { ok: false, problem: 'The failure threshold counts either % of calls or calls.' },
    ],
    [
      { kind: 'failures', buyer: 'nobody', threshold: '5', unit: 'calls' },
      { ok: false, problem: 'Choose a buyer from the list, or every buyer.' },
    ],
    [
      { kind: 'no-sale', minutes: '30' },
      { ok: true, rule: { ...EMPTY, kind: 'no-sale', subject: '', windowMinutes: 30 } },
    ],
    [
      { kind: 'no-sale', minutes: '1441' },
      { ok: false, problem: 'The quiet time is a whole number of minutes from 1 to 1440.' },
    ],
    [
      { kind: 'no-sale', minutes: '-5' },
      { ok: false, problem: 'The quiet time is a whole number of minutes from 1 to 1440.' },
    ],
    [
      { kind: 'lead-rate', brand: 'ipaydayloans', threshold: '50', window: '3', minimum: '200' },
      { ok: true, rule: { ...EMPTY, kind: 'lead-rate', subject: 'ipaydayloans', threshold: 50, windowHours: 3, minimum: 200 } },
    ],
    [
      { kind: 'lead-rate', brand: 'elsewhere', threshold: '50', window: '3', minimum: '200' },
      { ok: false, problem: 'Choose a brand from the list, or every brand.' },
    ],
    [
      { kind: 'lead-rate', threshold: '0', window: '3', minimum: '200' },
      { ok: false, problem: "The lead-rate threshold is a whole percentage of last week's rate from 1 to 100." },
    ],
    [
      { kind: 'lead-rate', threshold: '50', window: '200', minimum: '200' },
      { ok: false, problem: 'The look-back window is a whole number of hours from 1 to 168.' },
    ],
    [
      { kind: 'lead-rate', threshold: '50', window: '3', minimum: '' },
      { ok: false, problem: 'The least number of visits is a whole number from 1 to 100000.' },
    ],
  ])('%j → %j', (form, want) => {
    expect(ruleOf(form, buyers, brands)).toEqual(want);
  });
  it.each([
    [10, 2, 20, '%', true],
    [10, 1, 20, '%', false],
    [4, 4, 20, '%', false], // too few calls to say
    [2, 2, 2, 'calls', true], // a count needs no minimum
    [100, 1, 2, 'calls', false],
  ])('%d calls, %d failed, at or over %d %s: %s', (calls, failed, threshold, unit, high) => {
    expect(failuresHigh(calls, failed, threshold, unit)).toBe(high);
  });
  it.each([
    [{ visits: 300, leads: 12 }, { visits: 300, leads: 30 }, 50, 100, true], // 4 % against half of 10 %
    [{ visits: 300, leads: 15 }, { visits: 300, leads: 30 }, 50, 100, false], // exactly half is not under it
    [{ visits: 99, leads: 0 }, { visits: 300, leads: 30 }, 50, 100, false], // a quiet window now
    [{ visits: 300, leads: 0 }, { visits: 99, leads: 30 }, 50, 100, false], // a quiet window last week
    [{ visits: 300, leads: 0 }, { visits: 300, leads: 0 }, 50, 100, false], // nothing to fall from
  ])('recent %j, last week %j, under %d percent of it with at least %d visits: %s', (recent, lastWeek, pct, minimum, low) => {
    expect(leadRateLow(recent, lastWeek, pct, minimum)).toBe(low);
  });
  it('reads as an operator would say it', () => {
    const text = (r: Partial<RuleFields> & Pick<RuleFields, 'kind'>) => ruleText({ ...EMPTY, subject: '', ...r });
    expect(text({ kind: 'failures', subject: 'acme', threshold: 20, unit: '%' })).toBe(
      'buyer acme failing or timing out on 20 % or more of its pings and posts in the last hour',
    );
    expect(text({ kind: 'failures', threshold: 5, unit: 'calls' })).toBe('any buyer with 5 or more failed or timed-out pings and posts in the last hour');
    expect(text({ kind: 'no-sale', windowMinutes: 30 })).toBe('no sale for 30 min while buyers are scheduled');
    expect(text({ kind: 'lead-rate', threshold: 50, windowHours: 3, minimum: 200 })).toBe(
      'any brand turning visits into leads at under 50 % of its rate in the same 3 h last week (at least 200 visits)',
    );
  });
  it('reads SMTP settings only when all three are set', () => {
    expect(smtpOf({ ALERT_SMTP_URL: 'smtp://u:p@mail:25', ALERT_EMAIL_FROM: 'a@x.org', ALERT_EMAIL_TO: 'b@x.org, c@x.org' })).toEqual({
      url: 'smtp://u:p@mail:25',
      from: 'a@x.org',
      to: ['b@x.org', 'c@x.org'],
    });
    expect(smtpOf({ ALERT_SMTP_URL: 'smtp://mail:25', ALERT_EMAIL_FROM: 'a@x.org' })).toBeUndefined();
  });
});

const stores = bothStores('loansites-alerts-more-');
let hook: WebhookReceiver;
let smtp: SmtpReceiver;
beforeAll(async () => {
  hook = await startWebhookReceiver();
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await hook.close();
  await smtp.close();
});

const ADMIN = 'admin@example.com';
const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);

async function sellAt(db: Store, at: Date): Promise<void> {
  const lead = await insertLead(db, leadRow({ created_at: at.toISOString() }), []);
  await recordSaleRow(db, { leadId: lead.id, buyer: 'acme', priceCents: 100, at });
}

describe.each(stores.kinds('alerts-more.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);
  // each test starts without the rules and episodes of one that failed before removing its own
  beforeEach(async () => {
    await db().deleteFrom('alert_rules').execute();
    await db().deleteFrom('alert_episodes').execute();
  });

  it('an admin adds each new kind on Settings: a wrong field comes back with its reason, a right one is stored and audited as it reads', async () => {
    await addUser(db(), { email: 'boss@example.com', role: 'admin', passwordHash: await hashPassword('boss passphrase 1', { N: 2 ** 12, r: 8, p: 1 }) });
    const boss = (await consoleSignIn(db(), 'boss@example.com', 'boss passphrase 1'))!;
    const post = async (fields: Record<string, string>) =>
      (await settingsRoute(db(), consolePost({ csrf: boss.csrf, op: 'alert-add', ...fields }, { cookie: boss.cookie }))).headers?.Location;
    expect(await post({ kind: 'failures', threshold: '0', unit: 'calls' })).toBe('/settings?note=alert_failures');
    expect(await post({ kind: 'failures', threshold: '10', unit: 'per day' })).toBe('/settings?note=alert_unit');
    expect(await post({ kind: 'no-sale', minutes: '1 hour' })).toBe('/settings?note=alert_minutes');
    expect(await post({ kind: 'lead-rate', brand: 'no-such-brand', threshold: '50', window: '3', minimum: '100' })).toBe('/settings?note=alert_brand');
    expect(await post({ kind: 'lead-rate', brand: 'ipaydayloans', threshold: '50', window: '3', minimum: '0' })).toBe('/settings?note=alert_minimum');
    expect(await db().selectFrom('alert_rules').select('id').execute()).toEqual([]);
    expect(await post({ kind: 'failures', buyer: '', threshold: '25', unit: '%' })).toBe('/settings?note=alert_added');
    expect(await post({ kind: 'no-sale', minutes: '45' })).toBe('/settings?note=alert_added');
    expect(await post({ kind: 'lead-rate', brand: 'ipaydayloans', threshold: '50', window: '3', minimum: '100' })).toBe('/settings?note=alert_added');
    const audited = await db().selectFrom('console_audit').select(['actor', 'detail']).where('action', '=', 'alert_rule_added').orderBy('at').execute();
    // sorted: the three may share a millisecond
    expect(audited.map((a) => [a.actor, (JSON.parse(a.detail) as { text: string }).text]).sort()).toEqual([
      ['boss@example.com', 'any buyer failing or timing out on 25 % or more of its pings and posts in the last hour'],
      ['boss@example.com', 'brand ipaydayloans turning visits into leads at under 50 % of its rate in the same 3 h last week (at least 100 visits)'],
      ['boss@example.com', 'no sale for 45 min while buyers are scheduled'],
    ]);
  });

  it("opens a failure alert when a buyer's failed or timed-out calls in the last hour reach the threshold, not for its plain refusals, and resolves it an hour on", async () => {
    const NOW = new Date('2026-11-10T15:00:00.000Z');
    const rule = await addAlertRule(db(), { kind: 'failures', subject: 'acme', threshold: 30, windowHours: 1, unit: '%' }, ADMIN);
    const acme = { id: 'acme', redirectHosts: ['acme.example'] } as unknown as Buyer;
    const lead = await insertLead(db(), leadRow({ created_at: NOW.toISOString() }), []);
    // Each answer read by the sale's own reader, and recorded as the sale records it.
    const { ping, post } = recordedCalls(lead.id, acme);
    const noBid = { status: 200, text: '{"bid":false,"reason":"not in our area"}' };
    const bid = { status: 200, text: '{"bid":true,"price":12}' };
    const recent = minutes(NOW, -30);
    // 61 minutes ago: timeouts outside the hour
    await addEvents(db(), [ping({ error: 'no answer within 1000 ms' }, minutes(NOW, -61)), ping({ error: 'no answer within 1000 ms' }, minutes(NOW, -61))]);
    // in the hour: 2 failures of 10 calls (a timeout, a 503), the rest bids and plain refusals
    await addEvents(db(), [
      ping({ error: 'no answer within 1000 ms' }, recent),
      ping({ status: 503, text: '' }, recent),
      ping(noBid, recent),
      ping(noBid, recent),
      ping(noBid, recent),
      ping(bid, recent),
      ping(bid, recent),
      post({ status: 200, text: '{"accepted":false,"reason":"duplicate"}' }, recent),
      post({ status: 200, text: '{"accepted":false}' }, recent),
      post({ status: 200, text: '{"accepted":true,"redirectUrl":"https://acme.example/go"}' }, recent),
    ]);
    expect(await evaluateAlerts(db(), [acme], NOW)).toEqual({ opened: 0, resolved: 0 });
    // a third: an answer that is not JSON
    await addEvents(db(), [ping({ status: 200, text: '<html>' }, recent)]);
    expect(await evaluateAlerts(db(), [acme], NOW)).toEqual({ opened: 0, resolved: 0 }); // 3 of 11 = 27 %
    // pings whose answers their interrupted sale never recorded say nothing of the buyer: not calls
    const interrupted = (pingId: string) =>
      ({
        lead_id: lead.id,
        buyer_id: acme.id,
        step: 'ping',
        outcome: 'interrupted',
        at: recent.toISOString(),
        detail: `${PING_INTERRUPTED} (${pingId})`,
      }) as const;
    await addEvents(db(), [interrupted('pg_2'), interrupted('pg_3')]);
    // a fourth: a post whose connection broke before an answer
    await addEvents(db(), [post({ error: 'socket hang up' }, recent)]);
    expect(await evaluateAlerts(db(), [acme], NOW)).toEqual({ opened: 1, resolved: 0 }); // 4 of 12
    expect(await evaluateAlerts(db(), [acme], minutes(NOW, 1))).toEqual({ opened: 0, resolved: 0 });
    expect((await openAlerts(db())).map((a) => a.message)).toEqual([
      'Buyer acme: 4 of 12 pings and posts failed in the last hour (33.3 %, 1 timed out), at or over 30 %.',
    ]);
    // 31 minutes on, the calls are over an hour old
    expect(await evaluateAlerts(db(), [acme], minutes(NOW, 31))).toEqual({ opened: 0, resolved: 1 });
    expect(await openAlerts(db())).toEqual([]);
    await removeAlertRule(db(), rule, ADMIN);
  });

  it('opens a no-sale alert only after the quiet time passed with buyers scheduled through all of it, once, and resolves it on the next sale', async () => {
    const rule = await addAlertRule(db(), { kind: 'no-sale', subject: '', threshold: 0, windowHours: 0, windowMinutes: 30 }, ADMIN);
    const day = { id: 'day', schedule: { from: '09:00', to: '17:00', timeZone: 'UTC' } } as unknown as Buyer;
    // enabled in its file, paused in the console (a revision over the file, as the alert worker's live buyers apply it)
    const paused = overlayBuyer({ id: 'paused', enabled: true } as unknown as Buyer, { enabled: false });
    const OPEN = new Date('2026-11-11T09:00:00.000Z');
    await sellAt(db(), minutes(OPEN, -120));
    // the buyer opened at 09:00: at 09:29:59 it has not been scheduled for 30 minutes
    expect(await evaluateAlerts(db(), [day, paused], new Date(minutes(OPEN, 30).getTime() - 1000))).toEqual({ opened: 0, resolved: 0 });
    // a buyer paused in the console is not scheduled, however long the quiet
    expect(await evaluateAlerts(db(), [paused], minutes(OPEN, 60))).toEqual({ opened: 0, resolved: 0 });
    expect(await evaluateAlerts(db(), [day, paused], minutes(OPEN, 30))).toEqual({ opened: 1, resolved: 0 });
    expect(await evaluateAlerts(db(), [day, paused], minutes(OPEN, 31))).toEqual({ opened: 0, resolved: 0 });
    expect((await openAlerts(db())).map((a) => a.message)).toEqual([
      'No sale for 30 min while buyers are scheduled (day); the last sale was at 2026-11-11T07:00:00.000Z.',
    ]);
    await sellAt(db(), minutes(OPEN, 32));
    expect(await evaluateAlerts(db(), [day, paused], minutes(OPEN, 33))).toEqual({ opened: 0, resolved: 1 });
    // the edge of the window: a sale exactly 30 minutes ago still counts, one a second older does not
    expect(await evaluateAlerts(db(), [day], minutes(OPEN, 62))).toEqual({ opened: 0, resolved: 0 });
    expect(await evaluateAlerts(db(), [day], new Date(minutes(OPEN, 62).getTime() + 1000))).toEqual({ opened: 1, resolved: 0 });
    // the schedule closes at 17:00: no buyer, no alert
    expect(await evaluateAlerts(db(), [day], new Date('2026-11-11T17:00:00.000Z'))).toEqual({ opened: 0, resolved: 1 });
    await removeAlertRule(db(), rule, ADMIN);
  });

  it("opens a lead-rate alert when a brand's last whole hours convert under a share of the same hours last week, not in quiet hours, and resolves it", async () => {
    const NOW = new Date('2026-11-20T15:20:00.000Z');
    const rule = await addAlertRule(db(), { kind: 'lead-rate', subject: 'ipaydayloans', threshold: 50, windowHours: 3, minimum: 100 }, ADMIN);
    const quiet = await addAlertRule(db(), { kind: 'lead-rate', subject: '', threshold: 50, windowHours: 3, minimum: 1000 }, ADMIN);
    const roll = (hour: string, metric: string, count: number, brand = 'ipaydayloans', device = 'mobile') =>
      db().insertInto('traffic_hourly').values({ hour, brand, campaign: '', source: '', landing: '/', device, state: '', metric, count, value: 0 }).execute();
    // last week, 12:00 to 15:00: 300 visits, 30 leads (10 %)
    for (const h of ['12', '13', '14']) {
      await roll(`2026-11-13T${h}`, 'visit', 100);
      await roll(`2026-11-13T${h}`, 'stored', 10);
    }
    // now: 300 visits, 15 leads (5 %: half, not under it); the current hour and the one before the window do not count
    for (const h of ['12', '13', '14']) {
      await roll(`2026-11-20T${h}`, 'visit', 100);
      await roll(`2026-11-20T${h}`, 'stored', 5);
    }
    await roll('2026-11-20T11', 'visit', 1000);
    await roll('2026-11-20T15', 'visit', 1000);
    expect(await evaluateAlerts(db(), [], NOW)).toEqual({ opened: 0, resolved: 0 });
    // another visit in the window: 15 of 301 is under 5 %
    await roll('2026-11-20T14', 'visit', 1, 'ipaydayloans', 'desktop');
    await roll('2026-11-20T14', 'visit', 1, 'elsewhere'); // a brand the rule does not watch
    expect(await evaluateAlerts(db(), [], NOW)).toEqual({ opened: 1, resolved: 0 });
    expect(await evaluateAlerts(db(), [], minutes(NOW, 10))).toEqual({ opened: 0, resolved: 0 });
    expect((await openAlerts(db())).map((a) => a.message)).toEqual([
      'Brand ipaydayloans turned 5 % of visits into leads over the last 3 h (15 of 301), under 50 % of its 10 % in the same hours last week (30 of 300).',
    ]);
    await roll('2026-11-20T14', 'stored', 1, 'ipaydayloans', 'desktop');
    expect(await evaluateAlerts(db(), [], NOW)).toEqual({ opened: 0, resolved: 1 });
    await removeAlertRule(db(), rule, ADMIN);
    await removeAlertRule(db(), quiet, ADMIN);
  });

  it('e-mails each alert as it opens and resolves, beside the webhook, retrying after a temporary SMTP refusal', async () => {
    await db().deleteFrom('alert_deliveries').execute();
    const rule = await addAlertRule(db(), { kind: 'no-sale', subject: '', threshold: 0, windowHours: 0, windowMinutes: 10 }, ADMIN);
    const always = { id: 'always' } as unknown as Buyer;
    const NOW = new Date('2026-11-12T03:00:00.000Z');
    expect(await evaluateAlerts(db(), [always], NOW, { email: true })).toEqual({ opened: 1, resolved: 0 });
    await sellAt(db(), minutes(NOW, 1));
    expect(await evaluateAlerts(db(), [always], minutes(NOW, 2), { email: true })).toEqual({ opened: 0, resolved: 1 });

    const mail = { url: smtp.url('alerts', 's3cret pass'), from: 'alerts@loansites.example', to: ['ops@loansites.example', 'oncall@loansites.example'] };
    smtp.received.length = 0;
    smtp.answers.push(451);
    const at = minutes(NOW, 2);
    expect(await deliverEmails(db(), mail, at)).toBe(1); // the first was refused for now
    expect(await deliverEmails(db(), mail, new Date(at.getTime() + 1000))).toBe(0); // not due yet: back-off
    // due again at the back-off (5 s) counted from the end of the refused send, which on a loaded
    // machine (the mail library's first load) ends well after `at`: read from the row, not assumed
    const retry = await db()
      .selectFrom('alert_deliveries')
      .select('next_attempt_at')
      .where('channel', '=', 'email')
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(Date.parse(retry.next_attempt_at) - at.getTime()).toBeGreaterThanOrEqual(5000);
    expect(await deliverEmails(db(), mail, new Date(retry.next_attempt_at))).toBe(1);
    expect(smtp.received).toHaveLength(2);
    for (const m of smtp.received) {
      expect(m).toMatchObject({ from: 'alerts@loansites.example', to: ['ops@loansites.example', 'oncall@loansites.example'], user: 'alerts' });
    }
    const subjects = smtp.received.map((m) => m.subject).sort();
    expect(subjects[0]).toMatch(/^\[Alert\] No sale for 10 min while buyers are scheduled \(always\)/);
    expect(subjects[1]).toMatch(/^\[Resolved\] Resolved: No sale for 10 min/);
    // the webhook has its own copies, untouched by the e-mail's retries
    hook.received.length = 0;
    expect(await deliverAlerts(db(), { url: hook.url, secret: 'x' }, at)).toBe(2);
    expect(hook.received.map((r) => (JSON.parse(r.body) as { alert: { state: string } }).alert.state)).toEqual(['open', 'resolved']);
    await removeAlertRule(db(), rule, ADMIN);
  });

  it('a webhook message the receiver took in time while this process was busy is delivered once, not sent again', async () => {
    await db().deleteFrom('alert_deliveries').execute();
    const rule = await addAlertRule(db(), { kind: 'no-sale', subject: '', threshold: 0, windowHours: 0, windowMinutes: 10 }, ADMIN);
    const NOW = new Date('2026-11-13T03:00:00.000Z');
    expect(await evaluateAlerts(db(), [{ id: 'always' } as unknown as Buyer], NOW)).toEqual({ opened: 1, resolved: 0 });
    hook.received.length = 0;
    const sending = deliverAlerts(db(), { url: hook.url, secret: 'x', timeoutMs: 800 }, NOW);
    // the receiver has the message and has answered 200; the answer is not read yet
    while (hook.received.length === 0) await new Promise((r) => setImmediate(r));
    const until = Date.now() + 1_500;
    while (Date.now() < until); // the event loop is held past the webhook's 800 ms
    expect(await sending).toBe(1);
    expect(await deliverAlerts(db(), { url: hook.url, secret: 'x', timeoutMs: 800 }, minutes(NOW, 120))).toBe(0);
    expect(hook.received).toHaveLength(1);
    await removeAlertRule(db(), rule, ADMIN);
  });
});
