/**
 * What the console's lead pages read: a page of leads (filtered and sorted as
 * engine/console/leadFilter.ts reads the query, by keyset), and one lead with its visit, consent snapshot, sale,
 * sale timeline and deliveries. Personal data leaves here only through leadForRole
 * (engine/console/masking.ts); a reveal counts for REVEAL_MS after its audit row. A pending sale
 * is read against the clock (saleProgress): a sale whose worker died mid-sale is still `pending` in
 * the store until the sweep takes it up, and must not read as one being sold.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, Store } from '../store/db';
import type { LeadsTable } from '../store/leads';
import { PING_INTERRUPTED } from '../store/saleTables';
import { leadForRole, maskPersonalText, maskUrl } from './masking';
import type { Role } from './roles';
import { cursorText, type LeadFilter, type LeadListQuery } from './leadFilter';

/** How long an analyst's reveal of one lead lasts. */
export const REVEAL_MS = 15 * 60_000;

export interface LeadRow {
  id: string;
  created_at: string;
  brand: string;
  region: string;
  amount: number;
  currency: string;
  loan_kind: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  source: string;
  /** the sale's status as saleStatusAt shows it ('none': the lead has no sale) */
  status: string;
  buyer_id: string | null;
  price_cents: number | null;
  masked: boolean;
}

