/**
 * The outbox worker: delivers stored leads to their brand's buyers. Each due outbox row is
 * claimed by one worker (engine/store/leads.ts), POSTed as signed JSON, marked delivered on a
 * 2xx, and marked rejected — with the buyer's reason, never retried — on a refusal (a 4xx other
 * than 408 and 429: the buyer does not want this lead, and asking again will not change that).
 * Anything else (5xx, 408, 429, no answer) is retried with back-off (5 s, 10 s, 20 s … at most
 * an hour apart) until it succeeds or MAX_ATTEMPTS have failed; a given-up row stays in the
 * store for an operator. A test lead is never sent to a destination that does not accept test
 * leads (engine/leads/environment.ts).
 *
 * The same rows, claims and retries carry two other kinds of message about a lead: the opt-out
 * notice to the buyer that bought it ("optout:<buyer>", engine/outbox/notices.ts) and the brand's
 * conversion postbacks ("postback:<name>", a GET; engine/sale/postbacks.ts).
 *
 * Delivery is at least once: a worker that dies between the buyer's 2xx and marking the row
 * sends it again after its lease runs out. Every POST carries the lead id as Idempotency-Key
 * and X-Loansites-Lead, so a buyer can drop the repeat; after a recorded 2xx nothing is resent.
 */
import { randomBytes } from 'node:crypto';
import type { Store, StoreKind } from '../store/db';
import { claimDueDeliveries, leadById, markAttemptFailed, markDelivered, markRejected, type ClaimedDelivery, type LeadsTable } from '../store/leads';
import { findDestination, type LeadDestination } from '../leads/destinations';
import { destinationTakes } from '../leads/environment';
import { buyerSecret, deliverBuyerDestination, getBuyers } from '../sale/buyers';
import { isNoticeRow, noticeRequest, type OutboxRequest } from './notices';
import { isPostbackRow, postbackRequest } from './postbacks';
import { isSuppressed, saleOf } from '../store/sales';
import { DELIVER_BUYER, optOutHashes, queueOptOutNotices } from '../sale/optOut';
import { contactKeys } from '../sale/keys';
import { getCatalog } from '../site/catalog';
import type { Postback } from '../../schemas/brand.types';
import { leadPayload, signature } from '../sale/wire';
import { deadline } from '../process/deadline';

export const MAX_ATTEMPTS = 25;
export const LEASE_MS = 60_000;
const BATCH = 20;

/** Delay before attempt n+1 after n failed attempts: 5 s doubling, capped at an hour. */
export const backoffMs = (failedAttempts: number): number => Math.min(5_000 * 2 ** Math.max(0, failedAttempts - 1), 3_600_000);

/** What an HTTP status from a buyer means: 2xx delivered; 408, 429 and 5xx (and anything odd) try again later; any other 4xx is a refusal. */
export function answerKind(status: number): 'delivered' | 'refused' | 'retry' {
  if (status >= 200 && status < 300) return 'delivered';
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return 'refused';
  return 'retry';
}

const REASON_MAX = 200;

/**
 * A buyer's reason, fit to store and show: the message of a JSON body ({message|error|reason|detail})
 * or the text, control characters dropped, whitespace collapsed, at most 200 characters.
 */
export function buyerReason(text: string): string {
  let reason = text;
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === 'object') {
      const o = json as Record<string, unknown>;
      const found = [o.message, o.error, o.reason, o.detail].find((v) => typeof v === 'string' && v.trim());
      if (typeof found === 'string') reason = found;
    }
  } catch {
    // not JSON: the text itself
  }
  const clean = reason
    // eslint-disable-next-line no-control-regex -- dropping control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > REASON_MAX ? `${clean.slice(0, REASON_MAX - 1)}…` : clean;
}

/** At most `max` bytes of a response body (a buyer's error page can be any size), as text. */
async function bodyStart(res: Response, max = 4096): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

type Outcome = { kind: 'delivered' } | { kind: 'refused'; reason: string } | { kind: 'retry'; error: string };

/** The request that delivers a lead to a destination (LEAD_DESTINATIONS entry or deliver buyer). */
function leadRequest(dest: LeadDestination, lead: LeadsTable): OutboxRequest {
  return {
    url: dest.url,
    method: 'POST',
    body: JSON.stringify(leadPayload(lead)),
    secret: dest.secret,
    idempotencyKey: lead.id,
    leadId: lead.id,
    timeoutMs: dest.timeoutMs ?? 10_000,
  };
}

