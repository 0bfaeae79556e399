/**
 * The sale's pings and posts: every ping-post buyer of a tier pinged at once, and one post asked
 * again while its answer leaves the buyer's decision unknown (rule 3b of engine/sale/runner.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Buyer } from '../../schemas/buyer.types';
import { addEventHolding, addEvents, holdsSale, isSuppressed, reservePost, saleOf, settleEvent, settleEvents, whileHeld, type NewEvent } from '../store/sales';
import { ACCEPT_NOT_TAKEN, readBid, readPostAnswer } from './answers';
import type { Bid, Offer } from './bids';
import { sendSigned } from './http';
import { queueOptOutNotices } from './optOut';
import { pingPayload } from './ping';
import { cents, holdOf, recordAccept, TAKEN_OVER, type OpenSale, type Posted, type SaleResult } from './saleRun';
import { localTime } from './schedule';
import { leadPayload } from './wire';

const DEFAULT_PING_MS = 1_000;
export const DEFAULT_POST_MS = 15_000;
/** How often a post whose answer left the buyer's decision unknown is asked again, the pause before each, and the least time each is given. */
export const CONFIRM_ASKS = 2;
const CONFIRM_PAUSE_MS = 500;
const CONFIRM_MIN_MS = 1_000;
const newPingId = () => `pg_${randomBytes(12).toString('base64url')}`;

/** The most a timeline row's detail keeps (engine/store/sales.ts). */
const DETAIL_CHARS = 500;

/**
 * What a post's 'sending' row keeps of its offer until the answer settles it: the ping id, and
 * the buyer's bid id when it gave one, so that a post resumed after a restart repeats the very
 * body that went out (a buyer may hold its Idempotency-Key to the body it first saw).
 */
export function sendingDetail(offer: Pick<Offer, 'pingId' | 'bidId'>): string {
  if (offer.bidId === undefined) return offer.pingId ?? '';
  const both = JSON.stringify({ pingId: offer.pingId, bidId: offer.bidId });
  return both.length <= DETAIL_CHARS ? both : (offer.pingId ?? '');
}

/** The ping and bid ids a 'sending' row kept (sendingDetail; older rows hold the ping id alone). */
export function offerOfSending(detail: string): Pick<Offer, 'pingId' | 'bidId'> {
  if (!detail.startsWith('{')) return detail ? { pingId: detail } : {};
  try {
    const o = JSON.parse(detail) as { pingId?: unknown; bidId?: unknown };
    return { ...(typeof o.pingId === 'string' ? { pingId: o.pingId } : {}), ...(typeof o.bidId === 'string' ? { bidId: o.bidId } : {}) };
  } catch {
    return {};
  }
}

/**
 * Pings every buyer at once, each within its own timeout; the bids, and a timeline row per ping.
 * Each ping's row is written before it goes out ('sending', settled with the answer): the ping
 * offers the lead, and a buyer that verifies the certificate it names before bidding — as the
 * protocol asks — must find the lead offered to it. The round's rows are written, and the round
 * goes out, only while this run holds the sale (one check for the round, not one per buyer): a
 * worker that woke after its lease ran out and another took the sale over pings nobody — the
 * lead's data is not offered for a sale that is no longer its own, nor a buyer's rate spent on it.
 * The answers are settled on the same condition: a worker that lost the sale while its pings were
 * out writes nothing on a timeline that is the other worker's. TAKEN_OVER then; the worker that
 * took the sale over settled those rows `interrupted` when it claimed it (runSale).
 */
