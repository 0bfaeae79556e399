/**
 * runSale: one lead's sale, start to end, by the worker holding its lease.
 *
 * 1. The contact (phone, email) is hashed and matched: seen within the window → duplicate (offered
 *    only to buyers taking duplicates); opted out → suppressed (offered to nobody).
 * 2. A post that went out before a restart and whose answer was never recorded is asked again,
 *    with the same Idempotency-Key, of the same buyer (rule 3b).
 * 3. Tier by tier: eligible ping-post buyers are pinged in parallel (each within its ping
 *    timeout), bids at or above the floor are posted to in order, then the direct-post buyers;
 *    the first acceptance is the sale. Every ping, bid, post and answer goes on the timeline.
 * 3b. One rule for a post whose answer leaves the buyer's decision unknown (answers.ts: no answer
 *    in time, a 5xx…), whether it timed out here or was out when a worker died: the buyer may
 *    have bought the lead, so it is asked again with the same Idempotency-Key, up to CONFIRM_ASKS
 *    times, and the first answer read decides — accepted: sold to it (a late accept wins);
 *    refused: the sale goes on. Still unknown: the lead is left unsold and offered to nobody else
 *    (no other post, no delivery), so its personal data never reaches a second buyer.
 * 4. Unsold: the eligible deliver buyers get the lead through the outbox.
 * The whole sale is bounded (deadlineMs); the lease outlasts it, so a live worker keeps its sale.
 */
import { randomBytes } from 'node:crypto';
import type { Buyer } from '../../schemas/buyer.types';
import type { Postback } from '../../schemas/brand.types';
import { leadPayload } from './wire';
import type { Store } from '../store/db';
import { leadById } from '../store/leads';
import { readBid, readPostAnswer } from './answers';
import { orderOffers, type Bid, type Offer } from './bids';
import { contactHashes } from './contact';
import { eligibility, type SaleLead } from './eligibility';
import { sendSigned } from './http';
import { saleLeadOf } from './lead';
import { optOutHashes, queueOptOutNotices } from './optOut';
import { postbacksFor, queuePostbacks } from './postbacks';
import { pingPayload } from './ping';
import { localTime } from './schedule';
import {
  addEvent,
  addEvents,
  claimSale,
  enqueueDeliveries,
  finishSale,
  isSuppressed,
  recordContacts,
  reservePost,
  seenBefore,
  settleEvent,
  soldCounts,
  timelineOf,
  type NewEvent,
  type SaleDecision,
} from '../store/sales';

export const SALE_LEASE_MS = 90_000;
export const SALE_DEADLINE_MS = 40_000;
export const DUPLICATE_WINDOW_MS = 30 * 24 * 3600_000;
const DEFAULT_PING_MS = 1_000;
const DEFAULT_POST_MS = 15_000;
/** How often a post whose answer left the buyer's decision unknown is asked again, the pause before each, and the least time each is given. */
export const CONFIRM_ASKS = 2;
const CONFIRM_PAUSE_MS = 500;
const CONFIRM_MIN_MS = 1_000;

export interface SaleDeps {
  /** every buyer the sale may use (secrets present) */
  buyers: readonly Buyer[];
  secretOf: (buyer: Buyer) => string | undefined;
  /** key of the contact hashes */
  contactKey: Buffer;
  /** every key an opt-out may have been hashed under (the keyring's); default: contactKey alone */
  suppressionKeys?: readonly Buffer[];
  worker: string;
  fetcher?: typeof fetch;
  now?: () => Date;
  duplicateWindowMs?: number;
  deadlineMs?: number;
  leaseMs?: number;
  /** the brand's conversion postbacks (brand file "postbacks"), queued when a lead is sold */
  postbacksOf?: (brand: string) => readonly Postback[] | undefined;
}

export type SaleResult = Pick<SaleDecision, 'status' | 'buyerId' | 'priceCents' | 'redirectUrl' | 'reason'>;

export const deliverDestination = (buyerId: string): string => `buyer:${buyerId}`;
const cents = (dollars: number) => Math.round(dollars * 100);
const newPingId = () => `pg_${randomBytes(12).toString('base64url')}`;

