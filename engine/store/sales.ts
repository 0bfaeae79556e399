/**
 * The sale's queries. A sale row is held by one worker at a time through a lease (claimed_by,
 * claimed_until): claiming is one UPDATE whose WHERE says "still pending and nobody's lease is
 * running", atomic on SQLite (one writer) and on PostgreSQL (the row lock re-checks the WHERE).
 * A final status is written only by the lease holder and only over 'pending': a recorded sale is
 * never overwritten.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Store, StoreKind } from './db';
import { newId } from './leads';
import { isPostgresStore } from './trafficPartitions';
import { PING_INTERRUPTED, type LeadSalesTable, type SaleEventsTable, type SaleStatus } from './saleTables';

/** Creates the pending sale of a lead (nothing when it exists). */
export async function ensureSale(db: Store, leadId: string, now: Date): Promise<void> {
  await db
    .insertInto('lead_sales')
    .values({ lead_id: leadId, status: 'pending', duplicate: 0, runs: 0, created_at: now.toISOString() })
    .onConflict((oc) => oc.column('lead_id').doNothing())
    .execute();
}

/**
 * How long a lead without a sale is left to the request that stored it. That request screens the
 * lead first (the sale reads its score; outside scrubs may take up to 10 s), then starts its sale.
 * A sweep that took it up sooner would sell it as unscreened: past its brand's hold for review,
 * and refused by every buyer asking a minimum score. Longer than any request takes.
 */
export const ADOPT_AFTER_MS = 60_000;

/**
 * Leads stored since `since` (default: the last day), and at least ADOPT_AFTER_MS before `now`,
 * that have no sale yet (the process died between storing the lead and starting its sale).
 */
export async function adoptLeadsWithoutSale(db: Store, now: Date, since = new Date(now.getTime() - 24 * 3600_000)): Promise<number> {
  const orphans = await db
    .selectFrom('leads')
    .leftJoin('lead_sales', 'lead_sales.lead_id', 'leads.id')
    .select('leads.id')
    .where('leads.created_at', '>=', since.toISOString())
    .where('leads.created_at', '<=', new Date(now.getTime() - ADOPT_AFTER_MS).toISOString())
    .where('lead_sales.lead_id', 'is', null)
    .limit(200)
    .execute();
  for (const o of orphans) await ensureSale(db, o.id, now);
  return orphans.length;
}

/** Takes one lead's sale for `worker` until now + leaseMs; undefined when it is final or held by another. */
export async function claimSale(db: Store, leadId: string, worker: string, now: Date, leaseMs: number): Promise<LeadSalesTable | undefined> {
  const at = now.toISOString();
  return db
    .updateTable('lead_sales')
    .set((eb) => ({ claimed_by: worker, claimed_until: new Date(now.getTime() + leaseMs).toISOString(), runs: eb('runs', '+', 1) }))
    .where('lead_id', '=', leadId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
    .returningAll()
    .executeTakeFirst();
}

/** Lead ids of pending sales nobody holds (never started, or their worker died), oldest first. */
export async function dueSales(db: Store, kind: StoreKind, now: Date, limit: number): Promise<string[]> {
  let q = db
    .selectFrom('lead_sales')
    .select('lead_id')
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now.toISOString())]))
    .orderBy('created_at')
    .limit(limit);
  if (kind === 'postgres') q = q.forUpdate().skipLocked();
  return (await q.execute()).map((r) => r.lead_id);
}

export interface SaleDecision {
  status: Exclude<SaleStatus, 'pending'>;
  duplicate: boolean;
  buyerId?: string;
  priceCents?: number;
  redirectUrl?: string;
  buyerLeadId?: string;
  reason?: string;
  buyerDay?: string;
  buyerMonth?: string;
}

/**
 * One run's hold on a sale: the worker and the claim's count of runs (claimSale). The count tells
 * this run from a later one of a worker with the same name (a process's sweep takes up again a
 * sale whose lease ran out while this process still ran it).
 */
export interface SaleHold {
  worker: string;
  runs: number;
}

