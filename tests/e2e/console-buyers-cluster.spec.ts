/**
 * A buyer paused in the console of one instance stops being offered leads on the other within
 * 5 seconds, without a restart: two production instances on one PostgreSQL and one Redis (as
 * deploy/compose.yaml runs them), a stand-in buyer as their one buyer document. The admin pauses it
 * through instance A's console form; leads posted to instance B right after are no longer offered
 * to it (no ping reaches it) within 5 s. Resumed on A, B offers it leads again. A third instance
 * without Redis (as one that missed the message) learns of the change by polling alone, as fast.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { E2E_PORT } from '../../playwright.config';
import { CURRENT_CONSENT_VERSION } from '../../engine/site/consent';
import { startInstance, type Instance } from '../support/instances';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { startRedis, type RunningRedis } from '../support/redis';
import { freePort } from '../support/ports';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { addUser, raw, signIn } from './console.fixtures';

const SECRET = 'cluster-buyers-stand-in-secret-01';
const BUYER = 'cluster-buyer';
const dir = mkdtempSync(join(tmpdir(), 'loansites-cluster-buyers-'));
let redis: RunningRedis;
let postgres: RunningPostgres;
let databaseUrl: string;
let db: pg.Pool;
let a: Instance;
let b: Instance;
/** no REDIS_URL: it hears no message and must find the change by polling */
let c: Instance;
let buyer: StandInBuyer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  [redis, postgres, buyer] = await Promise.all([
    startRedis({ port: await freePort(E2E_PORT + 8) }),
    startPostgres(),
    startStandInBuyer(BUYER, SECRET, { ping: { bid: 15 } }),
  ]);
  databaseUrl = await postgres.createDatabase('cluster_buyers');
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  mkdirSync(join(dir, 'buyers'));
  writeFileSync(join(dir, 'buyers', `${BUYER}.json`), JSON.stringify(buyer.document({ acceptsTestLeads: true, acceptsDuplicates: true })));
  const env = {
    REDIS_URL: redis.url,
    DATABASE_URL: databaseUrl,
    LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
    BUYER_CLUSTER_BUYER_SECRET: SECRET,
    LEAD_DESTINATIONS: '',
    LEADS_ENCRYPTION_KEY: 'c'.repeat(64),
    RATE_LIMIT_LEADS: '1000',
  };
  // One after the other: both migrate on start.
  a = await startInstance(await freePort(E2E_PORT + 9), env);
  b = await startInstance(await freePort(E2E_PORT + 10), env);
  c = await startInstance(await freePort(E2E_PORT + 11), { ...env, REDIS_URL: '' });
});

test.afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop(), c?.stop()]);
  await db?.end();
  await Promise.allSettled([redis?.stop(), postgres?.stop(), buyer?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

let leads = 0;
/** A lead posted straight to an instance (B unless told); the sale's status once decided. */
async function leadOn(instance: Instance = b): Promise<string> {
  const n = ++leads;
  const email = `cluster.${Date.now()}.${n}@example.org`;
  const res = await raw(
    'POST',
    '/api/leads',
    'ipaydayloans.localhost',
    JSON.stringify({
      idempotencyKey: `cluster-buyers-${Date.now()}-${n}-abcdefgh`,
      amount: 900,
      zip: '78701',
      firstName: 'Ana',
      lastName: 'Diaz',
      email,
      phone: `512555${String(1000 + n).slice(-4)}`,
      incomeSource: 'employment',
      monthlyIncome: 3200,
      payFrequency: 'biweekly',
      dateOfBirth: '1990-04-02',
      consent: { accepted: true, version: CURRENT_CONSENT_VERSION },
      tracking: { source: 'cluster' },
    }),
    { 'content-type': 'application/json' },
    undefined,
    Number(new URL(instance.url).port),
  );
  expect(res.status, res.body).toBe(201);
  const status = async () =>
    (await db.query<{ status: string }>('SELECT s.status FROM lead_sales s JOIN leads l ON l.id = s.lead_id WHERE l.email = $1', [email])).rows[0]?.status ??
    'pending';
  await expect.poll(status, { timeout: 10_000 }).not.toBe('pending');
  return status();
}

async function setStatusOnA(page: Page, label: string) {
  await page.goto(`http://console.localhost:${new URL(a.url).port}/buyers/${BUYER}`);
  await page.getByRole('radio', { name: label }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toContainText(/Saved as version \d+/);
}

test('paused in instance A’s console, the buyer is not offered the leads posted to B (Redis) or C (polling only) within 5 s; resumed, it is again', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // both have sold with the buyer's file before the change (each holds its set already)
  expect(await leadOn()).toBe('sold');
  expect(await leadOn(c)).toBe('sold');
  await signIn(page, addUser('admin', '', databaseUrl), undefined, `http://console.localhost:${new URL(a.url).port}`);

  await setStatusOnA(page, 'Paused: offered nothing');
  // both within 5 s of the save: B told through Redis, C finding it by polling
  await Promise.all([b, c].map((instance) => expect.poll(() => leadOn(instance), { timeout: 5_000, intervals: [100] }).toBe('unsold')));
  const pings = buyer.pings.length;
  expect(await leadOn()).toBe('unsold');
  expect(buyer.pings.length).toBe(pings);

  await setStatusOnA(page, 'Active: offered leads');
  await Promise.all([b, c].map((instance) => expect.poll(() => leadOn(instance), { timeout: 5_000, intervals: [100] }).toBe('sold')));
});
