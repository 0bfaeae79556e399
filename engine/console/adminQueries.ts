/**
 * The console's smaller pages: the brands (hosts, whether their files are valid, page patterns,
 * visits and leads today from the daily rollups), the audit log, and the leads export (formula-safe
 * CSV through engine/browser/safeText.ts csv, the one CSV writer of the project). The export's money is
 * the sale record's, as on the overview (engine/traffic/moneyQuery.ts): each lead's sale price and
 * buyer, the time it was sold, and for a returned sale the time of the return and the price given back.
 */
import { csv } from '../browser/safeText';
import type { Catalog } from '../site/catalog';
import type { Store } from '../store/db';
import type { LeadFilter } from './leadFilter';
import { leadFilterWhere } from './leadQueries';

export interface BrandRow {
  id: string;
  name: string;
  hosts: string[];
  valid: boolean;
  problems: number;
  routes: number;
  visitsToday: number;
  leadsToday: number;
}

export async function brandRows(db: Store, catalog: Catalog, now = new Date()): Promise<BrandRow[]> {
  const today = now.toISOString().slice(0, 10);
  const counts = await db
    .selectFrom('traffic_daily')
    .select(['brand', 'metric', 'count'])
    .where('day', '=', today)
    .where('dim', '=', 'all')
    .where('metric', 'in', ['visit', 'stored'])
    .execute();
  const today_ = (brand: string, metric: string) => counts.filter((c) => c.brand === brand && c.metric === metric).reduce((s, c) => s + Number(c.count), 0);
  const ids = [...new Set([...catalog.brands.keys(), ...catalog.broken.keys()])].sort();
  return ids.map((id) => {
    const loaded = catalog.brands.get(id);
    return {
      id,
      name: loaded?.brand.name ?? id,
      hosts: loaded ? [...loaded.brand.hosts, ...(loaded.brand.blogHost ? [loaded.brand.blogHost] : [])] : [],
      valid: !!loaded,
      problems: catalog.broken.get(id)?.length ?? 0,
      routes: loaded?.routes.length ?? 0,
      visitsToday: today_(id, 'visit'),
      leadsToday: today_(id, 'stored'),
    };
  });
}

export const auditPage = (db: Store, limit = 200) =>
  db.selectFrom('console_audit').select(['id', 'at', 'actor', 'action', 'target', 'detail']).orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();

/** At most this many leads in one export (a range with more is refused with a reason, not cut). */
export const EXPORT_MAX = 50_000;

const EXPORT_COLUMNS: [string, (l: ExportLead) => string][] = [
  ['lead_id', (l) => l.id],
  ['created_at', (l) => l.created_at],
  ['brand', (l) => l.brand],
  ['first_name', (l) => l.first_name],
  ['last_name', (l) => l.last_name],
  ['email', (l) => l.email],
  ['phone', (l) => l.phone],
  ['region', (l) => l.region],
  ['amount', (l) => String(l.amount)],
  ['currency', (l) => l.currency],
  ['source', (l) => l.source],
  ['source2', (l) => l.source2],
  ['click_id', (l) => l.click_id],
  ['sale_status', (l) => l.status ?? ''],
  ['price', (l) => (l.price_cents === null ? '' : (l.price_cents / 100).toFixed(2))],
  ['sale_buyer', (l) => l.buyer_id ?? ''],
  ['sold_at', (l) => (l.status === 'sold' || l.status === 'returned' ? (l.decided_at ?? '') : '')],
  ['returned_at', (l) => l.returned_at ?? ''],
  ['refund', (l) => (l.refund_cents === null ? '' : (l.refund_cents / 100).toFixed(2))],
];
type ExportLead = {
  id: string;
  created_at: string;
  brand: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  region: string;
  amount: number;
  currency: string;
  source: string;
  source2: string;
  click_id: string;
  status: string | null;
  price_cents: number | null;
  buyer_id: string | null;
  decided_at: string | null;
  returned_at: string | null;
  refund_cents: number | null;
};

/** The leads the filter selects (as the console's leads list does), oldest first, as CSV; undefined when there are more than EXPORT_MAX. */
export async function leadsCsv(db: Store, f: LeadFilter): Promise<{ text: string; rows: number } | undefined> {
  const q = db
    .selectFrom('leads')
    .leftJoin('lead_sales', 'lead_sales.lead_id', 'leads.id')
    .leftJoin('lead_returns', 'lead_returns.lead_id', 'leads.id')
    .select([
      'leads.id',
      'leads.created_at',
      'leads.brand',
      'leads.first_name',
      'leads.last_name',
      'leads.email',
      'leads.phone',
      'leads.region',
      'leads.amount',
      'leads.currency',
      'leads.source',
      'leads.source2',
      'leads.click_id',
      'lead_sales.status',
      'lead_sales.price_cents',
      'lead_sales.buyer_id',
      'lead_sales.decided_at',
      'lead_returns.created_at as returned_at',
      'lead_returns.price_cents as refund_cents',
    ])
    .where(leadFilterWhere(f));
  const rows = await q
    .orderBy('leads.created_at')
    .orderBy('leads.id')
    .limit(EXPORT_MAX + 1)
    .execute();
  if (rows.length > EXPORT_MAX) return undefined;
  return { text: csv(rows, EXPORT_COLUMNS), rows: rows.length };
}