/**
 * Takes the sale's row lock (PostgreSQL) or the write lock (SQLite) for the rest of `trx` if this
 * run still holds the sale — nobody took it over after its lease ran out, and it is undecided.
 * Claiming the sale waits for that lock, so what `trx` writes next is on the timeline before a
 * worker taking the sale over reads it.
 */
async function stillHeld(trx: Store, leadId: string, hold: SaleHold): Promise<boolean> {
  const r = await trx
    .updateTable('lead_sales')
    .set((eb) => ({ claimed_by: eb.ref('claimed_by') }))
    .where('lead_id', '=', leadId)
    .where('status', '=', 'pending')
    .where('claimed_by', '=', hold.worker)
    .where('runs', '=', hold.runs)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Runs `write` in one transaction with the check that this run still holds the sale (stillHeld,
 * which takes the sale's lock first): every row a sale run writes to its sale — a post's `sending`
 * row, a post or ping settled with its answer, an eligibility row — goes through here, so a run
 * that lost the sale (held up past its lease while another took it over, or past the other's
 * decision) writes nothing over the rows of the run that owns it now. `{ value }` of `write`, or
 * undefined, and nothing written, when the sale is no longer this run's.
 */
export async function whileHeld<T>(db: Store, leadId: string, hold: SaleHold, write: (trx: Store) => Promise<T>): Promise<{ value: T } | undefined> {
  return db.transaction().execute(async (trx) => ((await stillHeld(trx, leadId, hold)) ? { value: await write(trx) } : undefined));
}

export { PING_INTERRUPTED };

/**
 * Settles `interrupted` the pings an earlier run of this sale left `sending`: that run's worker
 * died with them out, or stalled past its lease while they were out and lost the sale — it then
 * settles nothing (a run writes only while it holds the sale), so no answer of theirs will ever be
 * recorded, and a row left `sending` would say for good that a ping is still out. Written only
 * while this run holds the sale (whileHeld), which a run that took it over does from its claim
 * on: each such row is settled once, by the run that holds the sale when it is found, and the run
 * that lost the sale writes nothing. Each row keeps its ping's id. False, and nothing written,
 * when the sale is no longer this run's.
 */
export async function settleInterruptedPings(db: Store, leadId: string, hold: SaleHold): Promise<boolean> {
  const settled = await whileHeld(db, leadId, hold, (trx) =>
    trx
      .updateTable('sale_events')
      .set((eb) => ({ outcome: 'interrupted', detail: sql<string>`cast(${`${PING_INTERRUPTED} (`} as text) || ${eb.ref('detail')} || ')'` }))
      .where('lead_id', '=', leadId)
      .where('step', '=', 'ping')
      .where('outcome', '=', 'sending')
      .execute(),
  );
  return settled !== undefined;
}

/**
 * Records an event only while this run holds the sale (whileHeld): a post's `sending` row, written
 * before the lead goes out. Its id, or undefined when the sale was taken over: the lead must not go out.
 */
export async function addEventHolding(db: Store, e: NewEvent, hold: SaleHold): Promise<string | undefined> {
  return (await whileHeld(db, e.lead_id, hold, (trx) => addEvent(trx, e)))?.value;
}

/**
 * Whether this run still holds the sale (as stillHeld, but a plain read that takes no lock), read
 * before a request to a buyer that writes no row first: a post asked again with the same
 * Idempotency-Key (its row is already there; its answer is settled through whileHeld).
 */
export async function holdsSale(db: Store, leadId: string, hold: SaleHold): Promise<boolean> {
  const row = await db
    .selectFrom('lead_sales')
    .select('lead_id')
    .where('lead_id', '=', leadId)
    .where('status', '=', 'pending')
    .where('claimed_by', '=', hold.worker)
    .where('runs', '=', hold.runs)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records the outcome; false when this worker no longer holds the sale (nothing written). `runs`: and only for the run that claimed it so. */
export async function finishSale(db: Store, leadId: string, worker: string, d: SaleDecision, now: Date, runs?: number): Promise<boolean> {
  const r = await db
    .updateTable('lead_sales')
    .set({
      status: d.status,
      duplicate: d.duplicate ? 1 : 0,
      buyer_id: d.buyerId ?? null,
      price_cents: d.priceCents ?? null,
      redirect_url: d.redirectUrl ?? null,
      buyer_lead_id: d.buyerLeadId ?? null,
      reason: d.reason?.slice(0, 500) ?? null,
      buyer_day: d.buyerDay ?? null,
      buyer_month: d.buyerMonth ?? null,
      claimed_by: null,
      claimed_until: null,
      decided_at: now.toISOString(),
    })
    .where('lead_id', '=', leadId)
    .where('status', '=', 'pending')
    .where('claimed_by', '=', worker)
    .$if(runs !== undefined, (q) => q.where('runs', '=', runs!))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function saleOf(db: Store, leadId: string): Promise<LeadSalesTable | undefined> {
  return db.selectFrom('lead_sales').selectAll().where('lead_id', '=', leadId).executeTakeFirst();
}

/** Leads sold to a buyer on its calendar day and month (across every instance: counted in the store). */
export async function soldCounts(db: Store, buyerId: string, day: string, month: string): Promise<{ day: number; month: number }> {
  const row = await db
    .selectFrom('lead_sales')
    .select([
      sql<number>`sum(case when buyer_day = ${day} then 1 else 0 end)`.as('day'),
      sql<number>`sum(case when buyer_month = ${month} then 1 else 0 end)`.as('month'),
    ])
    .where('buyer_id', '=', buyerId)
    .where('status', '=', 'sold')
    .where('buyer_month', '=', month)
    .executeTakeFirst();
  return { day: Number(row?.day ?? 0), month: Number(row?.month ?? 0) };
}

/** A buyer's caps as the sale counts them: its limits, and its calendar day and month now. */
export interface CapWindow {
  perDay?: number | undefined;
  perMonth?: number | undefined;
  day: string;
  month: string;
}

/**
 * Records a post about to go out to a capped buyer (its `sending` row) only if the buyer's caps
 * leave room, counting the sales recorded and the posts still out (sending, their sale pending).
 * Check and record are one transaction holding a lock per buyer — an advisory lock on
 * PostgreSQL, the write lock on SQLite (taken by stillHeld's update before the count) — so two
 * instances can never both take the last place: caps hold exactly. The event id; or, when the cap
 * is full, the buyer's `skipped` row on the timeline instead, saying why, in the same transaction;
 * nothing at all written when this run no longer holds the sale (whileHeld).
 */
export async function reservePost(db: Store, e: NewEvent, cap: CapWindow, hold: SaleHold): Promise<{ id: string } | { full: string } | { notHeld: true }> {
  return db.transaction().execute(async (trx) => {
    if (isPostgresStore(db)) await sql`select pg_advisory_xact_lock(hashtext(${`loansites sale cap ${e.buyer_id}`}))`.execute(trx);
    // after the wait for the buyer's lock, which may outlast the lease (addEventHolding)
    if (!(await stillHeld(trx, e.lead_id, hold))) return { notHeld: true as const };
    // One statement, one snapshot: a sale finishing meanwhile is counted once, as sold or as being posted.
    const { rows } = await sql<{ day: number | string; month: number | string; out: number | string }>`
      select
        (select count(*) from lead_sales where buyer_id = ${e.buyer_id} and status = 'sold' and buyer_day = ${cap.day}) as day,
        (select count(*) from lead_sales where buyer_id = ${e.buyer_id} and status = 'sold' and buyer_month = ${cap.month}) as month,
        (select count(*) from sale_events join lead_sales on lead_sales.lead_id = sale_events.lead_id
          where sale_events.buyer_id = ${e.buyer_id} and sale_events.step = 'post' and sale_events.outcome = 'sending'
            and lead_sales.status = 'pending') as out`.execute(trx);
    const sold = { day: Number(rows[0]?.day ?? 0), month: Number(rows[0]?.month ?? 0) };
    const inFlight = Number(rows[0]?.out ?? 0);
    let reason = '';
    if (cap.perDay !== undefined && sold.day + inFlight >= cap.perDay) reason = `daily cap ${cap.perDay} reached (${sold.day} sold, ${inFlight} being posted)`;
    else if (cap.perMonth !== undefined && sold.month + inFlight >= cap.perMonth)
      reason = `monthly cap ${cap.perMonth} reached (${sold.month} sold, ${inFlight} being posted)`;
    if (reason) {
      await addEvent(trx, { lead_id: e.lead_id, at: e.at, buyer_id: e.buyer_id, step: 'eligibility', outcome: 'skipped', detail: reason });
      return { full: reason };
    }
    return { id: await addEvent(trx, e) };
  });
}

export type NewEvent = Omit<SaleEventsTable, 'id' | 'price_cents' | 'latency_ms' | 'detail'> &
  Partial<Pick<SaleEventsTable, 'price_cents' | 'latency_ms' | 'detail'>>;

/*
 * A sale writes several events within one millisecond (skips, queued deliveries, the decision);
 * the timeline orders by time and then id, so ids carry a per-process counter after the time:
 * events of one sale (run by one worker under its lease) sort in the order they were written.
 */
let eventSeq = 0;
const eventId = (): string => {
  eventSeq = (eventSeq + 1) % 36 ** 6;
  return `se_${Date.now().toString(36).padStart(9, '0')}${eventSeq.toString(36).padStart(6, '0')}${randomBytes(4).toString('hex')}`;
};

export async function addEvent(db: Store, e: NewEvent): Promise<string> {
  const id = eventId();
  await db
    .insertInto('sale_events')
    .values({ price_cents: null, latency_ms: null, ...e, id, detail: (e.detail ?? '').slice(0, 500) })
    .execute();
  return id;
}

/** Adds the events in one insert; their ids, in the same order. */
export async function addEvents(db: Store, events: readonly NewEvent[]): Promise<string[]> {
  if (!events.length) return [];
  const rows = events.map((e) => ({ price_cents: null, latency_ms: null, ...e, id: eventId(), detail: (e.detail ?? '').slice(0, 500) }));
  await db.insertInto('sale_events').values(rows).execute();
  return rows.map((r) => r.id);
}

export async function settleEvent(
  db: Store,
  id: string,
  e: Pick<SaleEventsTable, 'outcome'> & Partial<Pick<SaleEventsTable, 'latency_ms' | 'detail' | 'price_cents'>>,
): Promise<void> {
  await db
    .updateTable('sale_events')
    .set({ ...e, ...(e.detail !== undefined ? { detail: e.detail.slice(0, 500) } : {}) })
    .where('id', '=', id)
    .execute();
}

/**
 * Settles events written earlier (addEvents) with their answers, in one statement: an upsert of
 * the rows as first written, by id, that takes the new outcome, latency, price and detail and
 * keeps the rest (the time it was sent). A sale settles all its pings at once; one update each
 * cost a statement per buyer on every sale.
 */
export async function settleEvents(db: Store, events: readonly (NewEvent & { id: string })[]): Promise<void> {
  if (!events.length) return;
  await db
    .insertInto('sale_events')
    .values(events.map((e) => ({ price_cents: null, latency_ms: null, ...e, detail: (e.detail ?? '').slice(0, 500) })))
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        outcome: eb.ref('excluded.outcome'),
        latency_ms: eb.ref('excluded.latency_ms'),
        price_cents: eb.ref('excluded.price_cents'),
        detail: eb.ref('excluded.detail'),
      })),
    )
    .execute();
}

/** The sale's timeline, in order. */
export async function timelineOf(db: Store, leadId: string): Promise<SaleEventsTable[]> {
  return db.selectFrom('sale_events').selectAll().where('lead_id', '=', leadId).orderBy('at').orderBy('id').execute();
}

/** Posts that went out and whose answer was never recorded (the worker died waiting). */
export async function unsettledPosts(db: Store, leadId: string): Promise<SaleEventsTable[]> {
  return db.selectFrom('sale_events').selectAll().where('lead_id', '=', leadId).where('step', '=', 'post').where('outcome', '=', 'sending').execute();
}

/** Records a lead's contact hashes (again: nothing). */
export async function recordContacts(db: Store, leadId: string, hashes: readonly string[], createdAt: string): Promise<void> {
  if (!hashes.length) return;
  await db
    .insertInto('contact_hashes')
    .values(hashes.map((hash) => ({ hash, lead_id: leadId, created_at: createdAt })))
    .onConflict((oc) => oc.columns(['hash', 'lead_id']).doNothing())
    .execute();
}

/** Whether an earlier lead (by time, then id) had one of these contacts within the window. */
export async function seenBefore(db: Store, leadId: string, hashes: readonly string[], createdAt: string, windowMs: number): Promise<boolean> {
  if (!hashes.length) return false;
  const from = new Date(Date.parse(createdAt) - windowMs).toISOString();
  const row = await db
    .selectFrom('contact_hashes')
    .select('lead_id')
    .where('hash', 'in', hashes)
    .where('lead_id', '<>', leadId)
    .where('created_at', '>=', from)
    .where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('lead_id', '<', leadId)])]))
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export async function isSuppressed(db: Store, hashes: readonly string[]): Promise<boolean> {
  if (!hashes.length) return false;
  return !!(await db.selectFrom('suppressions').select('hash').where('hash', 'in', hashes).limit(1).executeTakeFirst());
}

