/**
 * runSale: one lead's sale, start to end, by the worker holding its lease, in named steps
 * (openSale → resumeUnansweredPosts → eligibleBuyers → offerByTier → queueDeliverBuyers; the pings
 * and posts in posting.ts; each decision recorded by recordDecision, saleRun.ts).
 *
 * 1. The contact (phone, email) is hashed and matched: seen within the window → duplicate (offered
 *    only to buyers taking duplicates); opted out → suppressed (offered to nobody).
 * 2. A post that went out before a restart and whose answer was never recorded is asked again,
 *    with the same Idempotency-Key, of the same buyer (rule 3b). A ping that went out before it
 *    and whose answer was never recorded is settled `interrupted` (settleInterruptedPings): no
 *    worker will ever read that answer.
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
 * The whole sale is bounded (deadlineMs from the lead's arrival, as the borrower's page counts); the
 * lease outlasts it, so a live worker keeps its sale. A run held up past its lease (a stalled
 * database or process) whose sale another worker took over sends nothing more when it wakes: each
 * tier's pings, each post and each post asked again go out, and the deliver buyers are queued, only
 * while the run holds the sale. Nor does it write anything more on the sale's timeline: every row
 * it writes — a ping's or a post's row and its answer, an eligibility row, a queueing, the
 * decision — is written in the transaction that checks it still holds the sale (whileHeld), so a
 * post the other worker asked again and settled keeps that worker's answer; its pings out when it
 * lost the sale are settled `interrupted` by the worker that took the sale over, when it claims
 * it. A sale that starts after that offers the lead
 * to no ping or post buyer (4. only). A lead screening held and an operator released is the
 * exception: its borrower was told it is being checked, not kept waiting, so its sale is bounded
 * from the moment of the release (lead_screening.reviewed_at) and offers the lead as any other
 * sale does; a sale resumed after its worker died keeps that bound, as any lead's keeps its own.
 */
import type { Buyer } from '../../schemas/buyer.types';
import type { Store } from '../store/db';
import { leadById, type LeadsTable } from '../store/leads';
import {
  addEvents,
  claimSale,
  enqueueDeliveries,
  isSuppressed,
  recordContacts,
  reserveDelivery,
  seenBefore,
  settleEvent,
  settleInterruptedPings,
  soldCounts,
  timelineOf,
  whileHeld,
  type NewEvent,
  type SaleDecision,
} from '../store/sales';
import { orderOffers, type Offer } from './bids';
import { contactHashes } from './contact';
import { eligibility, type SaleLead } from './eligibility';
import { qualityOf, saleLeadOf, screeningDecision } from './lead';
import { addScreeningCodes, screeningOf } from '../store/screening';
import { optOutHashes } from './optOut';
import { CONFIRM_ASKS, DEFAULT_POST_MS, offerOfSending, pingAll, post, sendPost } from './posting';
import { holdOf, recordDecision, TAKEN_OVER, type OpenSale, type SaleDeps, type SaleResult, type SaleRun } from './saleRun';
import { localTime } from './schedule';

export type { SaleDeps, SaleResult };

export const SALE_LEASE_MS = 90_000;
export const SALE_DEADLINE_MS = 40_000;
export const DUPLICATE_WINDOW_MS = 30 * 24 * 3600_000;

export const deliverDestination = (buyerId: string): string => `buyer:${buyerId}`;

