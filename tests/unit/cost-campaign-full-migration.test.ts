/**
 * Migration 032 keeps an ad cost's campaign as its report named it in full, on SQLite and
 * PostgreSQL: costs imported before it keep their rows (their full name unknown, so not compared);
 * the first import after it that names the campaign stores its full name, and from then on
 * another full name with the same first 500 characters is refused. Undone, the column goes and
 * the costs stay.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { openStore, type Store, type StoreOptions } from '../../engine/store/db';
import { costCells } from '../../engine/store/costs';
import { migrationProvider } from '../../engine/store/migrations';
import { importCostReport } from '../../engine/traffic/costImport';
import { bothStores } from '../support/bothStores';

const stores = bothStores('loansites-cost-campaign-full-');
const LAST_BEFORE = '031_lead_site_origin';
const migrator = (db: Store) =>
  new Migrator({ db, provider: migrationProvider, migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });

const kinds: [string, (name: string) => Promise<StoreOptions>][] = [
  ['SQLite', async (name) => ({ url: '', file: join(stores.tmp, `${name}.sqlite`) })],
  ['PostgreSQL', async (name) => ({ url: await stores.postgres().createDatabase(name) })],
];

const stem = 'brand-exact-'.repeat(50).slice(0, 500);

describe.each(kinds)('%s', (kind, storeOptions) => {
  it('keeps the costs imported before it, then refuses a second full name for a campaign the first import after it named', async () => {
    const db = openStore(await storeOptions(`cost_campaign_full_${kind.toLowerCase()}`));
    try {
      expect((await migrator(db).migrateTo(LAST_BEFORE)).error).toBeUndefined();
      // as an import before it stored them: "-mobile" cut to its first 500 characters, its full name not kept
      const row = {
        day: '2026-11-01',
        source: 'google',
        currency: 'USD',
        clicks: 1,
        impressions: 0,
        imported_at: '2026-11-02T00:00:00.000Z',
        imported_by: 'cli',
      };
      await (db as unknown as Kysely<{ ad_costs: Record<string, string | number> }>)
        .insertInto('ad_costs')
        .values([
          { ...row, campaign: stem, cost_cents: 400 },
          { ...row, campaign: 'plain', cost_cents: 100 },
        ])
        .execute();

      expect((await migrator(db).migrateToLatest()).error).toBeUndefined();
      const full = await db.selectFrom('ad_costs').select(['campaign', 'campaign_full']).orderBy('campaign').execute();
      expect(full).toEqual([
        { campaign: stem, campaign_full: null },
        { campaign: 'plain', campaign_full: null },
      ]);

      // nothing to compare with: taken, replacing the day, and its full name kept from now on
      const desktop = `${stem}-desktop`;
      expect(await importCostReport(db, { text: `day,campaign,cost\n2026-11-01,${desktop},6.00\n`, source: 'google', actor: 'cli' })).toMatchObject({
        ok: true,
        rows: 1,
        replaced: 1,
      });
      const refused = await importCostReport(db, { text: `day,campaign,cost\n2026-11-02,${stem}-mobile,2.00\n`, source: 'google', actor: 'cli' });
      expect(refused).toEqual({
        ok: false,
        errors: [
          `line 2: the campaign "${stem}-mobile" and the campaign "${desktop}", imported before from google, are the same in their first 500 characters, all a visit keeps of a campaign, so neither their visits nor their costs can be told apart; rename one in the ad platform so that they differ within the first 500 characters`,
        ],
      });
      expect((await costCells(db, '2026-11-01', '2026-11-03')).map((c) => [c.day, c.campaign === stem ? 'stem' : c.campaign, c.costCents]).sort()).toEqual([
        ['2026-11-01', 'plain', 100],
        ['2026-11-01', 'stem', 600],
      ]);

      // undone: the column goes, the costs stay
      expect((await migrator(db).migrateTo(LAST_BEFORE)).error).toBeUndefined();
      expect((await costCells(db, '2026-11-01', '2026-11-03')).length).toBe(2);
      await expect(db.selectFrom('ad_costs').select('campaign_full').execute()).rejects.toThrow(/campaign_full/);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
