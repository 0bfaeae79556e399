/**
 * A cost report imported: parsed for its platform (./costCsv.ts), then stored, replacing the same
 * days and campaigns imported before, with an audit entry (engine/store/costs.ts). Shared by
 * `npm run costs -- import` and the console's upload form, so both refuse and accept the same files.
 */
import type { Store } from '../store/db';
import { CostCampaignClash, importCosts, type CostImportResult } from '../store/costs';
import { VISIT_VALUE_MAX } from '../browser/visitValue';
import { COST_SOURCES, DAY_ORDERS, isDayOrder, MAX_ERRORS, parseCostCsv, quotedCampaign, type CostSource } from './costCsv';

export const isCostSource = (s: string): s is CostSource => (COST_SOURCES as readonly string[]).includes(s);

export type CostImportAnswer = ({ ok: true } & CostImportResult) | { ok: false; errors: string[] };

export async function importCostReport(
  db: Store,
  opts: { text: string; source: string; actor: string; currency?: string; file?: string; now?: Date; dayOrder?: string },
): Promise<CostImportAnswer> {
  if (!isCostSource(opts.source)) return { ok: false, errors: [`Unknown source "${opts.source.slice(0, 40)}"; use one of ${COST_SOURCES.join(', ')}`] };
  if (opts.currency !== undefined && !/^[A-Za-z]{3}$/.test(opts.currency))
    return { ok: false, errors: ['The currency must be a three-letter code such as USD'] };
  const dayOrder = opts.dayOrder ?? 'month-first';
  if (!isDayOrder(dayOrder)) return { ok: false, errors: [`Unknown date order "${dayOrder.slice(0, 40)}"; use one of ${DAY_ORDERS.join(', ')}`] };
  const parsed = parseCostCsv(opts.text, opts.source, opts.currency, opts.now, dayOrder);
  if (!parsed.ok) return parsed;
  // said in the summary: the operator finds these campaigns in the console under their cut names
  const cut = new Set(parsed.rows.filter((r) => r.named !== undefined).map((r) => r.campaign)).size;
  try {
    // the audit entry says how the file was read: the currency a row without one was given, the slash days' order
    const asked = { ...(opts.currency !== undefined ? { currency: opts.currency.toUpperCase() } : {}), dayOrder };
    const done = await importCosts(db, opts.source, parsed.rows, opts.actor, { file: opts.file, now: opts.now, cut, asked });
    return { ok: true, ...done };
  } catch (err) {
    if (!(err instanceof CostCampaignClash)) throw err;
    const errors = err.clashes
      .slice(0, MAX_ERRORS)
      .map(
        (c) =>
          `${c.line !== undefined ? `line ${c.line}: ` : ''}the campaign ${quotedCampaign(c.named)} and the campaign ${quotedCampaign(c.stored)}, imported before from ${opts.source}, are the same in their first ${VISIT_VALUE_MAX} characters, all a visit keeps of a campaign, so neither their visits nor their costs can be told apart; rename one in the ad platform so that they differ within the first ${VISIT_VALUE_MAX} characters`,
      );
    return { ok: false, errors: err.clashes.length > MAX_ERRORS ? [...errors, '… and more; fix these first'] : errors };
  }
}

/** What the summary of an import adds when it cut campaigns to what a visit keeps ("" when it cut none). */
export const cutSummary = (cut: number | undefined): string =>
  cut
    ? `; ${cut} ${cut === 1 ? 'campaign' : 'campaigns'} longer than ${VISIT_VALUE_MAX} characters matched to ${cut === 1 ? 'its' : 'their'} visits by ${cut === 1 ? 'its' : 'their'} first ${VISIT_VALUE_MAX}, all a visit keeps`
    : '';
