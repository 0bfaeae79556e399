/**
 * Rollups written while the writer counted a visit's "stored" stage once (a visit's second lead
 * counted as nothing) are recounted by migration 029 from the raw events still kept: the overview
 * then shows, for those days, exactly what it shows for the same events written by today's writer
 * — never more sold than stored — and a day whose raw events retention has deleted keeps its old
 * count. Several instances migrating at once add each missing lead once. On SQLite and PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { overviewData } from '../../engine/console/overviewData';
import { migrateStore, openStore, type Store, type StoreOptions } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { migrationProvider } from '../../engine/store/migrations';
import { recountStoredLeads } from '../../engine/store/migrations/029_stored_leads_recount';
import { addToRollups, hourlyIncrements, pruneTraffic, writeTraffic, type TrafficBatch } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { bothStores } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { overviewAsk } from '../support/overviewAsk';
import { recordSaleRow } from '../support/saleRecord';
import { trafficEvent } from '../support/trafficEvent';

const stores = bothStores('loansites-stored-recount-');
const LAST_BEFORE = '028_lead_screening_reviewed_at';
const v = (n: number) => `v${n.toString(16).padStart(32, '0')}`;
const ctx = (at: string) => ({ brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'iPhone', optedOut: false, now: new Date(at) });
const visit = (n: number, at: string, campaign: string) => visitRow(v(n), { path: '/payday-loans', params: { utm_campaign: campaign } }, ctx(at));
const stored = (n: number, at: string, state = 'tx') => trafficEvent(v(n), 'stored', at, { state });

const migrator = (db: Store) =>
  new Migrator({ db, provider: migrationProvider, migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });

/**
 * Writes a batch as the writer did before every stored lead counted: the same raw rows, and the
 * rollups without the repeated "stored" events (what today's writer adds for them, taken back out).
 */
async function writeTrafficOld(db: Store, batch: TrafficBatch): Promise<void> {
  const before = new Set(
    (await db.selectFrom('traffic_events').select('id').where('metric', '=', 'stored').where('repeated', '=', 1).execute()).map((r) => r.id),
  );
  await writeTraffic(db, batch);
  const repeats = (await db.selectFrom('traffic_events').selectAll().where('metric', '=', 'stored').where('repeated', '=', 1).execute()).filter(
    (e) => !before.has(e.id),
  );
  const take = hourlyIncrements([], repeats).map((r) => ({ ...r, count: -r.count, value: -Number(r.value) }));
  await db.transaction().execute((trx) => addToRollups(trx, take));
}

/** Two days of visits: v1 stores three leads (two in one hour, both sold), v2 one a day, v3 one, an unknown visit two. */
const BATCHES: TrafficBatch[] = [
  {
    visits: [visit(1, '2026-11-09T10:00:00.000Z', 'fall'), visit(2, '2026-11-09T10:05:00.000Z', 'spring'), visit(3, '2026-11-09T12:00:00.000Z', 'fall')],
    events: [
      ...['apply_view', 'step_1', 'step_2', 'submitted'].map((m) => trafficEvent(v(1), m, '2026-11-09T10:01:00.000Z')),
      stored(1, '2026-11-09T10:02:00.000Z'),
      trafficEvent(v(2), 'submitted', '2026-11-09T10:06:00.000Z'),
      stored(2, '2026-11-09T10:07:00.000Z', 'ca'),
      stored(3, '2026-11-09T12:01:00.000Z'),
    ],
  },
  { visits: [], events: [trafficEvent(v(1), 'submitted', '2026-11-09T10:20:00.000Z'), stored(1, '2026-11-09T10:21:00.000Z')] },
  { visits: [], events: [stored(1, '2026-11-09T11:30:00.000Z'), stored(2, '2026-11-10T08:00:00.000Z', 'ca')] },
  { visits: [], events: [stored(99, '2026-11-10T09:00:00.000Z', 'ny'), stored(99, '2026-11-10T09:10:00.000Z', 'ny')] },
];
const LEADS: [visit: number, at: string, soldCents: number][] = [
  [1, '2026-11-09T10:02:00.000Z', 4000],
  [1, '2026-11-09T10:21:00.000Z', 2500],
  [1, '2026-11-09T11:30:00.000Z', 0],
  [2, '2026-11-09T10:07:00.000Z', 0],
  [2, '2026-11-10T08:00:00.000Z', 0],
  [3, '2026-11-09T12:01:00.000Z', 0],
];

async function writeLeads(db: Store): Promise<void> {
  for (const [n, at, cents] of LEADS) {
    const lead = await insertLead(db, leadRow({ visit_id: v(n), created_at: at }), []);
    if (cents) await recordSaleRow(db, { leadId: lead.id, buyer: 'acme', priceCents: cents, at: new Date(at) });
  }
}

/** What the operator reads on the overview for those days: the funnel, each day, campaign and state, and filtered views (the daily pairs and the hourly cube). */
async function figures(db: Store) {
  const range = { from: '2026-11-09', to: '2026-11-10' };
  const o = await overviewData(db, overviewAsk(range));
  const stages = async (dims: Record<string, string>) => (await overviewData(db, overviewAsk({ ...range, dims }))).data.funnel.stages.map((s) => s.count);
  return {
    funnel: o.data.funnel.stages.map((s) => [s.stage, s.count]),
    days: o.periods.map((p) => [p.at, p.visits, p.stored, p.sold]),
    byCampaign: o.data.byCampaign.map((r) => [r.key, r.stored, r.sold]),
    byState: o.data.byState.map((r) => [r.key, r.stored]),
    fallOnBrand: await stages({ campaign: 'fall', brand: 'ipaydayloans' }),
    springInCa: await stages({ campaign: 'spring', state: 'ca' }),
  };
}

