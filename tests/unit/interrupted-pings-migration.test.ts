/**
 * Pings left `sending` on sales decided before a run taking a sale over settled them: migration
 * 030 settles them `interrupted` (what the run taking the sale over writes now), each once, and
 * leaves the pings of a sale still running as they are. On SQLite and PostgreSQL.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { openStore, type Store, type StoreOptions } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { migrationProvider } from '../../engine/store/migrations';
import { settleDecidedSalesPings } from '../../engine/store/migrations/030_interrupted_pings';
import { addEvents, claimSale, ensureSale, finishSale, PING_INTERRUPTED, timelineOf } from '../../engine/store/sales';
import { bothStores } from '../support/bothStores';
import { leadRow } from '../support/leadRow';

const stores = bothStores('loansites-interrupted-pings-');
const LAST_BEFORE = '029_stored_leads_recount';
const migrator = (db: Store) =>
  new Migrator({ db, provider: migrationProvider, migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });

const kinds: [string, (name: string) => Promise<StoreOptions>][] = [
  ['SQLite', async (name) => ({ url: '', file: join(stores.tmp, `${name}.sqlite`) })],
  ['PostgreSQL', async (name) => ({ url: await stores.postgres().createDatabase(name) })],
];

/** A lead whose sale pinged two buyers: one answered, the other's ping still `sending`; decided (sold) or still running. */
async function saleWithPingOut(db: Store, decided: boolean): Promise<string> {
  const now = new Date();
  const { id } = await insertLead(db, leadRow({ created_at: now.toISOString() }), []);
  await ensureSale(db, id, now);
  expect(await claimSale(db, id, 'w1', now, 90_000)).toBeTruthy();
  const at = now.toISOString();
  await addEvents(db, [
    { lead_id: id, at, buyer_id: 'answered', step: 'ping', outcome: 'bid', price_cents: 3000, latency_ms: 80, detail: 'pg_answered' },
    { lead_id: id, at, buyer_id: 'left-out', step: 'ping', outcome: 'sending', detail: 'pg_left' },
  ]);
  if (decided) expect(await finishSale(db, id, 'w1', { status: 'sold', duplicate: false, buyerId: 'answered', priceCents: 3000 }, now, 1)).toBe(true);
  return id;
}

const pings = async (db: Store, id: string) =>
  (await timelineOf(db, id)).filter((e) => e.step === 'ping').map((e) => `${e.buyer_id} ${e.outcome}: ${e.detail} (${e.latency_ms ?? '—'} ms)`);

describe.each(kinds)('%s', (kind, storeOptions) => {
  it('settles a decided sale’s pings left sending as interrupted, once, and leaves a running sale’s pings out', async () => {
    const db = openStore(await storeOptions(`interrupted_pings_${kind.toLowerCase()}`));
    try {
      expect((await migrator(db).migrateTo(LAST_BEFORE)).error).toBeUndefined();
      const decided = await saleWithPingOut(db, true);
      const running = await saleWithPingOut(db, false);

      expect((await migrator(db).migrateToLatest()).error).toBeUndefined();

      const settled = ['answered bid: pg_answered (80 ms)', `left-out interrupted: ${PING_INTERRUPTED} (pg_left) (— ms)`];
      expect(await pings(db, decided)).toEqual(settled);
      expect(await pings(db, running)).toEqual(['answered bid: pg_answered (80 ms)', 'left-out sending: pg_left (— ms)']);
      // run again, as a second instance starting would: nothing settled twice
      await settleDecidedSalesPings(db);
      expect(await pings(db, decided)).toEqual(settled);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
