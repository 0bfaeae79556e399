/**
 * After the sale: an unsold lead reaches the deliver buyers (buyer documents) through the
 * existing signed outbox, and `npm run leads` shows each lead's sale — status, buyer, price —
 * as a table, JSON and CSV.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sealText } from '../../engine/keys/sealing';
import { deliverDue } from '../../engine/outbox/deliver';
import { buildBuyerCatalog, getBuyers } from '../../engine/sale/buyers';
import { runSale } from '../../engine/sale/runner';
import { ensureSale, timelineOf } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { startBuyer, type Buyer as Webhook } from '../support/buyer';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { BO_LEE, leadRow } from '../support/leadRow';

const KEY = 'e'.repeat(64);
const SECRET = 'outbox-listing-secret-01';
const dir = mkdtempSync(join(tmpdir(), 'loansites-sale-outbox-'));
const file = join(dir, 'store.sqlite');
let db: Store;
let hook: Webhook;
let bidder: StandInBuyer;
const saved = { ...process.env };

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = KEY;
  hook = await startBuyer(SECRET);
  bidder = await startStandInBuyer('bidder', SECRET, { ping: { bid: 25 } });
  mkdirSync(join(dir, 'buyers'));
  writeFileSync(
    join(dir, 'buyers', 'network.json'),
    JSON.stringify({
      $schema: 'x',
      id: 'network',
      displayName: 'Network',
      mode: 'deliver',
      endpoints: { deliver: hook.url },
      secretEnv: 'BUYER_NETWORK_SECRET',
    }),
  );
  process.env.LOANSITES_BUYERS_DIR = join(dir, 'buyers');
  process.env.BUYER_NETWORK_SECRET = SECRET;
  db = openStore({ url: '', file });
  await migrateStore(db);
});
afterAll(async () => {
  process.env = saved;
  await db?.destroy();
  await hook?.close();
  await bidder?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storeLead(amount: number, phone: string): Promise<string> {
  const { id } = await insertLead(
    db,
    leadRow({
      ...BO_LEE,
      idempotency_key: `outbox-listing-${phone}`,
      amount,
      host: 'weloans.ca',
      email: `bo${phone}@example.org`,
      phone,
      sealed: sealText(JSON.stringify({ dateOfBirth: '1985-01-01', monthlyIncome: 2000 }), Buffer.from(KEY, 'hex')),
      source: 'landing-page',
    }),
    [],
  );
  await ensureSale(db, id, new Date());
  return id;
}

it('sends an unsold lead to the deliver buyers through the signed outbox, and a sold one to nobody else', async () => {
  const docs = buildBuyerCatalog([{ file: 'b.json', text: JSON.stringify(bidder.document({ filters: { amount: { max: 1000 } } })) }]);
  const buyers = [...docs.buyers.values(), ...getBuyers().buyers.values()].map((b) => b.buyer);
  const deps = { buyers, secretOf: () => SECRET, contactKey: Buffer.alloc(32, 2), worker: 'w' };
  const sold = await storeLead(800, '5125550101');
  const unsold = await storeLead(5000, '5125550102');
  expect(await runSale(db, sold, deps)).toMatchObject({ status: 'sold', buyerId: 'bidder', priceCents: 2500 });
  expect(await runSale(db, unsold, deps)).toMatchObject({ status: 'unsold', reason: 'no eligible buyer' });
  expect((await timelineOf(db, unsold)).map((e) => `${e.buyer_id} ${e.step} ${e.outcome}`)).toEqual([
    'bidder eligibility skipped',
    'network deliver queued',
    ' decision unsold',
  ]);

  await expect
    .poll(async () => (await deliverDue(db, 'sqlite', { worker: 'outbox' })).delivered + hook.received.length, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(1);
  expect(hook.received.map((r) => r.id)).toEqual([unsold]);
  expect(hook.received[0]!.headers['idempotency-key']).toBe(unsold);

  const env = { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '' };
  const run = (...args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/leads.ts', '--since', '1h', ...args], { env, encoding: 'utf8' });
  const json = (JSON.parse(run('--json')) as { leads: { id: string; sale: { status: string; buyer: string | null; price: number | null } }[] }).leads;
  expect(json.find((l) => l.id === sold)!.sale).toMatchObject({ status: 'sold', buyer: 'bidder', price: 25 });
  expect(json.find((l) => l.id === unsold)!.sale).toMatchObject({ status: 'unsold', buyer: null, price: null });
  const csv = run('--csv').split('\n');
  expect(csv[0]).toContain('sale_status,sale_buyer,sale_price');
  expect(csv.find((l) => l.includes(sold))).toContain('sold,bidder,25.00');
  const table = run();
  expect(table).toMatch(/sale\s+.*buyer\s+.*price/);
  expect(table).toMatch(/sold\s+bidder\s+25\.00 USD/);
}, 60_000);