const kinds: [string, (name: string) => Promise<StoreOptions>][] = [
  ['SQLite', async (name) => ({ url: '', file: join(stores.tmp, `${name}.sqlite`) })],
  ['PostgreSQL', async (name) => ({ url: await stores.postgres().createDatabase(name) })],
];

/** `npm run db:migrate` in its own process, as an instance starting up migrates. */
const migrateInAnotherProcess = (options: StoreOptions) =>
  new Promise<string>((resolve, reject) => {
    const env = { ...process.env, DATABASE_URL: options.url ?? '', LOANSITES_DB_FILE: options.file ?? '' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`db:migrate exited ${code}: ${out}`))));
  });

describe.each(kinds)('%s', (kind, storeOptions) => {
  const name = (what: string) => `recount_${what}_${kind.toLowerCase()}`;

  it('recounts the stored leads the old rollups left out, so the overview shows what today’s writer shows for the same events', async () => {
    const today = openStore(await storeOptions(name('today')));
    const old = openStore(await storeOptions(name('old')));
    try {
      await migrateStore(today);
      for (const b of BATCHES) await writeTraffic(today, b);
      await writeLeads(today);
      const expected = await figures(today);
      expect(expected.funnel).toEqual([
        ['visits', 3],
        ['applyViews', 1],
        ['step1', 1],
        ['step2', 1],
        ['submitted', 2],
        ['stored', 8],
        ['sold', 2],
      ]);

      expect((await migrator(old).migrateTo(LAST_BEFORE)).error).toBeUndefined();
      for (const b of BATCHES) await writeTrafficOld(old, b);
      await writeLeads(old);
      // the old count: v1's three leads as one, v2's two as one, the unknown visit's two as one
      expect((await figures(old)).funnel.find(([s]) => s === 'stored')).toEqual(['stored', 4]);

      expect((await migrator(old).migrateToLatest()).error).toBeUndefined();
      expect(await figures(old)).toEqual(expected);
      // again (as a second instance would): nothing left to add, nothing changes
      expect(await recountStoredLeads(old)).toMatchObject({ leads: 0 });
      expect(await figures(old)).toEqual(expected);
    } finally {
      await today.destroy();
      await old.destroy();
    }
  }, 60_000);

  it('adds each missing lead once when several instances start and migrate at once', async () => {
    const options = await storeOptions(name('racing'));
    const db = openStore(options);
    const today = openStore(await storeOptions(name('racing_today')));
    try {
      await migrateStore(today);
      for (const b of BATCHES) await writeTraffic(today, b);
      await writeLeads(today);
      expect((await migrator(db).migrateTo(LAST_BEFORE)).error).toBeUndefined();
      for (const b of BATCHES) await writeTrafficOld(db, b);
      await writeLeads(db);

      await Promise.all([migrateInAnotherProcess(options), migrateInAnotherProcess(options), migrateInAnotherProcess(options)]);

      expect(await figures(db)).toEqual(await figures(today));
    } finally {
      await db.destroy();
      await today.destroy();
    }
  }, 120_000);

  it('leaves the days retention has deleted the raw events of with their old count', async () => {
    const db = openStore(await storeOptions(name('pruned')));
    try {
      expect((await migrator(db).migrateTo(LAST_BEFORE)).error).toBeUndefined();
      await writeTrafficOld(db, {
        visits: [visit(11, '2026-11-04T09:00:00.000Z', 'fall'), visit(12, '2026-11-05T09:00:00.000Z', 'fall'), visit(13, '2026-11-05T14:00:00.000Z', 'fall')],
        events: [stored(11, '2026-11-04T09:00:00.000Z'), stored(12, '2026-11-05T09:00:00.000Z'), stored(13, '2026-11-05T14:00:00.000Z')],
      });
      // each visit's further leads: v11 one more on 4 November; v12 two more in its first hour and one at 11:00; v13 one more
      await writeTrafficOld(db, {
        visits: [],
        events: [
          stored(11, '2026-11-04T09:30:00.000Z'),
          stored(12, '2026-11-05T09:40:00.000Z'),
          stored(12, '2026-11-05T09:50:00.000Z'),
          stored(12, '2026-11-05T11:00:00.000Z'),
          stored(13, '2026-11-05T14:10:00.000Z'),
        ],
      });
      // retention deletes the events before 5 November 09:15 (PostgreSQL: the days wholly before it)
      await pruneTraffic(db, { now: new Date(Date.parse('2026-11-05T09:15:00.000Z') + 90 * 86_400_000), retentionDays: 90 });

      expect((await migrator(db).migrateToLatest()).error).toBeUndefined();
      const days = (await overviewData(db, overviewAsk({ from: '2026-11-04', to: '2026-11-05' }))).periods.map((p) => [p.at, p.stored]);
      // 4 November: no raw events left, its old count stays (1 of 2). 5 November: 6 leads by today's
      // count; SQLite deleted part of its 09:00 hour (the first of v12's three leads there), which
      // keeps its old count of 1 and the later hours are recounted (1 + 1 + 2); PostgreSQL drops
      // whole days and still holds all of it.
      expect(days).toEqual([
        ['2026-11-04', 1],
        ['2026-11-05', kind === 'SQLite' ? 4 : 6],
      ]);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