const likePrefix = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`) + '%';

/**
 * The filter as one condition on `leads` (the sale by subquery, so the list and the CSV export,
 * whose joins differ, apply exactly the same rows). Campaign and source are the lead's visit's,
 * read from the lead's copy of them (engine/store/leadVisitDims.ts) as the overview reads them
 * (engine/traffic/moneyQuery.ts): no visit, or one not stored yet, matches no campaign.
 */
export function leadFilterWhere(f: LeadFilter) {
  return (eb: ExpressionBuilder<Database, 'leads'>) => {
    const all: Expression<SqlBool>[] = [];
    if (f.from) all.push(eb('leads.created_at', '>=', f.from));
    if (f.to) all.push(eb('leads.created_at', '<', f.to));
    if (f.brand) all.push(eb('leads.brand', '=', f.brand));
    if (f.state) all.push(eb('leads.region', '=', f.state));
    if (f.status === 'test') all.push(eb('leads.environment', '!=', 'production'));
    else if (f.status)
      all.push(
        eb.exists(
          eb.selectFrom('lead_sales').select('lead_sales.lead_id').whereRef('lead_sales.lead_id', '=', 'leads.id').where('lead_sales.status', '=', f.status),
        ),
      );
    if (f.buyer)
      all.push(
        eb.exists(
          eb.selectFrom('lead_sales').select('lead_sales.lead_id').whereRef('lead_sales.lead_id', '=', 'leads.id').where('lead_sales.buyer_id', '=', f.buyer),
        ),
      );
    if (f.campaign) all.push(eb('leads.visit_campaign', '=', f.campaign));
    if (f.source) all.push(eb('leads.visit_source', '=', f.source));
    const s = f.search;
    if (s && s.prefix) all.push(sql<SqlBool>`${sql.ref(`leads.${s.column}`)} like ${likePrefix(s.value)} escape '\\'`);
    else if (s) all.push(eb(`leads.${s.column}`, '=', s.value));
    return eb.and(all);
  };
}

export interface LeadsPage {
  rows: LeadRow[];
  /** the cursors of the next (older, for newest first) and previous pages, when there are any */
  next?: string;
  prev?: string;
}

/**
 * One page of the list by keyset: the rows after (or before) the cursor's sort value and id, so a
 * lead stored meanwhile neither shifts a page nor appears twice, and a deep page costs what the
 * first does (an OFFSET would read and drop every row before it).
 */
export async function listLeadsPage(
  db: Store,
  role: Role,
  q: Pick<LeadListQuery, 'filter' | 'sort' | 'dir' | 'size' | 'cursor'>,
  now: Date = new Date(),
): Promise<LeadsPage> {
  const col = q.sort === 'amount' ? 'leads.amount' : 'leads.created_at';
  const back = q.cursor?.back === true;
  // Going back walks the other way and turns the page around afterwards.
  const dir = (q.dir === 'desc') !== back ? 'desc' : 'asc';
  const cmp = dir === 'desc' ? '<' : '>';
  let query = db
    .selectFrom('leads')
    .leftJoin('lead_sales', 'lead_sales.lead_id', 'leads.id')
    .select([
      'leads.id',
      'leads.created_at',
      'leads.brand',
      'leads.region',
      'leads.amount',
      'leads.currency',
      'leads.loan_kind',
      'leads.first_name',
      'leads.last_name',
      'leads.email',
      'leads.phone',
      'leads.source',
      'lead_sales.status',
      'lead_sales.buyer_id',
      'lead_sales.price_cents',
      'lead_sales.claimed_until',
      'lead_sales.created_at as sale_created_at',
    ])
    .where(leadFilterWhere(q.filter));
  const c = q.cursor;
  if (c) query = query.where((eb) => eb.or([eb(col, cmp, c.value as never), eb.and([eb(col, '=', c.value as never), eb('leads.id', cmp, c.id)])]));
  const found = await query
    .orderBy(col, dir)
    .orderBy('leads.id', dir)
    .limit(q.size + 1)
    .execute();
  const more = found.length > q.size;
  const page = found.slice(0, q.size);
  if (back) page.reverse();
  const rows = page.map(({ claimed_until, sale_created_at, ...r }) => {
    const status = r.status && sale_created_at ? saleStatusAt({ status: r.status, claimed_until, created_at: sale_created_at }, now) : 'none';
    return leadForRole({ ...r, status, price_cents: r.price_cents ?? null }, role, false)!;
  });
  const at = (r: LeadRow | undefined) => (r ? cursorText({ value: q.sort === 'amount' ? r.amount : r.created_at, id: r.id }) : undefined);
  const next = back ? (c ? at(rows.at(-1)) : undefined) : more ? at(rows.at(-1)) : undefined;
  const prev = back ? (more ? at(rows[0]) : undefined) : c ? at(rows[0]) : undefined;
  return { rows, ...(next ? { next } : {}), ...(prev ? { prev } : {}) };
}

/** Whether `actor` revealed this lead within REVEAL_MS (the audit log is the record of reveals). */
export async function revealedBy(db: Store, actor: string, leadId: string, now = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom('console_audit')
    .select('id')
    .where('actor', '=', actor)
    .where('action', '=', 'reveal')
    .where('target', '=', leadId)
    .where('at', '>', new Date(now.getTime() - REVEAL_MS).toISOString())
    .executeTakeFirst();
  return !!row;
}

export type LeadView = Omit<LeadsTable, 'sealed' | 'ip' | 'consent_hash'> & { masked: boolean };

/**
 * Where an undecided sale stands at `now`. selling: a worker holds its lease (it runs, or is
 * between steps); interrupted: it had one and the lease ran out before a decision (its process
 * died or stalled) -- the sale sweep takes it up again (engine/outbox/saleWorker.ts); waiting: no
 * worker has taken it up yet (queued behind other sales, or its process died before starting it).
 */
export type SaleProgress = 'decided' | 'waiting' | 'selling' | 'interrupted';

/** How long past its lease (or its creation, never taken up) a pending sale is before the page says no sweep has taken it up. */
export const SALE_OVERDUE_MS = 60_000;

/** What a 'sending' post's row says once its sale's lease ran out, before the row's own detail. */
export const POST_INTERRUPTED =
  "its answer was not recorded: the sale's worker stopped while the post was out; the sale's next run asks the buyer again with the same Idempotency-Key";

export function saleProgress(
  sale: { status: string; claimed_until: string | null; created_at: string },
  now: Date,
): { progress: SaleProgress; overdue: boolean } {
  if (sale.status !== 'pending') return { progress: 'decided', overdue: false };
  const until = sale.claimed_until === null ? undefined : Date.parse(sale.claimed_until);
  if (until !== undefined && until > now.getTime()) return { progress: 'selling', overdue: false };
  const since = until ?? Date.parse(sale.created_at);
  return { progress: until === undefined ? 'waiting' : 'interrupted', overdue: now.getTime() - since > SALE_OVERDUE_MS };
}

/**
 * A sale's status as the leads list and `npm run leads` show it at `now`: a pending sale says
 * whether a process is selling it (`pending: selling`) or its lease ran out before a decision
 * (`pending: interrupted`, the sweep takes it up again) -- a plain `pending` only while no worker
 * has taken it up yet. A decided sale's status as stored.
 */
export function saleStatusAt(sale: { status: string; claimed_until: string | null; created_at: string }, now: Date): string {
  const { progress } = saleProgress(sale, now);
  return progress === 'selling' || progress === 'interrupted' ? `pending: ${progress}` : sale.status;
}

/**
 * One lead as its console page shows it, read at `now`: its sale's progress (saleProgress) and, on
 * a sale no worker holds (its lease ran out, or decided), its pings and posts still recorded
 * `sending` shown `interrupted` -- nobody awaits their answers. A ping's row then says what the run
 * taking the sale up will write over it (settleInterruptedPings); a post's, that it will be asked again.
 */
export async function leadDetail(db: Store, role: Role, id: string, revealed: boolean, now: Date | number = new Date()) {
  const at = new Date(now);
  const lead = await db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!lead) return undefined;
  const { sealed: _s, ip: _i, consent_hash: _h, ...shown } = lead;
  const [visit, sale, events, deliveries] = await Promise.all([
    lead.visit_id ? db.selectFrom('traffic_visits').selectAll().where('id', '=', lead.visit_id).executeTakeFirst() : undefined,
    db
      .selectFrom('lead_sales')
      .select(['status', 'buyer_id', 'price_cents', 'redirect_url', 'reason', 'created_at', 'decided_at', 'claimed_until', 'runs'])
      .where('lead_id', '=', id)
      .executeTakeFirst(),
    db
      .selectFrom('sale_events')
      .select(['id', 'at', 'buyer_id', 'step', 'outcome', 'price_cents', 'latency_ms', 'detail'])
      .where('lead_id', '=', id)
      .orderBy('at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('lead_deliveries')
      .select(['destination', 'status', 'attempts', 'last_error', 'delivered_at'])
      .where('lead_id', '=', id)
      .orderBy('destination')
      .execute(),
  ]);
  const view = leadForRole(shown, role, revealed) as LeadView | undefined;
  // Where the borrower was sent (the sale's redirect, and the accepted post's detail) is masked with the person.
  const masked = view?.masked !== false;
  const sentTo = (url: string | null) => (url && masked ? maskUrl(url) : url);
  // what buyers and receivers said about the lead may quote the person back: masked with them
  const said = <T extends string | null>(text: T): T => (text && masked ? (maskPersonalText(text, lead) as T) : text);
  const progress = sale ? saleProgress(sale, at) : undefined;
  const dead = progress?.progress !== 'selling';
  const shownEvent = (e: (typeof events)[number]) => {
    if (e.outcome !== 'sending' || !dead || (e.step !== 'ping' && e.step !== 'post')) return e;
    return { ...e, outcome: 'interrupted' as const, detail: `${e.step === 'ping' ? PING_INTERRUPTED : POST_INTERRUPTED} (${e.detail})` };
  };
  return {
    lead: view,
    visit: visit ?? null,
    sale: sale
      ? {
          ...sale,
          redirect_url: sentTo(sale.redirect_url),
          reason: said(sale.reason),
          ...progress!,
        }
      : null,
    events: events
      .map(shownEvent)
      .map((e) => (e.step === 'post' && e.outcome === 'accepted' ? { ...e, detail: sentTo(e.detail) ?? '' } : { ...e, detail: said(e.detail) })),
    deliveries: deliveries.map((d) => ({ ...d, last_error: said(d.last_error) })),
  };
}