/**
 * Outbox rows (lead, destination) for the worker to send: deliver buyers of an unsold lead,
 * postbacks of a sale, opt-out notices. A row already queued for that lead and destination stays
 * as it was, so a resumed sale or a repeated opt-out queues nothing twice.
 */
export async function queueOutbox(db: Store, rows: readonly OutboxRow[], now: Date): Promise<void> {
  if (!rows.length) return;
  await db
    .insertInto('lead_deliveries')
    .values(rows.map((r) => outboxValues(r, now)))
    .onConflict((oc) => oc.columns(['lead_id', 'destination']).doNothing())
    .execute();
}

/** An outbox row to queue; a deliver buyer's carries the buyer's calendar day and month (what its caps count). */
export interface OutboxRow {
  leadId: string;
  destination: string;
  buyerDay?: string;
  buyerMonth?: string;
}

const outboxValues = (r: OutboxRow, now: Date) => ({
  id: newId('dl'),
  lead_id: r.leadId,
  destination: r.destination,
  status: 'pending' as const,
  attempts: 0,
  next_attempt_at: now.toISOString(),
  created_at: now.toISOString(),
  buyer_day: r.buyerDay ?? null,
  buyer_month: r.buyerMonth ?? null,
});

/** A deliver buyer's outbox row and the `queued` event that says so on the sale's timeline. */
export interface Delivery {
  row: OutboxRow;
  queued: NewEvent;
}