/** Runs the sale of one lead if no other worker holds it; undefined when it was not this worker's to run. */
export async function runSale(db: Store, leadId: string, deps: SaleDeps): Promise<SaleResult | undefined> {
  const now = deps.now ?? (() => new Date());
  const started = now().getTime();
  const claim = await claimSale(db, leadId, deps.worker, now(), deps.leaseMs ?? SALE_LEASE_MS);
  if (!claim) return undefined;
  const finish = async (d: SaleDecision): Promise<SaleResult> => {
    await addEvent(db, {
      lead_id: leadId,
      at: now().toISOString(),
      buyer_id: d.buyerId ?? '',
      step: 'decision',
      outcome: d.status === 'sold' ? 'sold' : 'unsold',
      price_cents: d.priceCents ?? null,
      detail: d.reason ?? d.status,
    });
    const postbacks = d.status === 'sold' && stored ? postbacksFor(deps.postbacksOf?.(stored.brand), stored) : [];
    if (!postbacks.length) await finishSale(db, leadId, deps.worker, d, now());
    else
      // Sold and its postbacks queued together: a sale recorded is a conversion reported, once.
      await db.transaction().execute(async (trx) => {
        if (await finishSale(trx, leadId, deps.worker, d, now())) await queuePostbacks(trx, leadId, postbacks, now());
      });
    return d;
  };

  const stored = await leadById(db, leadId);
  if (!stored) return finish({ status: 'unsold', duplicate: false, reason: 'the lead is missing' });
  let lead: SaleLead;
  try {
    lead = saleLeadOf(stored);
  } catch (err) {
    return finish({ status: 'unsold', duplicate: false, reason: `the lead cannot be read: ${(err as Error).message}` });
  }
  const hashes = contactHashes(deps.contactKey, stored);
  await recordContacts(db, leadId, hashes, stored.created_at);
  const duplicate = await seenBefore(db, leadId, hashes, stored.created_at, deps.duplicateWindowMs ?? DUPLICATE_WINDOW_MS);
  const suppressionHashes = optOutHashes(deps.suppressionKeys ?? [deps.contactKey], stored);
  if (await isSuppressed(db, suppressionHashes)) return finish({ status: 'suppressed', duplicate, reason: 'the contact opted out' });
  const unsoldStatus = duplicate ? 'duplicate' : 'unsold';

  const deadline = started + (deps.deadlineMs ?? SALE_DEADLINE_MS);
  type Posted = SaleResult | 'refused' | { unconfirmed: string };
  const post = async (offer: Offer): Promise<Posted> => {
    const b = offer.buyer;
    const secret = deps.secretOf(b);
    const remaining = deadline - now().getTime();
    if (!secret || !b.endpoints.post) return 'refused';
    const sending: NewEvent = {
      lead_id: leadId,
      at: now().toISOString(),
      buyer_id: b.id,
      step: 'post',
      outcome: 'sending',
      price_cents: offer.price === undefined ? null : cents(offer.price),
      detail: offer.pingId ?? '',
    };
    let eventId: string;
    if (b.caps?.perDay !== undefined || b.caps?.perMonth !== undefined) {
      // Eligibility counted the sales recorded; other sales (here or on another instance) may be posting to this buyer now.
      const t = localTime(now(), b.schedule?.timeZone);
      const r = await reservePost(db, sending, { perDay: b.caps.perDay, perMonth: b.caps.perMonth, day: t.day, month: t.month });
      if ('full' in r) {
        await addEvent(db, { lead_id: leadId, at: now().toISOString(), buyer_id: b.id, step: 'eligibility', outcome: 'skipped', detail: r.full });
        return 'refused';
      }
      eventId = r.id;
    } else eventId = await addEvent(db, sending);
    return sendPost(offer, eventId, secret, Math.min(b.timeouts?.postMs ?? DEFAULT_POST_MS, Math.max(remaining, 1)), CONFIRM_ASKS);
  };
  /** Posts the lead (timeoutMs for the first ask), then asks again, `repeats` times at most, while the answer leaves the buyer's decision unknown. */
  const sendPost = async (offer: Offer, eventId: string, secret: string, timeoutMs: number, repeats: number): Promise<Posted> => {
    const b = offer.buyer;
    const postMs = b.timeouts?.postMs ?? DEFAULT_POST_MS;
    const body = {
      ...leadPayload(stored),
      test: lead.test,
      ...(offer.pingId ? { pingId: offer.pingId } : {}),
      ...(offer.bidId ? { bidId: offer.bidId } : {}),
      ...(offer.price !== undefined ? { price: offer.price } : {}),
    };
    const ask = async (ms: number) => {
      const sent = await sendSigned(b.endpoints.post!, body, { secret, timeoutMs: ms, leadId, ...(deps.fetcher ? { fetcher: deps.fetcher } : {}) });
      return { sent, outcome: readPostAnswer(sent.answer, b, offer.price) };
    };
    let { sent, outcome } = await ask(timeoutMs);
    for (let i = 0; i < repeats && !outcome.ok && outcome.unknown; i++) {
      await new Promise((r) => setTimeout(r, CONFIRM_PAUSE_MS));
      // Within the sale's deadline where it can (the borrower is waiting), but always long enough for a real answer.
      ({ sent, outcome } = await ask(Math.min(postMs, Math.max(deadline - now().getTime(), CONFIRM_MIN_MS))));
    }
    if (outcome.ok) {
      const t = localTime(now(), b.schedule?.timeZone);
      const result = await finish({
        status: 'sold',
        duplicate,
        buyerId: b.id,
        priceCents: cents(outcome.price),
        redirectUrl: outcome.redirectUrl,
        ...(outcome.buyerLeadId ? { buyerLeadId: outcome.buyerLeadId } : {}),
        buyerDay: t.day,
        buyerMonth: t.month,
      });
      await settleEvent(db, eventId, { outcome: 'accepted', latency_ms: sent.latencyMs, price_cents: cents(outcome.price), detail: outcome.redirectUrl });
      // The borrower opted out while the sale ran (after the check above): the buyer is told like any other.
      if (await isSuppressed(db, suppressionHashes)) await queueOptOutNotices(db, [leadId], () => !!b.optOutUrl, now());
      return result;
    }
    if (outcome.unknown) {
      await settleEvent(db, eventId, { outcome: 'unconfirmed', latency_ms: sent.latencyMs, detail: outcome.reason });
      return { unconfirmed: outcome.reason };
    }
    await settleEvent(db, eventId, { outcome: 'refused', latency_ms: sent.latencyMs, detail: outcome.reason });
    return 'refused';
  };

  // A resumed sale: ask again what became of a post whose answer was never recorded.
  const timeline = await timelineOf(db, leadId);
  const tried = new Set(timeline.filter((e) => e.step === 'post').map((e) => e.buyer_id));
  for (const e of timeline.filter((x) => x.step === 'post' && x.outcome === 'sending')) {
    const b = deps.buyers.find((x) => x.id === e.buyer_id);
    const secret = b && deps.secretOf(b);
    if (!b || !secret) {
      await settleEvent(db, e.id, { outcome: 'refused', detail: 'interrupted; the buyer is no longer configured' });
      return finish({ status: unsoldStatus, duplicate, reason: `sale interrupted while posting to ${e.buyer_id}, which can no longer confirm` });
    }
    const offer: Offer = { buyer: b, ...(e.price_cents !== null ? { price: e.price_cents / 100 } : {}), ...(e.detail ? { pingId: e.detail } : {}) };
    // The post that went out is the first ask: the resumed sale makes the repeats.
    const r = await sendPost(offer, e.id, secret, b.timeouts?.postMs ?? DEFAULT_POST_MS, CONFIRM_ASKS - 1);
    if (typeof r === 'object' && 'unconfirmed' in r)
      return finish({ status: unsoldStatus, duplicate, reason: `sale interrupted while posting to ${b.id}, which did not confirm its answer` });
    if (r !== 'refused') return r;
  }

  // Who may be offered the lead, and why not the others.
  const skipped: NewEvent[] = [];
  const eligible: Buyer[] = [];
  for (const b of deps.buyers) {
    if (b.mode === 'deliver' || tried.has(b.id)) continue;
    const t = localTime(now(), b.schedule?.timeZone);
    const counts = b.caps ? await soldCounts(db, b.id, t.day, t.month) : { day: 0, month: 0 };
    const e = eligibility(b, lead, { now: now(), duplicate, suppressed: false, soldToday: counts.day, soldThisMonth: counts.month });
    if (e.ok) eligible.push(b);
    else skipped.push({ lead_id: leadId, at: now().toISOString(), buyer_id: b.id, step: 'eligibility', outcome: 'skipped', detail: e.reason });
  }
  await addEvents(db, skipped);

  const tiers = [...new Set(eligible.map((b) => b.tier ?? 1))].sort((a, b) => a - b);
  for (const tier of tiers) {
    const inTier = eligible.filter((b) => (b.tier ?? 1) === tier);
    const bids = await pingAll(
      db,
      lead,
      inTier.filter((b) => b.mode === 'ping-post'),
      duplicate,
      deps,
      now,
    );
    for (const offer of orderOffers(
      bids,
      inTier.filter((b) => b.mode === 'direct-post'),
    )) {
      if (now().getTime() > deadline - 500) return finish({ status: unsoldStatus, duplicate, reason: 'the sale ran out of time' });
      const r = await post(offer);
      if (r === 'refused') continue;
      if ('unconfirmed' in r)
        return finish({
          status: unsoldStatus,
          duplicate,
          reason: `${offer.buyer.id} did not confirm its answer to the post (${r.unconfirmed}); offered to no other buyer`,
        });
      return r;
    }
  }

  // Nobody bought it: the deliver buyers that want it get it through the outbox.
  const deliver = deps.buyers.filter(
    (b) => b.mode === 'deliver' && deps.secretOf(b) && eligibility(b, lead, { now: now(), duplicate, suppressed: false, soldToday: 0, soldThisMonth: 0 }).ok,
  );
  await enqueueDeliveries(
    db,
    leadId,
    deliver.map((b) => deliverDestination(b.id)),
    now(),
  );
  await addEvents(
    db,
    deliver.map((b) => ({ lead_id: leadId, at: now().toISOString(), buyer_id: b.id, step: 'deliver' as const, outcome: 'queued' as const })),
  );
  return finish({ status: unsoldStatus, duplicate, reason: eligible.length ? 'no buyer accepted' : 'no eligible buyer' });
}

