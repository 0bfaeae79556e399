/**
 * Ad costs (migrations/014_money_costs.ts): stored a day, source and campaign at a time. An
 * import replaces the rows of the days and campaigns its file holds, in one transaction with its
 * audit entry, so a report imported twice counts once and every import is on record.
 *
 * `campaign` is what a visit keeps of the campaign (its first VISIT_VALUE_MAX characters:
 * engine/traffic/costCsv.ts), the key the costs meet their visits by; `campaign_full` is the name
 * the report gave (migrations/032_cost_campaign_full.ts). Two full names with one cut name would
 * be one campaign here, each import's cost replacing or adding to the other's without a word, so
 * an import naming a full name other than the one stored for its cut name and source is refused
 * whole (CostCampaignClash: engine/traffic/costImport.ts names both). Rows stored before the full name was kept have null and
 * are not compared.
 */
import { sql } from 'kysely';
import type { Store } from './db';
import { isPostgresStore } from './trafficPartitions';
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
  /** the campaign as the report named it, when longer than `campaign` too; null on rows imported before it was kept */
  campaign_full: string | null;
}

export interface AdCostInput {
  day: string;
  campaign: string;
  costCents: number;
  clicks: number;
  impressions: number;
  currency: string;
  /** the campaign as the report names it, when that is longer than `campaign` (its cut) */
  named?: string;
  /** the report's line, for a refusal */
  line?: number;
}

/** A campaign of an import whose cut name is stored (for its source) under another full name. */
export interface CampaignClash {
  /** the report's first line naming it */
  line?: number;
  /** its full name in the report */
  named: string;
  /** the full name stored under the same cut name */
  stored: string;
}

/** An import refused for naming, under a stored cut name, another full name than the stored one: nothing of it is stored. */
export class CostCampaignClash extends Error {
  constructor(readonly clashes: CampaignClash[]) {
    super(`${clashes.length} campaigns clash with stored ones`);
  }
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
  meta: { file?: string; now?: Date; cut?: number; asked?: { currency?: string; dayOrder?: string } } = {},
): Promise<CostImportResult> {
  const at = (meta.now ?? new Date()).toISOString();
  const days = rows.map((r) => r.day).sort();
  return db.transaction().execute(async (trx) => {
    // Two imports from one source at once would each find no clash and both store: on PostgreSQL
    // they take turns per source (SQLite's single writer already serialises them).
    if (isPostgresStore(db)) await sql`select pg_advisory_xact_lock(hashtext(${`loansites ad costs ${source}`}))`.execute(trx);
    // each cut name's full name in the file (the parser refused two full names for one cut name) and its first line
    const named = new Map<string, { full: string; line?: number }>();
    for (const r of rows) if (!named.has(r.campaign)) named.set(r.campaign, { full: r.named ?? r.campaign, line: r.line });
    const campaigns = [...named.keys()];
    const clashes: CampaignClash[] = [];
    for (let i = 0; i < campaigns.length; i += CHUNK) {
      const stored = await trx
        .selectFrom('ad_costs')
        .select(['campaign', 'campaign_full'])
        .distinct()
        .where('source', '=', source)
        .where('campaign', 'in', campaigns.slice(i, i + CHUNK))
        .where('campaign_full', 'is not', null)
        .execute();
      for (const s of stored) {
        const mine = named.get(s.campaign)!;
        if (s.campaign_full !== mine.full)
          clashes.push({ ...(mine.line !== undefined ? { line: mine.line } : {}), named: mine.full, stored: s.campaign_full! });
      }
    }
    if (clashes.length) throw new CostCampaignClash(clashes.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
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
            campaign_full: r.named ?? r.campaign,
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
            campaign_full: eb.ref('excluded.campaign_full'),
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
      detail: { ...result, ...(cut ? { cut } : {}), ...(meta.file ? { file: meta.file.slice(0, 200) } : {}), ...meta.asked },
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
