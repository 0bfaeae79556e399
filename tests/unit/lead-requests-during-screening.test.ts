/**
 * Requests that arrive while an earlier one is still being screened. A lead's sale starts once
 * the request that stored it has screened it: the same request sent again meanwhile (a double
 * click, a resend after a lost answer, a script posting twice) is answered as the same lead, and
 * must not start the sale itself — that sale would read no score and offer the lead past its
 * brand's refusal or hold. Another request with the same contact, whose sale runs first, is the
 * duplicate all the same: the contact is sold once. The real route on a Node server over SQLite,
 * a stand-in scrub service that is slow to answer, a stand-in buyer in the buyers folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setScrubs } from '../../engine/leads/screening/scrubs';
import { getCatalog } from '../../engine/site/catalog';
import { openStore, type Store } from '../../engine/store/db';
import { saleOf } from '../../engine/store/sales';
import { leadRequest } from '../support/leadRequest';
import { startScrubService, type ScrubService } from '../support/scrubService';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

const SECRET = 'retry-screening-buyer-secret-01';
const dir = mkdtempSync(join(tmpdir(), 'loansites-retry-screening-'));
const saved = { ...process.env };
let scrub: ScrubService;
let buyer: StandInBuyer;
let server: TraceServer;
let db: Store;
let savedScreening: unknown;

beforeAll(async () => {
  scrub = await startScrubService();
  scrub.delayMs = 1500;
  buyer = await startStandInBuyer('eager', SECRET, { ping: { bid: 25 }, post: 'accept' });
  mkdirSync(join(dir, 'buyers'));
  // a development lead (posted on *.localhost) goes only to a buyer that takes test leads
  writeFileSync(join(dir, 'buyers', 'eager.json'), JSON.stringify(buyer.document({ acceptsTestLeads: true })));
  server = await startTraceServer(
    {
      LEADS_ENCRYPTION_KEY: 'c'.repeat(64),
      RATE_LIMIT_LEADS: '100',
      LEADS_WORKER: 'off',
      SALE_WORKER: 'off',
      LEAD_DESTINATIONS: '',
      LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
      BUYER_EAGER_SECRET: SECRET,
      SCREENING_SCRUB_URL: scrub.url,
      SCREENING_SCRUB_TIMEOUT_MS: '5000',
    },
    '/api/leads',
  );
  setScrubs(undefined); // read from the environment just set
  // The brand refuses a lead its outside scrub lists (a known litigator).
  const brand = getCatalog().brands.get('ipaydayloans')!.brand;
  savedScreening = brand.screening;
  brand.screening = { checks: { scrub: { action: 'refuse' } } };
  db = openStore({ url: '', file: server.dbFile });
}, 60_000);
afterAll(async () => {
  getCatalog().brands.get('ipaydayloans')!.brand.screening = savedScreening as undefined;
  setScrubs(undefined);
  await db?.destroy();
  await server?.close();
  await buyer?.close();
  await scrub?.close();
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

it('a request sent again while the first is still being screened does not start the sale: a refused lead is offered to no buyer', async () => {
  const phone = '5125550177';
  scrub.listed.set(phone, ['scrub-litigator']);
  const body = JSON.stringify(leadRequest({ amount: 800, phone }));
  const send = () => post(server.port, body, { path: '/api/leads', ip: '198.51.100.77' });

  const first = send();
  // the first request has stored the lead and is waiting for the scrub
  await expect.poll(() => scrub.requests.length, { timeout: 10_000 }).toBe(1);
  const again = await send();
  expect(again.status).toBe(200);
  const stored = await first;
  expect(stored.status).toBe(201);
  expect(again.json.id).toBe(stored.json.id);
  const id = stored.json.id as string;

  await expect.poll(async () => (await saleOf(db, id))?.status, { timeout: 15_000 }).not.toBe('pending');
  expect(await saleOf(db, id)).toMatchObject({ status: 'unsold', reason: expect.stringContaining('refused by screening') });
  expect(buyer.pings).toHaveLength(0);
  expect(buyer.posts).toHaveLength(0);
}, 60_000);

it('a second request with the same phone, sold while the first is still being screened, is the duplicate: the contact is sold once', async () => {
  const phone = '5125550188';
  const request = () => JSON.stringify(leadRequest({ amount: 800, phone }));
  const asked = scrub.requests.length;
  // the first on a brand whose outside scrub is slow to answer
  const first = post(server.port, request(), { path: '/api/leads', ip: '198.51.100.81' });
  await expect.poll(() => scrub.requests.length, { timeout: 10_000 }).toBe(asked + 1);
  // the second on a brand without a scrub: stored, screened and sold at once
  const second = await post(server.port, request(), {
    path: '/api/leads',
    ip: '198.51.100.82',
    host: 'usinstallmentloans.localhost',
  });
  expect(second.status).toBe(201);
  const stored = await first;
  expect(stored.status).toBe(201);
  const ids = [stored.json.id as string, second.json.id as string];
  await expect.poll(async () => Promise.all(ids.map(async (id) => (await saleOf(db, id))?.status)), { timeout: 15_000 }).not.toContain('pending');

  const sales = await Promise.all(ids.map((id) => saleOf(db, id)));
  expect(sales.map((s) => s?.status)).toEqual(['sold', 'duplicate']);
  expect(new Set(buyer.posts.filter((p) => ids.includes(p.leadId)).map((p) => p.leadId))).toEqual(new Set([ids[0]]));
}, 60_000);
