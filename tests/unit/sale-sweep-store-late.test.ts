/**
 * A server that starts while its store is down (PostgreSQL not up yet, or restarting) starts its
 * background work once the store is back: its sale sweep then sells a lead whose sale nobody
 * holds. Its start-up (instrumentation.ts) runs in a child process; the PostgreSQL it points at is
 * started only after the server said the store is not ready.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { saleOf } from '../../engine/store/sales';
import { freePort } from '../support/ports';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { storeSaleLead } from '../support/saleLead';
import { serverStartChild, standIns } from '../support/saleKit';

const KEY = 'f'.repeat(64);
const SECRET = 'stand-in-buyer-secret-08';
process.env.LEADS_ENCRYPTION_KEY = KEY;
const dir = mkdtempSync(join(tmpdir(), 'loansites-store-late-'));
const stands = standIns(SECRET);
let pg: RunningPostgres | undefined;
let db: Store | undefined;
let server: ReturnType<typeof serverStartChild> | undefined;

afterAll(async () => {
  await server?.stop();
  await stands.closeAll();
  await db?.destroy();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('a server started before its PostgreSQL store runs the sale sweep once the store is up', async () => {
  const buyer = await stands.start('late-store-buyer', { ping: { bid: 25 } });
  const buyersDir = join(dir, 'buyers');
  mkdirSync(buyersDir, { recursive: true });
  writeFileSync(join(buyersDir, `${buyer.id}.json`), JSON.stringify(buyer.document()));
  const port = await freePort();
  server = serverStartChild({
    DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
    LOANSITES_BUYERS_DIR: buyersDir,
    BUYER_LATE_STORE_BUYER_SECRET: SECRET,
    SALE_SWEEP_INTERVAL_MS: '200',
  });
  await expect.poll(() => server!.output(), { timeout: 60_000 }).toContain('[store] not ready');

  pg = await startPostgres({ port });
  db = openStore({ url: pg.url });
  await migrateStore(db);
  // stored while the server could not start it (its process died before the sale began): nobody holds it
  const leadId = await storeSaleLead(db, Buffer.from(KEY, 'hex'));

  const decided = expect.poll(async () => (await saleOf(db!, leadId))?.status, { timeout: 60_000 }).toBe('sold');
  await decided.catch((err: Error) => {
    throw new Error(`the sale was not decided; the server logged:\n${server?.output()}`, { cause: err });
  });
  expect(buyer.accepted.has(leadId)).toBe(true);
}, 180_000);
