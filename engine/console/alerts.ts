/**
 * Alerts: rules an admin sets on the Settings page (engine/console/alertRules.ts says when each
 * fires), checked every ALERT_CHECK_MS (default a minute) by every instance, shown on the overview
 * while open, and sent to ALERT_WEBHOOK_URL as Slack-compatible JSON ({"text": …} plus the alert's
 * fields), signed like every message this server sends (X-Loansites-Signature: sha256=HMAC of the
 * body with ALERT_WEBHOOK_SECRET) — and, when an SMTP server is configured (./alertEmail.ts),
 * e-mailed too.
 *
 * - An alert is sent once when it opens and once when it resolves: opening and resolving are
 *   conditional writes of the rule's row for that subject, which one instance wins.
 * - Messages are stored first, one row per channel, and delivered by the same rules as the lead
 *   outbox (2xx delivered; 408, 429, 5xx and no answer retried with its back-off; any other 4xx
 *   refused; for e-mail a 5xx SMTP reply is the refusal), from their own table: the outbox's rows
 *   belong to a lead, an alert does not. A redirect is not followed: it is retried, with why.
 */
import { randomBytes } from 'node:crypto';
import type { Buyer } from '../../schemas/buyer.types';
import type { Store } from '../store/db';
import { audit } from '../store/console';
import { capCounts } from './buyerCaps';
import { localTime } from '../sale/schedule';
import { signature } from '../sale/wire';
import { deadline } from '../process/deadline';
import { answerKind, backoffMs, MAX_ATTEMPTS } from '../outbox/deliver';
import { onShutdown } from '../process/shutdown.mjs';
import { acceptanceLow, capLevels, ruleText, type AlertKind, type AlertRule, type RuleFields } from './alertRules';
import { failuresFound, leadRateFound, noSaleFound } from './alertQueries';
import { sendEmail, smtpOf, type Sent, type Smtp } from './alertEmail';

export interface OpenAlert {
  ruleId: string;
  subject: string;
  message: string;
  openedAt: string;
}

export async function openAlerts(db: Store): Promise<OpenAlert[]> {
  const rows = await db.selectFrom('alert_episodes').selectAll().where('state', '=', 'open').orderBy('opened_at', 'desc').limit(50).execute();
  return rows.map((r) => ({ ruleId: r.rule_id, subject: r.subject, message: r.message, openedAt: r.opened_at }));
}

export async function alertRules(db: Store): Promise<AlertRule[]> {
  const rows = await db.selectFrom('alert_rules').selectAll().orderBy('created_at').execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as AlertKind,
    subject: r.subject,
    threshold: Number(r.threshold),
    windowHours: r.window_hours,
    unit: r.unit,
    windowMinutes: Number(r.window_minutes),
    minimum: Number(r.minimum),
  }));
}

export async function addAlertRule(
  db: Store,
  rule: Pick<AlertRule, 'kind' | 'subject' | 'threshold' | 'windowHours'> & Partial<RuleFields>,
  actor: string,
): Promise<string> {
  const id = `al${randomBytes(8).toString('hex')}`;
  await db
    .insertInto('alert_rules')
    .values({
      id,
      kind: rule.kind,
      subject: rule.subject,
      threshold: rule.threshold,
      window_hours: rule.windowHours,
      unit: rule.unit ?? '',
      window_minutes: rule.windowMinutes ?? 0,
      minimum: rule.minimum ?? 0,
      created_by: actor,
      created_at: new Date().toISOString(),
    })
    .execute();
  await audit(db, { actor, action: 'alert_rule_added', target: id, detail: { ...rule, text: ruleText(rule) } });
  return id;
}

export async function removeAlertRule(db: Store, id: string, actor: string): Promise<boolean> {
  const r = await db.deleteFrom('alert_rules').where('id', '=', id).executeTakeFirst();
  if (!Number(r.numDeletedRows)) return false;
  await db.deleteFrom('alert_episodes').where('rule_id', '=', id).execute();
  await audit(db, { actor, action: 'alert_rule_removed', target: id });
  return true;
}

