/**
 * On PostgreSQL two instances may store a lead and its visit at the same moment, each in its own
 * transaction, neither seeing the other's uncommitted row. The lead is still counted under its
 * visit's campaign whichever commits last: here one transaction is held open (another session
 * locks the table it writes last) while the other is stored and committed, then let go. SQLite
 * has one writer at a time, so there the two cannot overlap.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { overviewData } from '../../engine/console/overviewData';
import type { Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { overviewAsk } from '../support/overviewAsk';

const stores = bothStores('loansites-lead-visit-dims-race-');
const AT = new Date('2026-11-21T10:00:00.000Z');
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';

const visit = (id: string, campaign: string) =>
  visitRow(
    id,
    { path: '/payday-loans', params: { utm_campaign: campaign } },
    { brand: 'ipaydayloans', host: 'ipaydayloans.com', userAgent: PHONE, optedOut: false, now: AT },
  );

const storeVisit = (db: Store, v: ReturnType<typeof visit>) =>
  writeTraffic(db, {
    visits: [v],
    events: [{ visitId: v.id, metric: 'page_view', path: v.landing_path, state: '', value: 0, brand: v.brand, device: v.device, createdAt: AT.toISOString() }],
  });

const storeLead = (db: Store, visitId: string, destinations: string[] = []) =>
  insertLead(db, leadRow({ visit_id: visitId, device: 'desktop', created_at: AT.toISOString() }), destinations);

describe('PostgreSQL', () => {
  const url = () => stores.postgres().url;
  const db = migratedStore(() => ({ url: url() }));

  /** The overview's stored leads of a campaign, by landing page. */
  const leadsOf = async (campaign: string) =>
    Object.fromEntries(
      (await overviewData(db(), overviewAsk({ from: '2026-11-21', to: '2026-11-21', dims: { campaign } }))).cuts.landing
        .filter((r) => r.leads)
        .map((r) => [r.key, r.leads]),
    );

  /** Runs `held` with `table` locked by another session, lets it go once `held` waits on that lock and `meanwhile` is done. */
  async function holding<T>(table: string, held: () => Promise<T>, meanwhile: () => Promise<unknown>): Promise<T> {
    const locker = new pg.Client({ connectionString: url() });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
      const running = held();
      running.catch(() => undefined);
      await expect
        .poll(
          async () =>
            (await locker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`)).rows[0].n,
        )
        .toBe(1);
      await meanwhile();
      await locker.query('COMMIT');
      return await running;
    } finally {
      await locker.end();
    }
  }

  it('a lead committed while its visit’s transaction is open counts under the visit’s campaign once the visit commits', async () => {
    const v = visit('v-race-visit-open', 'race-visit-open');
    // the traffic writer upserts the rollups last: held there, the visit is stored but not committed
    await holding(
      'traffic_hourly',
      () => storeVisit(db(), v),
      () => storeLead(db(), v.id),
    );
    expect(await leadsOf('race-visit-open')).toEqual({ '/payday-loans': 1 });
  });

  it('a visit committed while its lead’s transaction is open counts the lead under its campaign once the lead commits', async () => {
    const v = visit('v-race-lead-open', 'race-lead-open');
    // a lead's outbox rows are written last: held there, the lead is stored but not committed
    await holding(
      'lead_deliveries',
      () => storeLead(db(), v.id, ['buyer-api']),
      () => storeVisit(db(), v),
    );
    expect(await leadsOf('race-lead-open')).toEqual({ '/payday-loans': 1 });
  });
});