/** Pings every buyer at once, each within its own timeout; the bids, and a timeline row per ping. */
async function pingAll(db: Store, lead: SaleLead, buyers: readonly Buyer[], duplicate: boolean, deps: SaleDeps, now: () => Date): Promise<Bid[]> {
  const answers = await Promise.all(
    buyers.map(async (b) => {
      const pingId = newPingId();
      const secret = deps.secretOf(b)!;
      const sent = await sendSigned(b.endpoints.ping!, pingPayload(lead, pingId, duplicate), {
        secret,
        timeoutMs: b.timeouts?.pingMs ?? DEFAULT_PING_MS,
        ...(deps.fetcher ? { fetcher: deps.fetcher } : {}),
      });
      return { b, pingId, sent, outcome: readBid(sent.answer, b) };
    }),
  );
  const bids: Bid[] = [];
  const events: NewEvent[] = [];
  for (const { b, pingId, sent, outcome } of answers) {
    const floor = b.price?.floor ?? 0;
    const under = outcome.ok && outcome.price < floor;
    events.push({
      lead_id: lead.id,
      at: now().toISOString(),
      buyer_id: b.id,
      step: 'ping',
      outcome: outcome.ok && !under ? 'bid' : 'no-bid',
      latency_ms: sent.latencyMs,
      price_cents: outcome.ok ? cents(outcome.price) : null,
      detail: outcome.ok ? (under ? `bid under the floor ${floor}` : pingId) : outcome.reason,
    });
    if (outcome.ok) bids.push({ buyer: b, price: outcome.price, pingId, latencyMs: sent.latencyMs, ...(outcome.bidId ? { bidId: outcome.bidId } : {}) });
  }
  await addEvents(db, events);
  return bids;
}
