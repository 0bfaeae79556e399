/**
 * Leads, their delivery outbox and form traces in the store.
 *
 * - insertLead stores a lead and one outbox row per destination in one transaction, once per
 *   (brand, idempotency key): a double click or a retry finds the first lead and stores nothing.
 * - claimDueDeliveries hands due outbox rows to one worker for a lease (PostgreSQL: FOR UPDATE
 *   SKIP LOCKED, so several instances never claim the same row; SQLite: one writer at a time
 *   makes the single UPDATE … RETURNING atomic). A row whose lease ran out (a worker died) is
 *   due again.
 * - markDelivered / markAttemptFailed / markRejected finish a claim, and only the claim's own worker can.
 * - form traces are sealed at rest like a lead's sensitive fields (engine/keys/sealing.ts) and
 *   opened only on demand (listFormTraces with open, for `npm run traces -- --forms`).
 */
import { randomBytes } from 'node:crypto';
import { isSealed, openText, sealText } from '../keys/sealing';
import type { LeadCertificatesTable } from './certificates';
import type { Store, StoreKind } from './db';
import { copyVisitDims } from './leadVisitDims';
import { isPostgresStore } from './trafficPartitions';

export interface LeadsTable {
  id: string;
  brand: string;
  idempotency_key: string;
  created_at: string;
  loan_kind: string;
  amount: number;
  zip: string;
  /** lower-case region code ("tx", "on", "nsw"); kept for the readers of the US-only listing */
  state: string;
  city: string;
  /** US, CA or AU: the brand's country (migration 004) */
  country: string;
  /** upper-case state, province or territory code: "TX", "ON", "NSW" */
  region: string;
  /** USD, CAD or AUD: the currency of `amount` */
  currency: string;
  purpose: string;
  /** JSON of {year, make, model, mileage} on title leads, '' otherwise */
  vehicle: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  income_source: string;
  pay_frequency: string;
  /** sealed JSON of the sensitive fields (date of birth, monthly income) */
  sealed: string;
  consent_version: string;
  consent_text: string;
  consent_hash: string;
  source: string;
  source2: string;
  click_id: string;
  session_uuid: string;
  privacy_opt_out: number;
  ip: string;
  user_agent: string;
  /** the host the lead was posted on (normalised) */
  host: string;
  /**
   * The origin its site was reached at (migration 030; engine/http/api.ts originOfRequest): its
   * certificate's page URL is built on it. '' for leads stored before it (then https://<host>).
   * Optional, so leads stored without one stay valid.
   */
  site_origin?: string;
  /** 'production', or 'test' / 'development' for a test lead (engine/leads/environment.ts) */
  environment: string;
  /** the visit (traffic_visits.id) the browser says it came from; null when it sent none. Optional, so leads stored without one stay valid. */
  visit_id?: string | null;
  /** the device class of its user agent (engine/store/trafficRules.ts deviceClass; migration 012): the money's device when the lead has no visit. Optional, so leads stored without one stay valid. */
  device?: string;
  /** its consent certificate's id (engine/store/certificates.ts; migration 014), '' for leads stored before certificates. Optional, so leads stored without one stay valid. */
  certificate_id?: string;
  /** its brand's consent provider when it was stored — trustedform, jornaya or '' — and the certificate URL or token that provider's script gave (migration 020). Optional like certificate_id. */
  consent_provider?: string;
  consent_provider_id?: string;
  /**
   * Its visit's brand, campaign, source, landing page and device, copied once the visit is stored
   * (./leadVisitDims.ts; migration 026); null while it is not. Optional, so leads stored without them stay valid.
   */
  visit_brand?: string | null;
  visit_campaign?: string | null;
  visit_source?: string | null;
  visit_landing?: string | null;
  visit_device?: string | null;
}

/** pending: due or waiting to retry; delivered: the buyer answered 2xx; rejected: the buyer refused it (4xx), not retried; failed: given up after the last retry. */
export type DeliveryStatus = 'pending' | 'delivered' | 'rejected' | 'failed';

export interface LeadDeliveriesTable {
  id: string;
  lead_id: string;
  destination: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  /** a deliver buyer's calendar day and month when the lead was queued to it, in its time zone: what its caps count (null for other destinations) */
  buyer_day: string | null;
  buyer_month: string | null;
}

