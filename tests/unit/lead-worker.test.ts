/**
 * `npm run worker` as its own process: it delivers what the store holds to the buyer, and stops
 * cleanly on SIGTERM. (The in-server worker is the same code, started by instrumentation.ts.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sealText } from '../../engine/keys/sealing';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { startBuyer, type Buyer } from '../support/buyer';
import { BO_LEE, leadRow } from '../support/leadRow';

const KEY = 'c'.repeat(64);
const SECRET = 'worker-test-secret-0001';
const dir = mkdtempSync(join(tmpdir(), 'loansites-worker-'));
const file = join(dir, 'worker.sqlite');
let db: Store;
let buyer: Buyer;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = KEY;
  buyer = await startBuyer(SECRET);
  db = openStore({ url: '', file });
  await migrateStore(db);
});
afterAll(async () => {
  await db?.destroy();
  await buyer?.close();
  rmSync(dir, { recursive: true, force: true });
});

function storeLead(key: string, email: string) {
  return insertLead(
    db,
    leadRow({
      ...BO_LEE,
      email,
      idempotency_key: key,
      created_at: new Date().toISOString(),
      amount: 800,
      sealed: sealText(JSON.stringify({ dateOfBirth: '1985-01-01', monthlyIncome: 2000 }), Buffer.from(KEY, 'hex')),
      source: 'landing-page',
      host: 'weloans.com',
    }),
    ['buyer'],
  );
}

it('delivers stored leads once, keeps running for later leads, then stops on SIGTERM', async () => {
  const { id } = await storeLead('worker-test-key-000001', 'bo.lee@example.com');
  // node itself (not npx) so the signal reaches the worker and its exit is the worker's
  const worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    env: {
      ...process.env,
      LOANSITES_DB_FILE: file,
      DATABASE_URL: '',
      LEADS_ENCRYPTION_KEY: KEY,
      LEADS_WORKER_INTERVAL_MS: '200',
      LEAD_DESTINATIONS: JSON.stringify({ weloans: [{ name: 'buyer', url: buyer.url, secret: SECRET }] }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => worker.on('exit', (c) => r(c)));
  let out = '';
  worker.stdout.on('data', (c) => (out += c));
  worker.stderr.on('data', (c) => (out += c));
  try {
    await expect.poll(() => buyer.received.map((r) => r.id), { timeout: 30_000 }).toEqual([id]);
    expect(buyer.received[0]!.body).toMatchObject({ brand: 'weloans', dateOfBirth: '1985-01-01', monthlyIncome: 2000 });
    await expect
      .poll(async () => (await db.selectFrom('lead_deliveries').select('status').where('lead_id', '=', id).executeTakeFirstOrThrow()).status)
      .toBe('delivered');
    expect(out).toContain('lead worker: sqlite store');
    // a lead stored later is picked up by the same process: the worker waits for work rather than leaving after one round
    const later = await storeLead('worker-test-key-000002', 'bo.lee.2@example.com');
    await expect.poll(() => buyer.received.map((r) => r.id), { timeout: 30_000 }).toEqual([id, later.id]);
    expect(worker.exitCode, out).toBeNull();
  } finally {
    worker.kill('SIGTERM');
  }
  const code = await exited;
  expect(buyer.received).toHaveLength(2);
  expect(code, out).toBe(0);
}, 60_000);