export async function pingAll(sale: OpenSale, buyers: readonly Buyer[]): Promise<Bid[] | typeof TAKEN_OVER> {
  const { db, lead, duplicate, deps, now } = sale;
  if (!buyers.length) return [];
  const pingIds = buyers.map(() => newPingId());
  const sending = buyers.map((b, i): NewEvent => ({
    lead_id: lead.id,
    at: now().toISOString(),
    buyer_id: b.id,
    step: 'ping',
    outcome: 'sending',
    detail: pingIds[i]!,
  }));
  const written = await whileHeld(db, lead.id, holdOf(sale), (trx) => addEvents(trx, sending));
  if (!written) return TAKEN_OVER;
  const eventIds = written.value;
  const answers = await Promise.all(
    buyers.map(async (b, i) => {
      const pingId = pingIds[i]!;
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
  const settled = answers.map(({ b, pingId, sent, outcome }, i): NewEvent & { id: string } => {
    const floor = b.price?.floor ?? 0;
    const under = outcome.ok && outcome.price < floor;
    if (outcome.ok) bids.push({ buyer: b, price: outcome.price, pingId, latencyMs: sent.latencyMs, ...(outcome.bidId ? { bidId: outcome.bidId } : {}) });
    return {
      ...sending[i]!,
      id: eventIds[i]!,
      outcome: outcome.ok && !under ? 'bid' : 'no-bid',
      latency_ms: sent.latencyMs,
      price_cents: outcome.ok ? cents(outcome.price) : null,
      detail: outcome.ok ? (under ? `bid under the floor ${floor}` : pingId) : outcome.reason,
    };
  });
  if (!(await whileHeld(db, lead.id, holdOf(sale), (trx) => settleEvents(trx, settled)))) return TAKEN_OVER;
  return bids;
}

/**
 * An accept that came when the sale was no longer this worker's (its lease ran out while the post
 * was out): another worker took the sale up, found this post out and asked the buyer again with the
 * same Idempotency-Key (rule 3b). When that worker sold the lead to this same buyer, the accept is
 * that sale (it settled the post's row with it). While it still runs, its own ask decides. Once it
 * decided otherwise, the buyer accepted a lead we cannot give it — it may believe it bought the
 * lead, having broken rule 3b with a different answer to the second ask — so the post's row says
 * "accept not taken" over whatever that answer was: a fact the operator must tell the buyer, and
 * the record a later opt-out reads to tell every buyer holding the lead (optOut.ts). This worker
 * offers the lead to nobody else: the sale is the other worker's.
 */
async function acceptAfterTheSale(
  sale: OpenSale,
  offer: Offer,
  eventId: string,
  latencyMs: number,
  noticeIfOptedOut: () => Promise<void>,
): Promise<SaleResult> {
  const { db, leadId } = sale;
  const b = offer.buyer;
  const now = await saleOf(db, leadId);
  if (now?.status === 'sold' && now.buyer_id === b.id)
    return {
      status: 'sold',
      buyerId: b.id,
      ...(now.price_cents !== null ? { priceCents: now.price_cents } : {}),
      ...(now.redirect_url ? { redirectUrl: now.redirect_url } : {}),
    };
  const where = now ? `${now.status}${now.buyer_id ? ` to ${now.buyer_id}` : ''}` : 'missing';
  const reason = `the sale was no longer this worker's to decide (${where})`;
  if (!now || now.status === 'pending') return { status: sale.unsoldStatus, reason };
  await settleEvent(db, eventId, { outcome: 'refused', latency_ms: latencyMs, detail: `${ACCEPT_NOT_TAKEN}${reason}` });
  await noticeIfOptedOut();
  return { status: now.status, ...(now.buyer_id ? { buyerId: now.buyer_id } : {}), reason };
}

/**
 * One post: its timeline row (reserved against the buyer's caps when it has any), then the post
 * itself. The row is written only while this run holds the sale, and the lead goes out only after
 * it: a worker stalled here past its lease (a database or a process held up) posts nothing once
 * another has taken the sale over — that one found no post out and went on without it, so the
 * buyer's accept could never be taken — and one taking the sale over later finds the post out and
 * asks that buyer again (rule 3b). TAKEN_OVER when the lead did not go out.
 */
export async function post(sale: OpenSale, offer: Offer): Promise<Posted | typeof TAKEN_OVER> {
  const { db, leadId, deps, now, deadline } = sale;
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
    detail: sendingDetail(offer),
  };
  let eventId: string;
  if (b.caps?.perDay !== undefined || b.caps?.perMonth !== undefined) {
    // Eligibility counted the sales recorded; other sales (here or on another instance) may be posting to this buyer now.
    const t = localTime(now(), b.schedule?.timeZone);
    const r = await reservePost(db, sending, { perDay: b.caps.perDay, perMonth: b.caps.perMonth, day: t.day, month: t.month }, holdOf(sale));
    if ('notHeld' in r) return TAKEN_OVER;
    if ('full' in r) return 'refused'; // its `skipped` row written with the check
    eventId = r.id;
  } else {
    const id = await addEventHolding(db, sending, holdOf(sale));
    if (id === undefined) return TAKEN_OVER;
    eventId = id;
  }
  return sendPost(sale, offer, eventId, secret, Math.min(b.timeouts?.postMs ?? DEFAULT_POST_MS, Math.max(remaining, 1)), CONFIRM_ASKS, true);
}

/**
 * Why a post stayed unconfirmed, in the words of every ask: "no answer within 30000 ms, then no
 * answer within 6600 ms, then no answer within 1000 ms" — the last ask alone would say the buyer
 * was given a second when it was given its whole post timeout first. The same answer each time
 * is said once, with the count: "HTTP 503, 3 times".
 */
function everyAnswer(answers: readonly string[]): string {
  const words = answers.every((a) => a === answers[0])
    ? `${answers[0] ?? ''}${answers.length > 1 ? `, ${answers.length} times` : ''}`
    : answers.join(', then ');
  return words.slice(0, DETAIL_CHARS);
}

/**
 * Posts the lead (timeoutMs for the first ask), then asks again, `repeats` times at most, while
 * the answer leaves the buyer's decision unknown. Each ask goes only while this run holds the
 * sale — read before it, but for a first ask right after the post's row was written holding it
 * (`rowJustWritten`): a worker that stalled past its lease while the post was out (or before it
 * asked again a post out from an earlier run) leaves the buyer to the worker that took the sale
 * over, which asks it itself, rather than send the borrower's data again for a sale no longer its
 * own. TAKEN_OVER then, the post's row left for that worker to settle. The last answer is
 * settled on the same condition, checked in the transaction that writes it (whileHeld; an accept:
 * recordAccept): a worker that lost the sale while its last ask was out writes nothing, whatever
 * that ask came to, and stops (TAKEN_OVER; an accept: what the other worker decided).
 * A repeat in the running sale waits what is left of the sale's bound (the borrower's page is
 * waiting), at least CONFIRM_MIN_MS. A post out from an earlier run (not `rowJustWritten`) is asked
 * again by a sale resumed after its lease ran out, which outlasts the bound: the borrower stopped
 * waiting long before, so nothing is gained by cutting an ask short, and a buyer that bought the
 * lead but answers in over a second would leave it sold to nobody (the borrower without a lender,
 * the buyer told to drop it). Each of its asks waits the buyer's post timeout.
 */
export async function sendPost(
  sale: OpenSale,
  offer: Offer,
  eventId: string,
  secret: string,
  timeoutMs: number,
  repeats: number,
  rowJustWritten: boolean,
): Promise<Posted | typeof TAKEN_OVER> {
  const { db, leadId, deps, now, stored, lead, duplicate, suppressionHashes, deadline } = sale;
  const b = offer.buyer;
  const postMs = b.timeouts?.postMs ?? DEFAULT_POST_MS;
  const body = {
    ...leadPayload(stored),
    test: lead.test,
    ...(offer.pingId ? { pingId: offer.pingId } : {}),
    ...(offer.bidId ? { bidId: offer.bidId } : {}),
    // the price the sale will be recorded at, to the cent: the buyer's figure and the operator's are one
    ...(offer.price !== undefined ? { price: cents(offer.price) / 100 } : {}),
  };
  const ask = async (ms: number) => {
    const sent = await sendSigned(b.endpoints.post!, body, { secret, timeoutMs: ms, leadId, ...(deps.fetcher ? { fetcher: deps.fetcher } : {}) });
    return { sent, outcome: readPostAnswer(sent.answer, b, offer.price) };
  };
  // The borrower opted out while the sale ran (after its check): a buyer that holds the lead — it
  // bought it, its accept was not taken, or its answer never said — is told like any other.
  const noticeIfOptedOut = async () => {
    if (await isSuppressed(db, suppressionHashes)) await queueOptOutNotices(db, [leadId], () => !!b.optOutUrl, now());
  };
  const ours = () => holdsSale(db, leadId, holdOf(sale));
  if (!rowJustWritten && !(await ours())) return TAKEN_OVER;
  let { sent, outcome } = await ask(timeoutMs);
  // what each ask that left the decision unknown got: the first may have waited the buyer's whole post timeout, a repeat far less
  const unknownAnswers: string[] = [];
  for (let i = 0; i < repeats && !outcome.ok && outcome.unknown; i++) {
    unknownAnswers.push(outcome.reason);
    await new Promise((r) => setTimeout(r, CONFIRM_PAUSE_MS));
    if (!(await ours())) return TAKEN_OVER;
    // Within the sale's deadline where it can (the borrower is waiting), but always long enough for a real answer.
    ({ sent, outcome } = await ask(rowJustWritten ? Math.min(postMs, Math.max(deadline - now().getTime(), CONFIRM_MIN_MS)) : postMs));
  }
  if (outcome.ok) {
    const t = localTime(now(), b.schedule?.timeZone);
    const decision = {
      status: 'sold' as const,
      duplicate,
      buyerId: b.id,
      priceCents: cents(outcome.price),
      redirectUrl: outcome.redirectUrl,
      ...(outcome.buyerLeadId ? { buyerLeadId: outcome.buyerLeadId } : {}),
      buyerDay: t.day,
      buyerMonth: t.month,
    };
    if (!(await recordAccept(sale, stored, decision, { eventId, latencyMs: sent.latencyMs })))
      return acceptAfterTheSale(sale, offer, eventId, sent.latencyMs, noticeIfOptedOut);
    await noticeIfOptedOut();
    return decision;
  }
  // The last answer settles the post's row — only while this run holds the sale: a worker that lost
  // it while this ask was out (held up past its lease) leaves the row to the worker that took the
  // sale over, which asked the buyer itself and may have settled it already ("accepted", beside its
  // "sold"); a late "unconfirmed" or "refused" over it would contradict the decision and every
  // figure read from post rows (the buyers page, acceptance rates, alerts).
  const settled = (e: Parameters<typeof settleEvent>[2]) => whileHeld(db, leadId, holdOf(sale), (trx) => settleEvent(trx, eventId, e));
  if (outcome.unknown) {
    const reason = everyAnswer([...unknownAnswers, outcome.reason]);
    if (!(await settled({ outcome: 'unconfirmed', latency_ms: sent.latencyMs, detail: reason }))) return TAKEN_OVER;
    await noticeIfOptedOut();
    return { unconfirmed: reason };
  }
  if (!(await settled({ outcome: 'refused', latency_ms: sent.latencyMs, detail: outcome.reason }))) return TAKEN_OVER;
  if (outcome.acceptNotTaken) await noticeIfOptedOut();
  return 'refused';
}
