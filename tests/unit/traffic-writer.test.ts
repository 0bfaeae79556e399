/**
 * The traffic writer under load, over a real SQLite file: events that arrive while a batch is
 * being written wait and go together in the next (bigger) batch instead of piling up as writes,
 * and the bound on what the writer holds counts the events being written too, so its memory stays
 * bounded when the database is slower than the traffic.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import type { TrafficBatch } from '../../engine/store/traffic';
import { trafficWriter } from '../../engine/traffic/writer';

const dir = mkdtempSync(join(tmpdir(), 'loansites-writer-'));
let db: Store;
beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'writer.sqlite') });
  await migrateStore(db);
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const views = (count: number): TrafficBatch => ({
  visits: [],
  events: Array.from({ length: count }, () => ({
    visitId: `v${(++n).toString(16).padStart(32, '0')}`,
    metric: 'page_view',
    path: '/',
    state: '',
    value: 0,
    brand: 'ipaydayloans',
    device: 'mobile',
    createdAt: new Date().toISOString(),
  })),
});

it('20 posts of 500 arriving during a write are stored in a few batches, all of them', async () => {
  const w = trafficWriter(async () => db, { flushMs: 60_000, flushAt: 500 });
  for (let i = 0; i < 20; i++) w.add(views(500));
  await w.flush();
  expect(w.stats()).toMatchObject({ written: 10_000, dropped: 0, failed: 0 });
  // the first 500, then what waited (at most 5,000 a transaction): 3 writes, not 20
  expect(w.stats().batches).toBeLessThanOrEqual(4);
});

it('events being written count toward the bound: past it new ones are dropped and counted', async () => {
  const w = trafficWriter(async () => db, { flushMs: 60_000, flushAt: 500, maxQueued: 1000 });
  w.add(views(500)); // starts a write of 500
  w.add(views(600)); // 500 being written + 600 > 1,000
  expect(w.stats()).toMatchObject({ dropped: 600 });
  await w.flush();
  expect(w.stats()).toMatchObject({ written: 500, dropped: 600 });
});
