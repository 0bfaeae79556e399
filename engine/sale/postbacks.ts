/**
 * Conversion postbacks: when a lead is sold, its brand's postback URLs (brand file "postbacks")
 * are requested server-side through the outbox — one row per lead and postback
 * ("postback:<name>"), so each is sent once and retried until the platform answers. The URL is
 * filled at send time from the stored lead and sale; every value is URL-encoded (click ids and
 * sources came from a visitor's request). Never for a test lead, nor for a visitor who opted out
 * of sale and sharing (their click ids are not given to third parties).
 */
import type { Postback } from '../../schemas/brand.types';
import type { Store } from '../store/db';
import type { LeadsTable } from '../store/leads';
import { isTestLead } from '../leads/environment';
import { isAllowedEndpoint } from './buyers';
import type { OutboxRequest } from '../outbox/notices';
import { queueOutbox } from '../store/sales';
import type { LeadSalesTable } from '../store/saleTables';

export const POSTBACK = 'postback:';
export const isPostbackRow = (destination: string): boolean => destination.startsWith(POSTBACK);

type Lead = Pick<LeadsTable, 'id' | 'brand' | 'click_id' | 'source' | 'source2' | 'currency' | 'privacy_opt_out'>;

/** The ad click ids of a lead: its click id is "gg" + gclid or "tt" + ttclid (engine/browser/tracking.ts). */
export function clickIds(clickId: string): { clickId: string; gclid: string; ttclid: string } {
  const gclid = clickId.startsWith('gg') ? clickId.slice(2) : '';
  const ttclid = clickId.startsWith('tt') ? clickId.slice(2) : '';
  return { clickId: gclid || ttclid, gclid, ttclid };
}

/** The placeholder values of a sold lead. */
export function postbackValues(lead: Lead, sale: Pick<LeadSalesTable, 'price_cents'>): Record<string, string> {
  return {
    ...clickIds(lead.click_id),
    price: ((sale.price_cents ?? 0) / 100).toFixed(2),
    currency: lead.currency,
    leadId: lead.id,
    source: lead.source,
    source2: lead.source2,
    brand: lead.brand,
  };
}

/** The template with each {placeholder} replaced by its URL-encoded value (an unknown one by nothing). */
export const fillPostback = (template: string, values: Readonly<Record<string, string>>): string =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(values[k] ?? ''));

/** The postbacks a sold lead gets: not for test leads or opted-out visitors; each one's source filter and required click id. */
export function postbacksFor(postbacks: readonly Postback[] | undefined, lead: Lead & Pick<LeadsTable, 'environment'>): Postback[] {
  if (!postbacks?.length || lead.privacy_opt_out || isTestLead(lead)) return [];
  const ids = clickIds(lead.click_id);
  return postbacks.filter((p) => (!p.sources || p.sources.includes(lead.source)) && (!p.requires || ids[p.requires]));
}

/** Outbox rows for these postbacks of a lead (again: nothing). */
export const queuePostbacks = (db: Store, leadId: string, postbacks: readonly Postback[], now: Date): Promise<void> =>
  queueOutbox(
    db,
    postbacks.map((p) => ({ leadId, destination: `${POSTBACK}${p.name}` })),
    now,
  );

/** The GET of a postback row, or why it cannot be sent now. */
export function postbackRequest(
  destination: string,
  lead: Lead,
  sale: LeadSalesTable | undefined,
  postbackOf: (brand: string, name: string) => Postback | undefined,
): OutboxRequest | { error: string } {
  const name = destination.slice(POSTBACK.length);
  const p = postbackOf(lead.brand, name);
  if (!p) return { error: `postback "${name}" is no longer configured for ${lead.brand}` };
  if (!sale || (sale.status !== 'sold' && sale.status !== 'returned')) return { error: `lead ${lead.id} is not sold` };
  const url = fillPostback(p.url, postbackValues(lead, sale));
  if (!isAllowedEndpoint(url)) return { error: `postback "${name}" is not an https URL once filled` };
  return { url, method: 'GET', idempotencyKey: `${POSTBACK}${name}:${lead.id}`, leadId: lead.id, timeoutMs: 10_000 };
}
