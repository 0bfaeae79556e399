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

it('delivers stored leads once, then stops on SIGTERM', async () => {
  const now = new Date().toISOString();
  const { id } = await insertLead(
    db,
    {
      brand: 'weloans',
      idempotency_key: 'worker-test-key-000001',
      created_at: now,
      loan_kind: 'general',
      amount: 800,
      zip: '78701',
      state: 'tx',
      city: 'Austin',
      country: 'US',
      region: 'TX',
      currency: 'USD',
      purpose: '',
      vehicle: '',
      first_name: 'Bo',
      last_name: 'Lee',
      email: 'bo@example.org',
      phone: '5125550199',
      income_source: 'employment',
      pay_frequency: 'weekly',
      sealed: sealText(JSON.stringify({ dateOfBirth: '1985-01-01', monthlyIncome: 2000 }), Buffer.from(KEY, 'hex')),
      consent_version: 'tcpa-2026-11',
      consent_text: 't',
      consent_hash: 'h',
      source: 'landing-page',
      source2: '',
      click_id: '',
      session_uuid: '',
      privacy_opt_out: 0,
      ip: '',
      user_agent: '',
      host: 'weloans.com',
      environment: 'production',
    },
    ['buyer'],
  );
  const worker = spawn('npx', ['tsx', 'scripts/worker.ts'], {
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
  } finally {
    worker.kill('SIGTERM');
  }
  const code = await new Promise<number | null>((r) => worker.on('exit', (c) => r(c)));
  expect(buyer.received).toHaveLength(1);
  expect([0, null]).toContain(code);
}, 60_000);