/** Runs the sale of one lead if no other worker holds it; undefined when it was not this worker's to run. */
export async function runSale(db: Store, leadId: string, deps: SaleDeps): Promise<SaleResult | undefined> {
  const now = deps.now ?? (() => new Date());
  const started = now().getTime();
  const claim = await claimSale(db, leadId, deps.worker, now(), deps.leaseMs ?? SALE_LEASE_MS);
  if (!claim) return undefined;
  const run: SaleRun = { db, leadId, deps, now, runs: claim.runs };
  // An earlier run's pings still out can never be answered now (that run writes nothing more):
  // their rows are settled before this run decides anything, whichever way it ends.
  if (claim.runs > 1 && !(await settleInterruptedPings(db, leadId, holdOf(run)))) return undefined;
  const opened = await openSale(run, started);
  if ('decision' in opened) return recordDecision(run, opened.stored, opened.decision);
  const sale = opened;
  const resumed = await resumeUnansweredPosts(sale);
  if (resumed === TAKEN_OVER) return undefined;
  if ('result' in resumed) return resumed.result;
  // The borrower's page waits a while after submit, then says "no lender right now, nothing
  // sold". A sale that could not start in that window (every slot held by slow buyers, or taken up
  // after a restart) offers the lead to no ping or post buyer: the borrower would never see the
  // lender. It goes the way of any unsold lead.
  if (sale.now().getTime() > sale.deadline - 500) {
    if ((await queueDeliverBuyers(sale)) === TAKEN_OVER) return undefined;
    return recordDecision(sale, sale.stored, {
      status: sale.unsoldStatus,
      duplicate: sale.duplicate,
      reason: 'the borrower had stopped waiting before the sale could start',
    });
  }
  const eligible = await eligibleBuyers(sale, resumed.tried);
  if (eligible === TAKEN_OVER) return undefined;
  const sold = await offerByTier(sale, eligible);
  if (sold === TAKEN_OVER) return undefined;
  if (sold) return sold;
  if ((await queueDeliverBuyers(sale)) === TAKEN_OVER) return undefined;
  return recordDecision(sale, sale.stored, {
    status: sale.unsoldStatus,
    duplicate: sale.duplicate,
    reason: eligible.length ? 'no buyer accepted' : 'no eligible buyer',
  });
}

/**
 * The lead read and its contact checked: hashed and recorded, seen within the duplicate window
 * (a duplicate), opted out (suppressed: offered to nobody). A decision when the sale ends here.
 */
async function openSale(run: SaleRun, started: number): Promise<OpenSale | { decision: SaleDecision; stored?: LeadsTable }> {
  const { db, leadId, deps } = run;
  const stored = await leadById(db, leadId);
  if (!stored) return { decision: { status: 'unsold', duplicate: false, reason: 'the lead is missing' } };
  let lead: SaleLead;
  try {
    lead = saleLeadOf(stored);
  } catch (err) {
    return { stored, decision: { status: 'unsold', duplicate: false, reason: `the lead cannot be read: ${(err as Error).message}` } };
  }
  const hashes = contactHashes(deps.contactKey, stored);
  await recordContacts(db, leadId, hashes, stored.created_at);
  const duplicate = await seenBefore(db, leadId, hashes, stored.created_at, deps.duplicateWindowMs ?? DUPLICATE_WINDOW_MS);
  const suppressionHashes = optOutHashes(deps.suppressionKeys ?? [deps.contactKey], stored);
  const suppressed = await isSuppressed(db, suppressionHashes);
  // duplicates and opt-outs are reported with screening's codes, beside what screening found
  await addScreeningCodes(db, leadId, [...(duplicate ? ['duplicate'] : []), ...(suppressed ? ['opted-out'] : [])]);
  if (suppressed) return { stored, decision: { status: 'suppressed', duplicate, reason: 'the contact opted out' } };
  const screened = await screeningOf(db, leadId);
  if (screened) lead.quality = qualityOf(screened);
  const held = screeningDecision(lead);
  if (held) return { stored, decision: { status: duplicate ? 'duplicate' : 'unsold', duplicate, reason: held } };
  // Released after a review (minutes or hours after it arrived): the page said the request is
  // being checked and follows the sale from the release, so the bound starts there, not at submit
  // nor at this run's start (a run resumed after a crash would get a new window). A release
  // recorded before its time was stored is bounded from this run's start, as it was then.
  const released = lead.quality?.routing === 'released' ? Date.parse(screened?.reviewed_at ?? '') || started : undefined;
  const from = released !== undefined ? Math.min(started, released) : Math.min(started, Date.parse(stored.created_at) || started);
  return {
    ...run,
    stored,
    lead,
    duplicate,
    suppressionHashes,
    unsoldStatus: duplicate ? 'duplicate' : 'unsold',
    // from the lead's arrival, not from when a slot came free: the borrower's page counts from submit
    deadline: from + (deps.deadlineMs ?? SALE_DEADLINE_MS),
  };
}