/** What a rule finds now: subject → message, for each subject in alert. */
async function firing(db: Store, rule: AlertRule, buyers: readonly Buyer[], now: Date): Promise<Map<string, string>> {
  if (rule.kind === 'failures') return failuresFound(db, rule, now);
  if (rule.kind === 'no-sale') return noSaleFound(db, rule, buyers, now);
  if (rule.kind === 'lead-rate') return leadRateFound(db, rule, now);
  const out = new Map<string, string>();
  const watched = buyers.filter((b) => !rule.subject || b.id === rule.subject);
  if (rule.kind === 'cap') {
    for (const b of watched) {
      if (b.caps?.perDay === undefined && b.caps?.perMonth === undefined) continue;
      const t = localTime(now, b.schedule?.timeZone);
      const sold = await capCounts(db, b, t.day, t.month);
      for (const [period, used, cap, when] of [
        ['day', sold.day, b.caps.perDay, t.day],
        ['month', sold.month, b.caps.perMonth, t.month],
      ] as const)
        for (const level of capLevels(used, cap))
          out.set(
            `${b.id} ${period} ${level}%`,
            `Buyer ${b.id} is at ${level} % of its ${period === 'day' ? 'daily' : 'monthly'} cap: ${used} of ${cap} ${b.mode === 'deliver' ? 'queued' : 'sold'} (${when}).`,
          );
    }
    return out;
  }
  const since = new Date(now.getTime() - rule.windowHours * 3_600_000).toISOString();
  let q = db
    .selectFrom('sale_events as m')
    .where('m.at', '>=', since)
    .where('m.at', '<', now.toISOString())
    .where('m.step', 'in', ['ping', 'post'])
    // offers the buyer answered: not a call still out, nor one whose answer our interrupted sale never recorded
    .where('m.outcome', 'not in', ['sending', 'interrupted']);
  if (rule.subject) q = q.where('m.buyer_id', '=', rule.subject);
  const rows = await q
    .select((eb) => [
      eb.ref('m.buyer_id').as('buyer'),
      eb.fn.count<number | string>('m.lead_id').distinct().as('offered'),
      eb.fn
        .count<number | string>(eb.case().when('m.outcome', 'in', ['bid', 'accepted']).then(eb.ref('m.lead_id')).end())
        .distinct()
        .as('accepted'),
    ])
    .groupBy('m.buyer_id')
    .execute();
  for (const r of rows) {
    const offered = Number(r.offered);
    const accepted = Number(r.accepted);
    if (acceptanceLow(offered, accepted, rule.threshold))
      out.set(
        `${r.buyer} acceptance`,
        `Buyer ${r.buyer} accepted ${accepted} of ${offered} leads (${Math.round((accepted * 100) / offered)} %) over the last ${rule.windowHours} h, under ${rule.threshold} %.`,
      );
  }
  return out;
}

export type Channel = 'webhook' | 'email';

async function enqueue(db: Store, body: object, now: Date, channels: readonly Channel[]): Promise<void> {
  await db
    .insertInto('alert_deliveries')
    .values(
      channels.map((channel) => ({
        id: `ad${randomBytes(10).toString('hex')}`,
        channel,
        body: JSON.stringify(body),
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: now.toISOString(),
        created_at: now.toISOString(),
      })),
    )
    .execute();
}

/**
 * Checks every rule once: opens the episodes that began, resolves those that ended, and queues a
 * webhook message for each (and an e-mail when `email` is set: an SMTP server is configured).
 */
export async function evaluateAlerts(
  db: Store,
  buyers: readonly Buyer[],
  now = new Date(),
  opts: { email?: boolean } = {},
): Promise<{ opened: number; resolved: number }> {
  const channels: Channel[] = opts.email ? ['webhook', 'email'] : ['webhook'];
  let opened = 0;
  let resolved = 0;
  const at = now.toISOString();
  for (const rule of await alertRules(db)) {
    const found = await firing(db, rule, buyers, now);
    const rows = await db.selectFrom('alert_episodes').selectAll().where('rule_id', '=', rule.id).execute();
    const known = new Map(rows.map((r) => [r.subject, r]));
    // Each opening and resolution is written with its messages in one transaction: an episode
    // marked open whose messages were never stored (the store failed between the two) would
    // never be sent, since the next check sees it open already.
    for (const [subject, message] of found) {
      const row = known.get(subject);
      if (row?.state === 'open') continue;
      const won = await db.transaction().execute(async (trx) => {
        const wrote = row
          ? Number(
              (
                await trx
                  .updateTable('alert_episodes')
                  .set({ state: 'open', opened_at: at, resolved_at: null, message })
                  .where('rule_id', '=', rule.id)
                  .where('subject', '=', subject)
                  .where('state', '=', 'resolved')
                  .executeTakeFirst()
              ).numUpdatedRows,
            ) > 0
          : Number(
              (
                await trx
                  .insertInto('alert_episodes')
                  .values({ rule_id: rule.id, subject, state: 'open', opened_at: at, message })
                  .onConflict((oc) => oc.columns(['rule_id', 'subject']).doNothing())
                  .executeTakeFirst()
              ).numInsertedOrUpdatedRows ?? 0,
            ) > 0;
        if (wrote)
          await enqueue(
            trx,
            { text: `:rotating_light: ${message}`, alert: { state: 'open', rule: rule.id, kind: rule.kind, subject, message, at } },
            now,
            channels,
          );
        return wrote;
      });
      if (won) opened += 1;
    }
    for (const row of rows) {
      if (row.state !== 'open' || found.has(row.subject)) continue;
      const won = await db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('alert_episodes')
          .set({ state: 'resolved', resolved_at: at })
          .where('rule_id', '=', rule.id)
          .where('subject', '=', row.subject)
          .where('state', '=', 'open')
          .executeTakeFirst();
        if (!Number(r.numUpdatedRows)) return false;
        const message = `Resolved: ${row.message}`;
        await enqueue(
          trx,
          { text: `:white_check_mark: ${message}`, alert: { state: 'resolved', rule: rule.id, kind: rule.kind, subject: row.subject, message, at } },
          now,
          channels,
        );
        return true;
      });
      if (won) resolved += 1;
    }
  }
  return { opened, resolved };
}

