/**
 * Ad costs (migrations/014_money_costs.ts): stored a day, source and campaign at a time. An
 * import replaces the rows of the days and campaigns its file holds, in one transaction with its
 * audit entry, so a report imported twice counts once and every import is on record.
 */
import type { Store } from './db';
import { audit } from './console';

export interface AdCostsTable {
  day: string;
  source: string;
  campaign: string;
  cost_cents: number | string;
  currency: string;
  clicks: number | string;
  impressions: number | string;
  imported_at: string;
  /** the console user's email, or "cli" */
  imported_by: string;
}

export interface AdCostInput {
  day: string;
  campaign: string;
  costCents: number;
  clicks: number;
  impressions: number;
  currency: string;
}

export interface CostImportResult {
  /** the audit entry that records it */
  auditId: string;
  rows: number;
  /** of those, how many replaced a row imported before */
  replaced: number;
  days: { from: string; to: string };
  /** campaigns the report named longer than a visit keeps, stored under the first characters a visit keeps (engine/traffic/costCsv.ts) */
  cut: number;
}

const CHUNK = 200;

/** Stores a parsed report's rows for `source`, replacing earlier ones of the same day and campaign, and audits it. */
export async function importCosts(
  db: Store,
  source: string,
  rows: readonly AdCostInput[],
  actor: string,
  meta: { file?: string; now?: Date; cut?: number } = {},
): Promise<CostImportResult> {
  const at = (meta.now ?? new Date()).toISOString();
  const days = rows.map((r) => r.day).sort();
  return db.transaction().execute(async (trx) => {
    let replaced = 0;
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      const existing = await trx
        .selectFrom('ad_costs')
        .select(['day', 'campaign'])
        .where('source', '=', source)
        .where('day', 'in', [...new Set(chunk.map((r) => r.day))])
        .where('campaign', 'in', [...new Set(chunk.map((r) => r.campaign))])
        .execute();
      const had = new Set(existing.map((e) => `${e.day}\u0000${e.campaign}`));
      replaced += chunk.filter((r) => had.has(`${r.day}\u0000${r.campaign}`)).length;
      await trx
        .insertInto('ad_costs')
        .values(
          chunk.map((r) => ({
            day: r.day,
            source,
            campaign: r.campaign,
            cost_cents: r.costCents,
            currency: r.currency,
            clicks: r.clicks,
            impressions: r.impressions,
            imported_at: at,
            imported_by: actor,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['day', 'source', 'campaign']).doUpdateSet((eb) => ({
            cost_cents: eb.ref('excluded.cost_cents'),
            currency: eb.ref('excluded.currency'),
            clicks: eb.ref('excluded.clicks'),
            impressions: eb.ref('excluded.impressions'),
            imported_at: eb.ref('excluded.imported_at'),
            imported_by: eb.ref('excluded.imported_by'),
          })),
        )
        .execute();
    }
    const result = { rows: rows.length, replaced, days: { from: days[0] ?? '', to: days[days.length - 1] ?? '' } };
    const cut = meta.cut ?? 0;
    const auditId = await audit(trx, {
      actor,
      action: 'cost_import',
      target: source,
      detail: { ...result, ...(cut ? { cut } : {}), ...(meta.file ? { file: meta.file.slice(0, 200) } : {}) },
      now: meta.now,
    });
    return { auditId, ...result, cut };
  });
}

export interface CostCell {
  day: string;
  source: string;
  campaign: string;
  currency: string;
  costCents: number;
  clicks: number;
  impressions: number;
}

/** The costs of [fromDay, toDay), optionally of one campaign. */
export async function costCells(db: Store, fromDay: string, toDay: string, campaign?: string): Promise<CostCell[]> {
  let q = db.selectFrom('ad_costs').selectAll().where('day', '>=', fromDay).where('day', '<', toDay);
  if (campaign !== undefined) q = q.where('campaign', '=', campaign);
  return (await q.execute()).map((r) => ({
    day: r.day,
    source: r.source,
    campaign: r.campaign,
    currency: r.currency,
    costCents: Number(r.cost_cents),
    clicks: Number(r.clicks),
    impressions: Number(r.impressions),
  }));
}