export interface FormTracesTable {
  id: string;
  brand: string;
  client_id: string;
  type: string;
  /** the trace's JSON, sealed (engine/keys/sealing.ts); rows from before sealing hold plain JSON until `npm run keys -- rotate` */
  trace: string;
  ip: string;
  created_at: string;
}

/*
 * Ids sort in the order they were made: the time, then a per-process count, then random bytes. Two
 * leads with the same contact made in the same millisecond are told apart by id (the earlier one is
 * the original, the other the duplicate: engine/store/sales.ts seenBefore), so within a process the
 * one stored first must also sort first.
 */
let idSeq = 0;
export const newId = (prefix: string): string => {
  idSeq = (idSeq + 1) % 36 ** 3;
  // as long as before (28 characters for a lead), so the operators' tables show it whole
  return `${prefix}_${Date.now().toString(36)}${idSeq.toString(36).padStart(3, '0')}${randomBytes(7).toString('hex')}`;
};

/**
 * Stores a lead with an outbox row per destination, once per (brand, idempotencyKey). When the
 * key is taken, nothing is stored and the answer carries the stored lead's sealed fields, so the
 * caller can tell a retry of the same request from a different request under the same key.
 */
export async function insertLead(
  db: Store,
  lead: Omit<LeadsTable, 'id'>,
  destinations: readonly string[],
  /** the lead's consent certificate, made once its id is known; stored in the same transaction */
  certificateFor?: (leadId: string) => LeadCertificatesTable,
  /** the keyed hashes of its contact (engine/sale/contact.ts), recorded with it for the sale's duplicate check */
  contactHashes: readonly string[] = [],
): Promise<{ id: string; created: boolean; sealed?: string; certificateId?: string }> {
  let waiting = false;
  const stored = await db.transaction().execute(async (trx) => {
    const id = newId('ld');
    const inserted = await trx
      .insertInto('leads')
      .values({ ...lead, id })
      .onConflict((oc) => oc.columns(['brand', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      const existing = await trx
        .selectFrom('leads')
        .select(['id', 'sealed', 'certificate_id'])
        .where('brand', '=', lead.brand)
        .where('idempotency_key', '=', lead.idempotency_key)
        .executeTakeFirstOrThrow();
      return { id: existing.id, created: false, sealed: existing.sealed, certificateId: existing.certificate_id ?? '' };
    }
    // the visit's dimensions, when the traffic writer has stored the visit already (else it copies them when it does)
    waiting = !!lead.visit_id && !(await copyVisitDims(trx, 'lead', [id]));
    if (certificateFor) await trx.insertInto('lead_certificates').values(certificateFor(id)).execute();
    if (contactHashes.length)
      await trx
        .insertInto('contact_hashes')
        .values(contactHashes.map((hash) => ({ hash, lead_id: id, created_at: lead.created_at })))
        .onConflict((oc) => oc.columns(['hash', 'lead_id']).doNothing())
        .execute();
    if (destinations.length) {
      await trx
        .insertInto('lead_deliveries')
        .values(
          destinations.map((destination) => ({
            id: newId('dl'),
            lead_id: id,
            destination,
            status: 'pending' as const,
            attempts: 0,
            next_attempt_at: lead.created_at,
            created_at: lead.created_at,
          })),
        )
        .execute();
    }
    return { id, created: true };
  });
  // PostgreSQL: a visit stored by another instance while this lead was, neither seeing the other's rows; copy once more now this lead is committed.
  if (waiting && isPostgresStore(db)) await copyVisitDims(db, 'lead', [stored.id]);
  return stored;
}

export type ClaimedDelivery = LeadDeliveriesTable;

/** Claims up to `limit` due outbox rows for `worker` until now + leaseMs. */
export async function claimDueDeliveries(
  db: Store,
  kind: StoreKind,
  opts: { worker: string; now: Date; leaseMs: number; limit: number },
): Promise<ClaimedDelivery[]> {
  const now = opts.now.toISOString();
  const until = new Date(opts.now.getTime() + opts.leaseMs).toISOString();
  let due = db
    .selectFrom('lead_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(opts.limit);
  if (kind === 'postgres') due = due.forUpdate().skipLocked();
  return db.updateTable('lead_deliveries').set({ claimed_by: opts.worker, claimed_until: until }).where('id', 'in', due).returningAll().execute();
}

/** The lead of an outbox row. */
export async function leadById(db: Store, id: string): Promise<LeadsTable | undefined> {
  return db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks a claimed row delivered (after the destination's 2xx); false when the claim was lost meanwhile. */
export async function markDelivered(db: Store, id: string, worker: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('lead_deliveries')
    .set((eb) => ({
      status: 'delivered',
      delivered_at: now.toISOString(),
      attempts: eb('attempts', '+', 1),
      claimed_by: null,
      claimed_until: null,
      last_error: null,
    }))
    .where('id', '=', id)
    .where('claimed_by', '=', worker)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Records a failed attempt: due again at `nextAttemptAt`, or given up ('failed') when `giveUp`. */
export async function markAttemptFailed(db: Store, id: string, worker: string, opts: { error: string; nextAttemptAt: Date; giveUp: boolean }): Promise<void> {
  await db
    .updateTable('lead_deliveries')
    .set((eb) => ({
      status: opts.giveUp ? 'failed' : 'pending',
      attempts: eb('attempts', '+', 1),
      next_attempt_at: opts.nextAttemptAt.toISOString(),
      last_error: opts.error.slice(0, 500),
      claimed_by: null,
      claimed_until: null,
    }))
    .where('id', '=', id)
    .where('claimed_by', '=', worker)
    .execute();
}

/** Records a buyer's refusal of a claimed row: 'rejected' with the reason, never retried. */
export async function markRejected(db: Store, id: string, worker: string, reason: string): Promise<void> {
  await db
    .updateTable('lead_deliveries')
    .set((eb) => ({ status: 'rejected', attempts: eb('attempts', '+', 1), last_error: reason.slice(0, 500), claimed_by: null, claimed_until: null }))
    .where('id', '=', id)
    .where('claimed_by', '=', worker)
    .where('status', '=', 'pending')
    .execute();
}

export interface LeadListing {
  lead: LeadsTable;
  deliveries: Pick<LeadDeliveriesTable, 'destination' | 'status' | 'attempts' | 'last_error' | 'delivered_at'>[];
}

/** Leads stored at or after `since`, oldest first, each with its deliveries. */
export async function listLeads(db: Store, opts: { since: Date; brand?: string; limit?: number }): Promise<LeadListing[]> {
  let q = db.selectFrom('leads').selectAll().where('created_at', '>=', opts.since.toISOString());
  if (opts.brand) q = q.where('brand', '=', opts.brand);
  const leads = await q
    .orderBy('created_at')
    .orderBy('id')
    .limit(opts.limit ?? 10_000)
    .execute();
  if (!leads.length) return [];
  const deliveries = await db
    .selectFrom('lead_deliveries')
    .select(['lead_id', 'destination', 'status', 'attempts', 'last_error', 'delivered_at'])
    .where(
      'lead_id',
      'in',
      leads.map((l) => l.id),
    )
    .orderBy('destination')
    .execute();
  return leads.map((lead) => ({ lead, deliveries: deliveries.filter((d) => d.lead_id === lead.id).map(({ lead_id: _, ...d }) => d) }));
}

/** Stores a form trace (its JSON in `trace`), sealed. */
export async function recordFormTrace(db: Store, row: Omit<FormTracesTable, 'id'>): Promise<string> {
  const id = newId('ft');
  await db
    .insertInto('form_traces')
    .values({ ...row, trace: sealText(row.trace), id })
    .execute();
  return id;
}

/** A stored trace's JSON text: opened when sealed (rows from before sealing are plain JSON). */
export const openFormTrace = (stored: string): string => (isSealed(stored) ? openText(stored) : stored);

/** Form traces stored at or after `since`, oldest first; `trace` stays sealed unless `open`. */
export async function listFormTraces(db: Store, opts: { since: Date; limit?: number; brand?: string; open?: boolean }): Promise<FormTracesTable[]> {
  let q = db.selectFrom('form_traces').selectAll().where('created_at', '>=', opts.since.toISOString());
  if (opts.brand) q = q.where('brand', '=', opts.brand);
  const rows = await q
    .orderBy('created_at')
    .orderBy('id')
    .limit(opts.limit ?? 1000)
    .execute();
  return opts.open ? rows.map((r) => ({ ...r, trace: openFormTrace(r.trace) })) : rows;
}
