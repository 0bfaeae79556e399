/**
 * The sale's test leads (tests/support/saleLead.ts, also the sale bench's) are never duplicates of
 * each other unless a test says so: each gets a phone of its own. A phone drawn at random made one
 * lead in a few thousand a duplicate now and then (the bench once sold 1999 of 2000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { storeSaleLead } from '../support/saleLead';

const KEY = Buffer.alloc(32, 0x5a);
const dir = mkdtempSync(join(tmpdir(), 'loansites-test-phones-'));
let db: Store;

beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'phones.sqlite') });
  await migrateStore(db);
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

it('ten thousand test leads stored for the sale have ten thousand phones', async () => {
  const n = 10_000;
  // enough that random phones (one in 9 million) would share one: the odds of none are under 1 %
  for (let i = 0; i < n; i += 500) await Promise.all(Array.from({ length: Math.min(500, n - i) }, () => storeSaleLead(db, KEY)));
  const counted = await db
    .selectFrom('leads')
    .select((eb) => [eb.fn.countAll<number>().as('leads'), eb.fn.count<number>('phone').distinct().as('phones')])
    .executeTakeFirstOrThrow();
  expect({ leads: Number(counted.leads), phones: Number(counted.phones) }).toEqual({ leads: n, phones: n });
}, 120_000);
