/**
 * A postback row ("postback:<name>", queued by the sale: engine/sale/postbacks.ts) as the GET the
 * outbox worker sends: the brand's URL filled at send time from the stored lead and sale, every
 * value URL-encoded (click ids and sources came from a visitor's request), https only.
 */
import type { Postback } from '../../schemas/brand.types';
import { isAllowedEndpoint } from '../sale/buyers';
import { clickIds, POSTBACK, type PostbackLead } from '../sale/postbacks';
import type { LeadSalesTable } from '../store/saleTables';
import type { OutboxRequest } from './notices';

export const isPostbackRow = (destination: string): boolean => destination.startsWith(POSTBACK);

/** The placeholder values of a sold lead. */
export function postbackValues(lead: PostbackLead, sale: Pick<LeadSalesTable, 'price_cents'>): Record<string, string> {
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

/** The GET of a postback row, or why it cannot be sent now. */
export function postbackRequest(
  destination: string,
  lead: PostbackLead,
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
