/**
 * Leads stored before their copy of the visit's dimensions existed (migration 026) keep being
 * counted under their visit's campaign, source, landing page and device on the overview: the
 * migration fills every lead from its visit, over several of its batches, and leaves a lead with
 * no visit, or with a visit id nobody stored, as a lead without a visit. On SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { overviewData } from '../../engine/console/overviewData';
import { openStore } from '../../engine/store/db';
import { migrationProvider } from '../../engine/store/migrations';
import { visitRow } from '../../engine/store/trafficRules';
import { bothStores } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { overviewAsk } from '../support/overviewAsk';

const stores = bothStores('loansites-lead-visit-dims-migration-');
const AT = new Date('2026-11-20T10:00:00.000Z');
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';
/** more leads than one batch of the migration (5,000) twice over */
const LEADS = 11_000;

const VISITS = [
  visitRow(
    'v-migrated-a',
    { path: '/payday-loans', params: { utm_campaign: 'spring', utm_source: 'google' } },
    { brand: 'ipaydayloans', host: 'ipaydayloans.com', userAgent: PHONE, optedOut: false, now: AT },
  ),
  visitRow(
    'v-migrated-b',
    { path: '/title-loans', params: { utm_campaign: 'autumn', utm_source: 'bing' } },
    { brand: 'ipaydayloans', host: 'ipaydayloans.com', userAgent: PHONE, optedOut: false, now: AT },
  ),
];
/** lead n's visit id: one of the two stored visits, none, or one nobody stored */
const visitOf = (n: number) => [VISITS[0]!.id, VISITS[1]!.id, null, 'v-never-stored'][n % 4]!;

describe.each(stores.kinds('lead-visit-dims-migration.sqlite'))('%s', (_kind, options) => {
  it('fills the leads stored before it from their visits, and the overview counts them under the visits’ campaigns', async () => {
    const db = openStore(options());
    try {
      const migrator = new Migrator({
        db,
        provider: migrationProvider,
        migrationTableName: 'schema_migrations',
        migrationLockTableName: 'schema_migrations_lock',
      });
      expect((await migrator.migrateTo('025_exposure_retention')).error).toBeUndefined();
      await db.insertInto('traffic_visits').values(VISITS).execute();
      const leads = Array.from({ length: LEADS }, (_, n) => ({
        ...leadRow({ visit_id: visitOf(n), device: 'desktop', created_at: AT.toISOString() }),
        id: `ld_m${n}`,
      }));
      for (let i = 0; i < leads.length; i += 500)
        await db
          .insertInto('leads')
          .values(leads.slice(i, i + 500))
          .execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const campaigns = await db.selectFrom('leads').select(['visit_campaign', 'visit_source', 'visit_landing', 'visit_device', 'visit_brand']).execute();
      const count = (campaign: string | null) => campaigns.filter((l) => l.visit_campaign === campaign).length;
      expect([count('spring'), count('autumn'), count(null)]).toEqual([LEADS / 4, LEADS / 4, LEADS / 2]);
      expect(campaigns.find((l) => l.visit_campaign === 'autumn')).toEqual({
        visit_campaign: 'autumn',
        visit_source: 'bing',
        visit_landing: '/title-loans',
        visit_device: 'mobile',
        visit_brand: 'ipaydayloans',
      });

      // The operator's view: the stored leads by landing page, filtered by campaign and by device.
      const landings = async (dims: Record<string, string>) =>
        Object.fromEntries(
          (await overviewData(db, overviewAsk({ from: '2026-11-20', to: '2026-11-20', dims }))).cuts.landing
            .filter((r) => r.leads)
            .map((r) => [r.key, r.leads]),
        );
      expect(await landings({ campaign: 'spring' })).toEqual({ '/payday-loans': LEADS / 4 });
      expect(await landings({ source: 'bing' })).toEqual({ '/title-loans': LEADS / 4 });
      expect(await landings({ device: 'mobile' })).toEqual({ '/payday-loans': LEADS / 4, '/title-loans': LEADS / 4 });
      expect(await landings({ device: 'desktop' })).toEqual({ '': LEADS / 2 });
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