export interface Webhook {
  url: string;
  secret: string;
  timeoutMs?: number;
}

export const webhookOf = (env: Record<string, string | undefined> = process.env): Webhook | undefined =>
  env.ALERT_WEBHOOK_URL && env.ALERT_WEBHOOK_SECRET ? { url: env.ALERT_WEBHOOK_URL, secret: env.ALERT_WEBHOOK_SECRET } : undefined;

const LEASE_MS = 30_000;

/**
 * Sends a channel's due messages once each (claimed by a conditional write, so two instances never
 * send one twice at once), with the outbox's attempts and back-off; the number delivered.
 */
export async function deliverDue(db: Store, channel: Channel, send: (body: string, id: string) => Promise<Sent>, now = new Date()): Promise<number> {
  // The round's clock: `now` moved on by the time the round has taken. Sends are one after another,
  // each up to the webhook's timeout, so a lease or back-off counted from the round's start would
  // already have run out for a later message — and another instance would claim it while it is sent.
  const started = Date.now();
  const clock = () => now.getTime() + (Date.now() - started);
  const due = await db
    .selectFrom('alert_deliveries')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now.toISOString())
    .where('channel', '=', channel)
    .orderBy('created_at')
    .limit(20)
    .execute();
  let sent = 0;
  for (const row of due) {
    const claim = await db
      .updateTable('alert_deliveries')
      .set({ next_attempt_at: new Date(clock() + LEASE_MS).toISOString() })
      .where('id', '=', row.id)
      .where('next_attempt_at', '=', row.next_attempt_at)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!Number(claim.numUpdatedRows)) continue;
    let r: Sent;
    try {
      r = await send(row.body, row.id);
    } catch (err) {
      r = { kind: 'retry', error: err instanceof Error ? err.message.slice(0, 200) : 'no answer' };
    }
    const attempts = row.attempts + 1;
    const status = r.kind === 'delivered' ? 'delivered' : r.kind === 'refused' ? 'refused' : attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
    await db
      .updateTable('alert_deliveries')
      .set({ status, attempts, last_error: r.error ?? null, next_attempt_at: new Date(clock() + backoffMs(attempts)).toISOString() })
      .where('id', '=', row.id)
      .execute();
    if (r.kind === 'delivered') sent += 1;
  }
  return sent;
}

/** Sends the due webhook messages, signed. */
export const deliverAlerts = (db: Store, hook: Webhook, now = new Date()): Promise<number> =>
  deliverDue(
    db,
    'webhook',
    async (body, id) => {
      // see engine/process/deadline.ts: an answer that came in time while this process was busy counts
      const { signal, clear } = deadline(hook.timeoutMs ?? 10_000);
      try {
        // A redirect is not followed: a 301-303 would fetch the new place with GET and no body, whose
        // 200 would count a message nobody received as delivered; a 307/308 would send the signed
        // alert wherever the receiver points. It is retried, with why, until the URL is corrected.
        const res = await fetch(hook.url, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/json', 'X-Loansites-Signature': signature(hook.secret, body), 'Idempotency-Key': id },
          body,
          signal,
        });
        await res.body?.cancel();
        if (res.status >= 300 && res.status < 400)
          return { kind: 'retry', error: `HTTP ${res.status}: the webhook redirects (not followed); set ALERT_WEBHOOK_URL to where it points` };
        const kind = answerKind(res.status);
        return kind === 'delivered' ? { kind } : { kind, error: `HTTP ${res.status}` };
      } finally {
        clear();
      }
    },
    now,
  );

/** Sends the due e-mails through the configured SMTP server. */
export const deliverEmails = (db: Store, smtp: Smtp, now = new Date()): Promise<number> => deliverDue(db, 'email', (body) => sendEmail(smtp, body), now);

const SHARED = Symbol.for('loansites.alertWorker');
const holder = globalThis as typeof globalThis & { [SHARED]?: () => void };

/** Starts this process's alert checks once (every ALERT_CHECK_MS, default a minute); returns its stop function. */
export function ensureAlertWorker(
  store: () => Promise<Store>,
  buyers: () => readonly Buyer[],
  env: Record<string, string | undefined> = process.env,
): () => void {
  if (holder[SHARED]) return holder[SHARED];
  const every = Math.max(200, Number(env.ALERT_CHECK_MS ?? 60_000));
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    store()
      .then(async (db) => {
        const smtp = smtpOf(env);
        await evaluateAlerts(db, buyers(), new Date(), { email: !!smtp });
        const hook = webhookOf(env);
        if (hook) await deliverAlerts(db, hook);
        if (smtp) await deliverEmails(db, smtp);
      })
      .catch((err: Error) => console.error('[alerts] check failed:', err.message))
      .finally(() => (running = false));
  };
  const timer = setInterval(run, every);
  timer.unref();
  const stop = (holder[SHARED] = () => {
    clearInterval(timer);
    holder[SHARED] = undefined;
  });
  onShutdown('alert checks', 'work', stop);
  return stop;
}
