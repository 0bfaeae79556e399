/**
 * The sale's numeric settings from the environment: a value that is not a whole number (a typo, a
 * unit written in) is warned about and the default used — never a concurrency of NaN that runs no
 * sale at all, nor a sweep every millisecond. The real lead route on a Node server over SQLite,
 * a stand-in buyer in the buyers folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saleConcurrency, saleSweepIntervalMs } from '../../engine/sale/settings';
import { leadRequest } from '../support/leadRequest';
import { openStore, type Store } from '../../engine/store/db';
import { saleOf } from '../../engine/store/sales';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

const SECRET = 'sale-settings-buyer-secret-01';
const dir = mkdtempSync(join(tmpdir(), 'loansites-sale-settings-'));
const saved = { ...process.env };
let buyer: StandInBuyer;
let server: TraceServer;
let db: Store;

beforeAll(async () => {
  buyer = await startStandInBuyer('settings', SECRET, { ping: { bid: 25 }, post: 'accept' });
  mkdirSync(join(dir, 'buyers'));
  writeFileSync(join(dir, 'buyers', 'settings.json'), JSON.stringify(buyer.document({ acceptsTestLeads: true })));
  server = await startTraceServer(
    {
      LEADS_ENCRYPTION_KEY: 'c'.repeat(64),
      RATE_LIMIT_LEADS: '100',
      LEADS_WORKER: 'off',
      SALE_WORKER: 'off',
      LEAD_DESTINATIONS: '',
      LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
      BUYER_SETTINGS_SECRET: SECRET,
      SALE_CONCURRENCY: 'twenty',
    },
    '/api/leads',
  );
  db = openStore({ url: '', file: server.dbFile });
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.close();
  await buyer?.close();
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

it('SALE_CONCURRENCY that is not a number still sells each lead (at the default concurrency)', async () => {
  const res = await post(server.port, JSON.stringify(leadRequest({ amount: 800, phone: '5125550166' })), { path: '/api/leads', ip: '198.51.100.66' });
  expect(res.status).toBe(201);
  await expect.poll(async () => (await saleOf(db, res.json.id as string))?.status, { timeout: 15_000 }).toBe('sold');
}, 60_000);

describe('reading the settings', () => {
  it.each([
    ['SALE_CONCURRENCY', saleConcurrency, '5', 5, false],
    ['SALE_CONCURRENCY', saleConcurrency, 'twenty', 20, true],
    ['SALE_CONCURRENCY', saleConcurrency, '0', 20, true],
    ['SALE_CONCURRENCY', saleConcurrency, '', 20, false],
    ['SALE_SWEEP_INTERVAL_MS', saleSweepIntervalMs, '2500', 2500, false],
    ['SALE_SWEEP_INTERVAL_MS', saleSweepIntervalMs, '5s', 5000, true],
    ['SALE_SWEEP_INTERVAL_MS', saleSweepIntervalMs, '1', 5000, true],
  ] as const)('%s=%j → %d', (name, read, value, expected, problem) => {
    const got = read({ [name]: value });
    expect(got.value).toBe(expected);
    if (problem) expect(got.problem).toContain(`${name} must be a whole number`);
    else expect(got.problem).toBeUndefined();
  });
});
