/**
 * The console's smaller pages: the brands (hosts, whether their files are valid, page patterns,
 * visits and leads today from the daily rollups), the audit log, and the leads export (formula-safe
 * CSV through engine/browser/safeText.ts csv, the one CSV writer of the project). The export's money is
 * the sale record's, as on the overview (engine/traffic/moneyQuery.ts): each lead's sale price and
 * buyer, the time it was sold, and for a returned sale the time of the return and the price given back.
 * Those amounts stay in the lead's currency (the brand's); beside them, each is converted to the
 * exporting operator's currency with the rate used, and a last line, "total", sums the converted
 * sales and returns and states the rates (engine/traffic/currency.ts: the overview's cents).
 */
import { sql } from 'kysely';
import { csv } from '../browser/safeText';
import type { Catalog } from '../site/catalog';
import type { Store } from '../store/db';
import { currencyRates } from '../store/currencyRates';
import { BASE_CURRENCY, converter, convertedLines, plainMoney, ratesNote, ratesUsed, type Converter } from '../traffic/currency';
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

/**
 * How much of an entry's detail the audit page shows. A brand's publish or draft keeps the whole
 * document before and after (about 90 KB for a brand), so 200 of them made a page of some 18 MB;
 * the page shows each detail's start, and the whole one stays in the store (a brand's documents
 * are on its history page in the studio).
 */
export const AUDIT_DETAIL_SHOWN = 1000;

export async function auditPage(db: Store, limit = 200): Promise<{ id: string; at: string; actor: string; action: string; target: string; detail: string }[]> {
  const rows = await db
    .selectFrom('console_audit')
    .select(['id', 'at', 'actor', 'action', 'target'])
    // only the start is read: the rest would be read from disk and sent for nothing
    .select([sql<string>`substr(detail, 1, ${AUDIT_DETAIL_SHOWN})`.as('detail'), sql<number | string>`length(detail)`.as('length')])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(({ length, ...r }) => {
    const more = Number(length) - AUDIT_DETAIL_SHOWN;
    return more > 0 ? { ...r, detail: `${r.detail}… (${more.toLocaleString('en-US')} more characters, kept in the log)` } : r;
  });
}

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
  ['amount', (l) => (l.amount === null ? '' : String(l.amount))],
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
  ['converted_currency', (l) => l.converted.to],
  ['price_converted', (l) => cents(l.converted.priceCents)],
  ['refund_converted', (l) => cents(l.converted.refundCents)],
  ['rate', (l) => l.converted.rate],
];
const cents = (c: number | null) => (c === null ? '' : (c / 100).toFixed(2));
type ExportLead = {
  id: string;
  created_at: string;
  brand: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  region: string;
  amount: number | null;
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
  converted: { to: string; priceCents: number | null; refundCents: number | null; rate: string };
};

/**
 * The leads the filter selects (as the console's leads list does), oldest first, as CSV, then the
 * "total" line; undefined when there are more than EXPORT_MAX. Money converted by `money`
 * (default: to US dollars at the rates set).
 */
export async function leadsCsv(db: Store, f: LeadFilter, money?: Converter): Promise<{ text: string; rows: number } | undefined> {
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
  const conv = money ?? converter(BASE_CURRENCY, await currencyRates(db));
  const lines = convertedLines(conv);
  const leads: ExportLead[] = rows.map((r) => {
    const won = r.status === 'sold' || r.status === 'returned';
    const c = lines.line({
      currency: r.currency,
      priceCents: r.price_cents === null ? null : Number(r.price_cents),
      refundCents: r.refund_cents === null ? null : Number(r.refund_cents),
      won,
    });
    return { ...r, converted: { to: conv.to, priceCents: c.priceCents, refundCents: c.refundCents, rate: c.rate } };
  });
  const t = lines.totals;
  const note = ratesNote(ratesUsed(conv), conv.to, plainMoney);
  const total: ExportLead = {
    id: 'total',
    created_at: '',
    brand: '',
    first_name: '',
    last_name: '',
    email: '',
    phone: '',
    region: '',
    amount: null,
    currency: '',
    source: '',
    source2: '',
    click_id: '',
    status: `${t.sold} sold; ${t.returned} returned; revenue ${plainMoney(t.revenueCents, conv.to)}`,
    price_cents: null,
    buyer_id: null,
    decided_at: null,
    returned_at: null,
    refund_cents: null,
    converted: { to: conv.to, priceCents: t.soldCents, refundCents: t.returnedCents, rate: note || `All in ${conv.to}.` },
  };
  return { text: csv([...leads, total], EXPORT_COLUMNS), rows: rows.length };
}