/**
 * Outbox rows for the uncapped deliver buyers of an unsold lead (the existing worker sends them),
 * with their queued events, in one transaction and only while this run holds the sale (stillHeld):
 * a run that woke after its lease ran out and another worker took the sale over queues nothing —
 * no delivery of a lead the other worker sold. False then. A row already queued (by an earlier
 * run that lost the sale before its decision: its worker died or stalled past its lease) stays as
 * it was, and its event is not written again: the timeline says once that the lead was queued.
 */
export async function enqueueDeliveries(db: Store, deliveries: readonly Delivery[], now: Date, hold: SaleHold): Promise<boolean> {
  const leadId = deliveries[0]?.row.leadId;
  if (leadId === undefined) return true; // nothing to queue: the decision that follows checks the hold itself
  return db.transaction().execute(async (trx) => {
    if (!(await stillHeld(trx, leadId, hold))) return false;
    const inserted = await trx
      .insertInto('lead_deliveries')
      .values(deliveries.map((d) => outboxValues(d.row, now)))
      .onConflict((oc) => oc.columns(['lead_id', 'destination']).doNothing())
      .returning('destination')
      .execute();
    const fresh = new Set(inserted.map((r) => r.destination));
    await addEvents(
      trx,
      deliveries.filter((d) => fresh.has(d.row.destination)).map((d) => d.queued),
    );
    return true;
  });
}