/**
 * A resumed sale: a post that went out before a restart and whose answer was never recorded is
 * asked again of the same buyer (the post that went out was the first ask). The buyers already
 * posted to, when the sale goes on; TAKEN_OVER when this run lost the sale before it asked, or
 * before it could settle the post with the answer (the row is then the new owner's to settle).
 */
async function resumeUnansweredPosts(sale: OpenSale): Promise<{ result: SaleResult } | { tried: Set<string> } | typeof TAKEN_OVER> {
  const { db, leadId, deps, duplicate, unsoldStatus } = sale;
  const timeline = await timelineOf(db, leadId);
  const tried = new Set(timeline.filter((e) => e.step === 'post').map((e) => e.buyer_id));
  // A post settled "unconfirmed" whose sale was never recorded (the worker stopped between the two
  // writes): its buyer was asked as often as rule 3b asks and never confirmed, so the sale ends as
  // the running one would have — unsold, offered to nobody else, deliver buyers included.
  const unconfirmed = timeline.find((x) => x.step === 'post' && x.outcome === 'unconfirmed');
  if (unconfirmed)
    return {
      result: await recordDecision(sale, sale.stored, {
        status: unsoldStatus,
        duplicate,
        reason: `${unconfirmed.buyer_id} did not confirm its answer to the post (${unconfirmed.detail}); offered to no other buyer`,
      }),
    };
  for (const e of timeline.filter((x) => x.step === 'post' && x.outcome === 'sending')) {
    const b = deps.buyers.find((x) => x.id === e.buyer_id);
    const secret = b && deps.secretOf(b);
    if (!b || !secret) {
      const interrupted = (trx: Store) => settleEvent(trx, e.id, { outcome: 'refused', detail: 'interrupted; the buyer is no longer configured' });
      if (!(await whileHeld(db, leadId, holdOf(sale), interrupted))) return TAKEN_OVER;
      return {
        result: await recordDecision(sale, sale.stored, {
          status: unsoldStatus,
          duplicate,
          reason: `sale interrupted while posting to ${e.buyer_id}, which can no longer confirm`,
        }),
      };
    }
    // the body that went out, bid id included: the buyer may hold its Idempotency-Key to it
    const offer: Offer = { buyer: b, ...(e.price_cents !== null ? { price: e.price_cents / 100 } : {}), ...offerOfSending(e.detail) };
    const r = await sendPost(sale, offer, e.id, secret, b.timeouts?.postMs ?? DEFAULT_POST_MS, CONFIRM_ASKS - 1, false);
    if (r === TAKEN_OVER) return r;
    if (typeof r === 'object' && 'unconfirmed' in r)
      return {
        result: await recordDecision(sale, sale.stored, {
          status: unsoldStatus,
          duplicate,
          reason: `sale interrupted while posting to ${b.id}, which did not confirm its answer`,
        }),
      };
    if (r !== 'refused') return { result: r };
  }
  return { tried };
}

/**
 * Who may be offered the lead (not a deliver buyer, not one already posted to); why not the others
 * goes on the timeline — only while this run holds the sale, in the transaction that checks it: a
 * worker held up before this check (a stalled database or process) that wakes after another took
 * the sale over and decided it writes no `skipped` row after that decision. TAKEN_OVER then.
 */
async function eligibleBuyers(sale: OpenSale, tried: ReadonlySet<string>): Promise<Buyer[] | typeof TAKEN_OVER> {
  const { db, leadId, deps, now, lead, duplicate } = sale;
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
  if (skipped.length && !(await whileHeld(db, leadId, holdOf(sale), (trx) => addEvents(trx, skipped)))) return TAKEN_OVER;
  return eligible;
}

/**
 * Tier by tier: the ping-post buyers pinged at once, then the bids and the direct-post buyers
 * posted to in order; the first acceptance is the sale. The recorded result when the sale ended
 * here (sold, out of time, an answer left unknown), undefined when nobody bought the lead,
 * TAKEN_OVER when the sale stopped being this run's before a ping round or a post went out, or
 * before a post was asked again (nothing more to do).
 */
