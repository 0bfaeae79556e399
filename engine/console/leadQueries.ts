/**
 * What the console's lead pages read: a page of leads (newest first, filtered by brand, or found
 * by an exact lead id, email or phone), and one lead with its visit, consent snapshot, sale,
 * sale timeline and deliveries. Personal data leaves here only through leadForRole
 * (engine/console/masking.ts); a reveal counts for REVEAL_MS after its audit row.
 */
import type { Store } from '../store/db';
import type { LeadsTable } from '../store/leads';
import { leadForRole, maskUrl } from './masking';
import type { Role } from './roles';

export const LEADS_PAGE_SIZE = 50;
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
  status: string;
  price_cents: number | null;
  masked: boolean;
}

/** How a search text is read: a lead id, an email or a phone number (digits only); exact matches only. */
export function searchOf(text: string): { column: 'id' | 'email' | 'phone'; value: string } | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (/^ld_[a-z0-9]+$/i.test(t)) return { column: 'id', value: t };
  if (t.includes('@')) return { column: 'email', value: t.toLowerCase() };
  const digits = t.replace(/\D/g, '');
  // stored as national digits (engine/browser/regions.ts normalisePhoneFor): a US/CA +1 is dropped
  if (digits.length >= 7) return { column: 'phone', value: digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits };
  return { column: 'id', value: t };
}

export async function listLeadsPage(
  db: Store,
  role: Role,
  opts: { brand?: string; search?: string; page: number },
): Promise<{ rows: LeadRow[]; more: boolean }> {
  let q = db
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
      'lead_sales.price_cents',
    ]);
  if (opts.brand) q = q.where('leads.brand', '=', opts.brand);
  const search = searchOf(opts.search ?? '');
  if (search) q = q.where(`leads.${search.column}`, '=', search.value);
  const rows = await q
    .orderBy('leads.created_at', 'desc')
    .orderBy('leads.id', 'desc')
    .limit(LEADS_PAGE_SIZE + 1)
    .offset(Math.max(0, opts.page) * LEADS_PAGE_SIZE)
    .execute();
  const seen = rows.slice(0, LEADS_PAGE_SIZE).map((r) => leadForRole({ ...r, status: r.status ?? 'none', price_cents: r.price_cents ?? null }, role, false)!);
  return { rows: seen, more: rows.length > LEADS_PAGE_SIZE };
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

export async function leadDetail(db: Store, role: Role, id: string, revealed: boolean) {
  const lead = await db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!lead) return undefined;
  const { sealed: _s, ip: _i, consent_hash: _h, ...shown } = lead;
  const [visit, sale, events, deliveries] = await Promise.all([
    lead.visit_id ? db.selectFrom('traffic_visits').selectAll().where('id', '=', lead.visit_id).executeTakeFirst() : undefined,
    db
      .selectFrom('lead_sales')
      .select(['status', 'buyer_id', 'price_cents', 'redirect_url', 'reason', 'created_at', 'decided_at'])
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
  return {
    lead: view,
    visit: visit ?? null,
    sale: sale ? { ...sale, redirect_url: sentTo(sale.redirect_url) } : null,
    events: events.map((e) => (e.step === 'post' && e.outcome === 'accepted' ? { ...e, detail: sentTo(e.detail) ?? '' } : e)),
    deliveries,
  };
}