/**
 * Queues a lead to a capped deliver buyer (its outbox row, with the buyer's day and month, and
 * the `queued` event) only if the buyer's caps leave room, counting the leads queued to it that
 * day and month — each lead once (one row per lead and destination), whatever came of its
 * delivery. As reservePost: check and write are one transaction holding the buyer's lock (an
 * advisory lock on PostgreSQL, the write lock on SQLite, taken by stillHeld's update before the
 * count), so two instances never both take the last place. A lead already queued to it (a resumed
 * sale) stays queued, nothing written again. When the cap is full, `skipped` goes on the timeline
 * instead, saying why — once: a resumed sale that finds the cap still full adds no second row.
 * Nothing at all written when this run no longer holds the sale.
 */
export async function reserveDelivery(
  db: Store,
  row: OutboxRow & { buyerDay: string; buyerMonth: string },
  queued: NewEvent,
  cap: CapWindow,
  now: Date,
  hold: SaleHold,
): Promise<{ queued: true } | { full: string } | { notHeld: true }> {
  return db.transaction().execute(async (trx) => {
    if (isPostgresStore(db)) await sql`select pg_advisory_xact_lock(hashtext(${`loansites sale cap ${queued.buyer_id}`}))`.execute(trx);
    // after the wait for the buyer's lock, as reservePost: a run that lost the sale queues nothing
    if (!(await stillHeld(trx, row.leadId, hold))) return { notHeld: true as const };
    const already = await trx
      .selectFrom('lead_deliveries')
      .select('id')
      .where('lead_id', '=', row.leadId)
      .where('destination', '=', row.destination)
      .executeTakeFirst();
    if (already) return { queued: true as const };
    const counted = await trx
      .selectFrom('lead_deliveries')
      .select([sql<number>`sum(case when buyer_day = ${row.buyerDay} then 1 else 0 end)`.as('day'), sql<number>`count(*)`.as('month')])
      .where('destination', '=', row.destination)
      .where('buyer_month', '=', row.buyerMonth)
      .executeTakeFirst();
    const n = { day: Number(counted?.day ?? 0), month: Number(counted?.month ?? 0) };
    let reason = '';
    if (cap.perDay !== undefined && n.day >= cap.perDay) reason = `daily cap ${cap.perDay} reached (${n.day} queued)`;
    else if (cap.perMonth !== undefined && n.month >= cap.perMonth) reason = `monthly cap ${cap.perMonth} reached (${n.month} queued)`;
    if (reason) {
      // a deliver buyer is skipped on the timeline only here (the sale's eligibility leaves deliver buyers out)
      const told = await trx
        .selectFrom('sale_events')
        .select('id')
        .where('lead_id', '=', row.leadId)
        .where('buyer_id', '=', queued.buyer_id)
        .where('step', '=', 'eligibility')
        .where('outcome', '=', 'skipped')
        .executeTakeFirst();
      if (!told) await addEvent(trx, { ...queued, step: 'eligibility', outcome: 'skipped', detail: reason });
      return { full: reason };
    }
    await trx.insertInto('lead_deliveries').values(outboxValues(row, now)).execute();
    await addEvent(trx, queued);
    return { queued: true as const };
  });
}

/** Leads queued to a deliver buyer on its calendar day and month (what its caps count: reserveDelivery). */
export async function queuedCounts(db: Store, destination: string, day: string, month: string): Promise<{ day: number; month: number }> {
  const row = await db
    .selectFrom('lead_deliveries')
    .select([sql<number>`sum(case when buyer_day = ${day} then 1 else 0 end)`.as('day'), sql<number>`count(*)`.as('month')])
    .where('destination', '=', destination)
    .where('buyer_month', '=', month)
    .executeTakeFirst();
  return { day: Number(row?.day ?? 0), month: Number(row?.month ?? 0) };
}

/** The sales of these leads, by lead id. */
export async function salesOf(db: Store, leadIds: readonly string[]): Promise<Map<string, LeadSalesTable>> {
  const out = new Map<string, LeadSalesTable>();
  for (let i = 0; i < leadIds.length; i += 500) {
    const rows = await db
      .selectFrom('lead_sales')
      .selectAll()
      .where('lead_id', 'in', leadIds.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.lead_id, r);
  }
  return out;
}