async function offerByTier(sale: OpenSale, eligible: readonly Buyer[]): Promise<SaleResult | typeof TAKEN_OVER | undefined> {
  const { now, duplicate, unsoldStatus, deadline } = sale;
  const outOfTime = () => now().getTime() > deadline - 500;
  const ranOut = () => recordDecision(sale, sale.stored, { status: unsoldStatus, duplicate, reason: 'the sale ran out of time' });
  const tiers = [...new Set(eligible.map((b) => b.tier ?? 1))].sort((a, b) => a - b);
  for (const tier of tiers) {
    // A bid that came now could not be posted (the borrower's page has stopped waiting): no buyer
    // of this tier is pinged for nothing — neither offered the lead nor its rate limit spent.
    if (outOfTime()) return ranOut();
    const inTier = eligible.filter((b) => (b.tier ?? 1) === tier);
    const bids = await pingAll(
      sale,
      inTier.filter((b) => b.mode === 'ping-post'),
    );
    if (bids === TAKEN_OVER) return bids;
    for (const offer of orderOffers(
      bids,
      inTier.filter((b) => b.mode === 'direct-post'),
    )) {
      if (outOfTime()) return ranOut();
      const r = await post(sale, offer);
      if (r === 'refused') continue;
      if (r === TAKEN_OVER) return r;
      if ('unconfirmed' in r)
        return recordDecision(sale, sale.stored, {
          status: unsoldStatus,
          duplicate,
          reason: `${offer.buyer.id} did not confirm its answer to the post (${r.unconfirmed}); offered to no other buyer`,
        });
      return r;
    }
  }
  return undefined;
}

/**
 * Nobody bought the lead: the deliver buyers that want it get it through the outbox. A deliver
 * buyer's caps count the leads queued to it, reserved with the queueing (reserveDelivery: exact
 * across instances); a lead over a cap goes on the timeline as skipped, saying which. Each queueing
 * is written only while this run holds the sale, as a post's row is: a run that woke after its
 * lease ran out (its last tier's pings or post out) and another worker took the sale over and
 * decided it queues nothing — a lead the other worker sold is delivered to nobody. TAKEN_OVER
 * then. The other way round, a run that queued the deliver buyers and lost the sale before its
 * decision (its worker died, or stalled past its lease) leaves them queued for the run that takes
 * the sale over, which queues them again: their outbox rows stay one per buyer, and their
 * `queued` and cap `skipped` rows are written only with a new outbox row or a first skip — the
 * timeline says each once.
 */
async function queueDeliverBuyers(sale: OpenSale): Promise<void | typeof TAKEN_OVER> {
  const { db, leadId, deps, now, lead, duplicate } = sale;
  const hold = holdOf(sale);
  const deliver = deps.buyers.filter(
    (b) => b.mode === 'deliver' && deps.secretOf(b) && eligibility(b, lead, { now: now(), duplicate, suppressed: false, soldToday: 0, soldThisMonth: 0 }).ok,
  );
  const at = now();
  const rowOf = (b: Buyer) => {
    const t = localTime(at, b.schedule?.timeZone);
    return { leadId, destination: deliverDestination(b.id), buyerDay: t.day, buyerMonth: t.month };
  };
  const queued = (b: Buyer): NewEvent => ({ lead_id: leadId, at: at.toISOString(), buyer_id: b.id, step: 'deliver', outcome: 'queued' });
  const capped = (b: Buyer) => b.caps?.perDay !== undefined || b.caps?.perMonth !== undefined;
  const open = deliver.filter((b) => !capped(b));
  const deliveries = open.map((b) => ({ row: rowOf(b), queued: queued(b) }));
  if (!(await enqueueDeliveries(db, deliveries, at, hold))) return TAKEN_OVER;
  for (const b of deliver.filter(capped)) {
    const row = rowOf(b);
    const r = await reserveDelivery(
      db,
      row,
      queued(b),
      { perDay: b.caps?.perDay, perMonth: b.caps?.perMonth, day: row.buyerDay, month: row.buyerMonth },
      at,
      hold,
    );
    if ('notHeld' in r) return TAKEN_OVER;
  }
}
