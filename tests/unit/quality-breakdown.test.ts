/**
 * The quality page's breakdown, on SQLite and on PostgreSQL: leads grouped by source, the campaign
 * of the visit they came from, and sub-id, with their bands, average score and reasons — the
 * campaign the overview gives the same lead, whether the visit was stored before the lead or after.
 */
import { describe, expect, it } from 'vitest';
import { qualityBreakdown } from '../../engine/console/qualityQueries';
import { insertLead } from '../../engine/store/leads';
import { saveScreening } from '../../engine/store/screening';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import type { Store } from '../../engine/store/db';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';

const stores = bothStores('loansites-quality-breakdown-');
const NOW = new Date('2026-11-20T12:00:00.000Z');
const visit = (id: string, campaign: string) =>
  visitRow(
    id,
    { path: '/payday-loans', params: { utm_campaign: campaign, utm_source: 'google' } },
    { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'Mozilla/5.0', optedOut: false, now: NOW },
  );

let n = 0;
async function screenedLead(db: Store, visitId: string, score: number, band: 'high' | 'medium' | 'low', codes: string): Promise<string> {
  n += 1;
  const { id } = await insertLead(
    db,
    leadRow({
      idempotency_key: `quality-breakdown-${n}`,
      visit_id: visitId,
      source: 'google',
      source2: 'adgroup-7',
      email: `q${n}@example.org`,
      created_at: NOW.toISOString(),
    }),
    [],
  );
  await saveScreening(db, {
    lead_id: id,
    created_at: NOW.toISOString(),
    score,
    band,
    codes,
    routing: 'offer',
    phone_key: '',
    email_key: '',
    ip_key: '',
    device_key: `qb-${n}`,
  });
  return id;
}

describe.each(stores.kinds('quality-breakdown.sqlite'))('the quality breakdown on %s', (_kind, options) => {
  const db = migratedStore(options);

  it("groups leads by their visit's campaign, the visit stored before the lead or after it", async () => {
    const spring = visit(`vqb${'1'.padStart(29, '0')}`, 'spring');
    const autumn = visit(`vqb${'2'.padStart(29, '0')}`, 'autumn');
    await writeTraffic(db(), { visits: [spring], events: [] });
    await screenedLead(db(), spring.id, 90, 'high', '');
    await screenedLead(db(), spring.id, 40, 'low', 'bot-fast');
    // the lead first: its visit's batch arrives later (a phone that came back online)
    await screenedLead(db(), autumn.id, 20, 'low', 'bot-fast,bot-paste-all');
    const range = { from: new Date(NOW.getTime() - 3600_000).toISOString(), to: new Date(NOW.getTime() + 3600_000).toISOString() };
    expect((await qualityBreakdown(db(), range)).map((r) => [r.campaign, r.leads])).toEqual([
      ['', 1],
      ['spring', 2],
    ]);

    await writeTraffic(db(), { visits: [autumn], events: [] });

    expect(await qualityBreakdown(db(), range)).toEqual([
      {
        source: 'google',
        campaign: 'autumn',
        subId: 'adgroup-7',
        leads: 1,
        high: 0,
        medium: 0,
        low: 1,
        averageScore: 20,
        codes: [
          ['bot-fast', 1],
          ['bot-paste-all', 1],
        ],
      },
      { source: 'google', campaign: 'spring', subId: 'adgroup-7', leads: 2, high: 1, medium: 0, low: 1, averageScore: 65, codes: [['bot-fast', 1]] },
    ]);
  });
});