async function send(req: OutboxRequest, fetcher: typeof fetch): Promise<Outcome> {
  // counted in time this process could read the answer: a delivery the receiver took in time must
  // not be sent again because this process was busy when the answer came
  const { signal, clear } = deadline(req.timeoutMs);
  try {
    // A POST's redirect is not followed: a 301-303 would fetch the new place with GET and no body,
    // whose 200 would record a lead (or notice) nobody received as delivered; a 307/308 would send
    // the signed lead wherever the receiver points. It is retried, with why. A postback (GET) may
    // go through a tracker's redirects as a browser's pixel would.
    const post = req.method === 'POST';
    const res = await fetcher(req.url, {
      method: req.method,
      redirect: post ? 'manual' : 'follow',
      headers: {
        ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        'Idempotency-Key': req.idempotencyKey,
        'X-Loansites-Lead': req.leadId,
        ...(req.secret && req.body !== undefined ? { 'X-Loansites-Signature': signature(req.secret, req.body) } : {}),
      },
      ...(req.body !== undefined ? { body: req.body } : {}),
      signal,
    });
    if (post && res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      const location = res.headers.get('location');
      return {
        kind: 'retry',
        error: `HTTP ${res.status} (a redirect, not followed${location !== null ? `: ${buyerReason(location)}` : ''}); set the destination's URL to where it points`,
      };
    }
    const kind = answerKind(res.status);
    if (kind === 'delivered') {
      // the status is the answer: what follows is read no further than a refusal's reason, never into memory whole
      await bodyStart(res).catch(() => undefined);
      return { kind };
    }
    if (kind === 'retry') {
      await res.body?.cancel().catch(() => undefined);
      return { kind, error: `HTTP ${res.status}` };
    }
    const reason = buyerReason(await bodyStart(res).catch(() => ''));
    return { kind, reason: `HTTP ${res.status}${reason ? `: ${reason}` : ''}` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return {
      kind: 'retry',
      error: e.name === 'TimeoutError' ? `no answer within ${req.timeoutMs} ms` : `${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`,
    };
  } finally {
    clear();
  }
}

type PostbackLookup = (brand: string, name: string) => Postback | undefined;
const brandPostback: PostbackLookup = (brand, name) =>
  getCatalog()
    .brands.get(brand)
    ?.brand.postbacks?.find((p) => p.name === name);

/** What one claimed row comes to: a lead delivery, or a notice (engine/outbox/notices.ts). */
async function attempt(db: Store, row: ClaimedDelivery, fetcher: typeof fetch, postbackOf: PostbackLookup): Promise<Outcome> {
  const lead = await leadById(db, row.lead_id);
  if (!lead) return { kind: 'retry', error: 'lead missing' };
  if (isPostbackRow(row.destination)) {
    const req = postbackRequest(row.destination, lead, await saleOf(db, lead.id), postbackOf);
    return 'error' in req ? { kind: 'retry', error: req.error } : send(req, fetcher);
  }
  if (isNoticeRow(row.destination)) {
    const req = await noticeRequest(db, row, lead, { buyerOf: (id) => getBuyers().buyers.get(id)?.buyer, secretOf: (b) => buyerSecret(b) });
    return 'error' in req ? { kind: 'retry', error: req.error } : send(req, fetcher);
  }
  const dest = findDestination(lead.brand, row.destination, deliverBuyerDestination);
  if (!dest) return { kind: 'retry', error: `destination "${row.destination}" is no longer configured for ${lead.brand}` };
  // A lead waits here for minutes or days when its destination is down: the borrower may have
  // opted out since it was queued, and then it goes to nobody.
  if (await optedOut(db, lead)) return { kind: 'refused', reason: 'not sent: the borrower opted out before it went' };
  if (!destinationTakes(dest, lead))
    return { kind: 'refused', reason: `not sent: a ${lead.environment} lead (from ${lead.host || 'a test host'}) and ${dest.name} does not accept test leads` };
  return send(leadRequest(dest, lead), fetcher);
}

export interface DeliveryRound {
  claimed: number;
  delivered: number;
  /** refused by the buyer (or not for this destination): recorded, not retried */
  rejected: number;
  failed: number;
}

const optedOut = (db: Store, lead: LeadsTable): Promise<boolean> => isSuppressed(db, optOutHashes(contactKeys(), lead));

/**
 * A deliver buyer that was sent the lead as the borrower opted out is told, as a buyer of it would
 * be: after a 2xx, and after an answer that does not say whether it took the lead (it may have).
 */
async function noticeIfOptedOut(db: Store, row: ClaimedDelivery, now: Date): Promise<void> {
  if (!row.destination.startsWith(DELIVER_BUYER)) return;
  const lead = await leadById(db, row.lead_id);
  if (lead && (await optedOut(db, lead))) await queueOptOutNotices(db, [lead.id], (id) => !!getBuyers().buyers.get(id)?.buyer.optOutUrl, now);
}

/** One round: claim what is due, deliver it, record each outcome. */
export async function deliverDue(
  db: Store,
  kind: StoreKind,
  opts: { worker: string; now?: () => Date; fetcher?: typeof fetch; limit?: number; postbackOf?: PostbackLookup } = { worker: workerName() },
): Promise<DeliveryRound> {
  const now = opts.now ?? (() => new Date());
  const claimed = await claimDueDeliveries(db, kind, { worker: opts.worker, now: now(), leaseMs: LEASE_MS, limit: opts.limit ?? 20 });
  const round: DeliveryRound = { claimed: claimed.length, delivered: 0, rejected: 0, failed: 0 };
  await Promise.all(
    claimed.map(async (row) => {
      // One row that cannot be sent (its sealed fields do not open with these keys…) fails alone, never the round.
      const outcome = await attempt(db, row, opts.fetcher ?? fetch, opts.postbackOf ?? brandPostback).catch((err: Error): Outcome => ({
        kind: 'retry',
        error: `not sent: ${err.message}`,
      }));
      if (outcome.kind === 'delivered') {
        if (await markDelivered(db, row.id, opts.worker, now())) {
          round.delivered += 1;
          await noticeIfOptedOut(db, row, now()).catch((err: Error) =>
            console.warn(`[leads] opt-out check after ${row.destination} took ${row.lead_id}: ${err.message}`),
          );
        }
      } else if (outcome.kind === 'refused') {
        round.rejected += 1;
        await markRejected(db, row.id, opts.worker, outcome.reason);
        console.warn(`[leads] ${row.destination} refused ${row.lead_id}: ${outcome.reason}`);
      } else {
        round.failed += 1;
        const attempts = row.attempts + 1;
        await markAttemptFailed(db, row.id, opts.worker, {
          error: outcome.error,
          nextAttemptAt: new Date(now().getTime() + backoffMs(attempts)),
          giveUp: attempts >= MAX_ATTEMPTS,
        });
        console.warn(`[leads] delivery of ${row.lead_id} to ${row.destination} failed (attempt ${attempts}): ${outcome.error}`);
        await noticeIfOptedOut(db, row, now()).catch((err: Error) =>
          console.warn(`[leads] opt-out check after ${row.destination} left ${row.lead_id} unanswered: ${err.message}`),
        );
      }
    }),
  );
  return round;
}

export const workerName = (): string => `${process.pid}-${randomBytes(4).toString('hex')}`;

export interface LeadWorker {
  /** Run a round soon (a lead was just stored). */
  wake(): void;
  stop(): Promise<void>;
}

/** Delivers due leads every `intervalMs` and whenever woken, one round at a time. */
export function startLeadWorker(
  getDb: () => Promise<{ db: Store; kind: StoreKind }>,
  opts: {
    intervalMs?: number;
    fetcher?: typeof fetch;
    /** the worker is the process's whole job: its timer keeps the process up */ holdProcess?: boolean;
  } = {},
): LeadWorker {
  const name = workerName();
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const round = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        const { db, kind } = await getDb();
        // a full batch means more may be due: go on until a batch comes back short
        let r: DeliveryRound;
        do r = await deliverDue(db, kind, { worker: name, limit: BATCH, ...(opts.fetcher ? { fetcher: opts.fetcher } : {}) });
        while (r.claimed === BATCH && !stopped);
      } catch (err) {
        console.error('[leads] worker round failed:', (err as Error).message);
      }
    })().finally(() => {
      running = undefined;
      if (!again) return;
      again = false;
      round();
    });
  };
  const timer = setInterval(round, opts.intervalMs ?? 2_000);
  // inside a server the worker must not keep a stopping process alive; on its own (SQLite holds no handle) the timer is all that does
  if (!opts.holdProcess) timer.unref();
  round();
  return {
    wake: round,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
