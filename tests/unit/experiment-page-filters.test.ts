/**
 * The console's experiment page (and the overview, which parses the same filters) filtered by a
 * campaign or source typed with a control character
 * (a NUL pasted from a link, `?campaign=%00spring`), on PostgreSQL, which refuses a NUL in any
 * text it is given: the page answers, filtered by the value as visits store it — their campaign
 * values never hold control characters, the browser drops them (engine/browser/cleanText.ts) —
 * rather than failing the whole page on the store's error.
 */
import type { GetServerSidePropsContext } from 'next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../engine/store/db';
import type { TrafficBatch } from '../../engine/store/traffic';
import { analystCookie } from '../support/consoleForm';
import { experimentPageProps } from '../support/experimentPage';
import { startPostgres, type RunningPostgres } from '../support/postgres';

const EXPERIMENT = 'payday-hero-headline';
let pg: RunningPostgres;
let db: Store;
let cookie = '';

beforeAll(async () => {
  pg = await startPostgres();
  Object.assign(process.env, { DATABASE_URL: pg.url });
  const { getStore } = await import('../../engine/store/db');
  const { writeTraffic } = await import('../../engine/store/traffic');
  const { visitRow } = await import('../../engine/store/trafficRules');
  db = await getStore();
  cookie = await analystCookie(db);
  // today: two visitors from the spring campaign (one a variant), one from another
  const now = new Date();
  const batch: TrafficBatch = { visits: [], events: [], exposures: [] };
  for (const [id, campaign, variant] of [
    ['v-spring-1', 'spring', 'control'],
    ['v-spring-2', 'spring', 'cash-before-payday'],
    ['v-autumn-1', 'autumn', 'control'],
  ] as const) {
    batch.visits.push(
      visitRow(
        id,
        { path: '/payday-loans', params: { utm_campaign: campaign } },
        { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'Mozilla/5.0 (iPhone) Mobile', optedOut: false, now },
      ),
    );
    batch.exposures!.push({ visitId: id, brand: 'ipaydayloans', experiment: EXPERIMENT, variant, createdAt: now.toISOString() });
  }
  await writeTraffic(db, batch);
}, 120_000);

afterAll(async () => {
  const { closeStore } = await import('../../engine/store/db');
  await closeStore();
  await pg?.stop();
});

async function pageProps(query: Record<string, string>) {
  return (
    await experimentPageProps<{ found: { query: { campaign: string; source: string }; results: { rows: { totals: { visitors: number } }[] } } }>(
      cookie,
      EXPERIMENT,
      query,
    )
  ).found;
}

describe('the console’s traffic filters on PostgreSQL', () => {
  it('answers a campaign or source filter holding a NUL or another control character, filtered by the value as visits store it', async () => {
    const found = await pageProps({ campaign: '\u0000spr\u0007ing\u0000' });
    expect(found.query.campaign).toBe('spring');
    expect(found.results.rows.map((r) => r.totals.visitors)).toEqual([1, 1]);
    const bySource = await pageProps({ source: 'x\u0000' });
    expect(bySource.query.source).toBe('x');
    expect(bySource.results.rows.map((r) => r.totals.visitors)).toEqual([0, 0]);
  }, 60_000);

  it('and the overview, whose filters the page shares, answers the same campaign', async () => {
    const { getServerSideProps } = await import('../../pages/_console/index');
    const ctx = {
      req: { headers: { host: 'console.localhost:3000', cookie }, socket: { remoteAddress: '198.51.100.9' } },
      res: { setHeader: () => undefined, statusCode: 200 },
      query: { campaign: '\u0000spring' },
    } as unknown as GetServerSidePropsContext;
    const result = (await getServerSideProps(ctx)) as { props: { query: { campaign: string } } };
    expect(result.props.query.campaign).toBe('spring');
  }, 60_000);
});
