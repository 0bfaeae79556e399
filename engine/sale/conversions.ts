/**
 * Offline conversions: the sold leads an ad platform can attribute — sold since a moment, with
 * that platform's click id, production leads only, and never a visitor who opted out of sale and
 * sharing (their click ids are not given to third parties). A returned lead is no longer sold and
 * is left out. `npm run conversions` writes them in the platform's upload format.
 */
import type { Store } from '../store/db';
import { clickIds } from './postbacks';

export interface Conversion {
  leadId: string;
  brand: string;
  gclid: string;
  ttclid: string;
  /** when the sale was decided (ISO 8601, UTC) */
  at: string;
  priceCents: number;
  currency: string;
}

export async function soldConversions(db: Store, opts: { since: Date; until?: Date; brand?: string }): Promise<Conversion[]> {
  let q = db
    .selectFrom('lead_sales')
    .innerJoin('leads', 'leads.id', 'lead_sales.lead_id')
    .select(['leads.id', 'leads.brand', 'leads.click_id', 'leads.currency', 'lead_sales.decided_at', 'lead_sales.price_cents'])
    .where('lead_sales.status', '=', 'sold')
    .where('lead_sales.decided_at', '>=', opts.since.toISOString())
    .where('leads.environment', '=', 'production')
    .where('leads.privacy_opt_out', '=', 0)
    .where('leads.click_id', '<>', '')
    .orderBy('lead_sales.decided_at');
  if (opts.until) q = q.where('lead_sales.decided_at', '<', opts.until.toISOString());
  if (opts.brand) q = q.where('leads.brand', '=', opts.brand);
  return (await q.execute()).map((r) => ({
    leadId: r.id,
    brand: r.brand,
    ...clickIds(r.click_id),
    at: r.decided_at ?? '',
    priceCents: r.price_cents ?? 0,
    currency: r.currency || 'USD',
  }));
}

/** Google Ads' conversion time: "yyyy-mm-dd hh:mm:ss+0000" (the offset written, so no time-zone parameter is needed). */
export const googleAdsTime = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 19)}+0000`;

/** The columns of the Google Ads offline-conversions upload (one row per lead with a gclid). */
export const googleAdsColumns = (conversionName: string): [string, (c: Conversion) => string][] => [
  ['Google Click ID', (c) => c.gclid],
  ['Conversion Name', () => conversionName],
  ['Conversion Time', (c) => googleAdsTime(c.at)],
  ['Conversion Value', (c) => (c.priceCents / 100).toFixed(2)],
  ['Conversion Currency', (c) => c.currency],
];
