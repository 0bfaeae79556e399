/**
 * A sale whose process died mid-ping, as the console's lead page shows it and as the sweep ends
 * it: a real child process runs the sale against a stand-in buyer that leaves the ping unanswered
 * and is killed (SIGKILL) with the ping out. While its lease runs the page reads as a sale in
 * progress; once the lease ran out it says the sale was interrupted and that the sweep takes it up
 * again, and the ping reads `interrupted`, not `sending` (and, left so for over a minute, that no
 * sweep took it up). Then a server's start-up (instrumentation.ts, in a child process of its own)
 * runs the sale sweep, which sells the lead once: one post, one decision, one sale.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import LeadPage from '../../pages/_console/leads/[id]';
import { leadDetail, SALE_OVERDUE_MS } from '../../engine/console/leadQueries';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { PING_INTERRUPTED, saleOf, timelineOf } from '../../engine/store/sales';
import { storeSaleLead } from '../support/saleLead';
import { buyerDocuments, killMidPing, serverStartChild, standIns } from '../support/saleKit';

const KEY = 'e'.repeat(64);
const SECRET = 'stand-in-buyer-secret-07';
process.env.LEADS_ENCRYPTION_KEY = KEY;
const dir = mkdtempSync(join(tmpdir(), 'loansites-sale-interrupted-'));
const file = join(dir, 'sale.sqlite');
const stands = standIns(SECRET);
let db: Store;
let server: ReturnType<typeof serverStartChild> | undefined;

beforeAll(async () => {
  db = openStore({ url: '', file });
  await migrateStore(db);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await stands.closeAll();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const admin = { email: 'ops@example.com', role: 'admin' as const, csrf: 'c', may: [] };
const pageText = async (leadId: string, now: Date) => {
  const detail = (await leadDetail(db, 'admin', leadId, false, now))!;
  const html = renderToStaticMarkup(createElement(LeadPage, { viewer: admin, id: leadId, detail, canReveal: false, canTrace: false, trace: 'closed' }));
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
};

it('a sale killed mid-ping reads as interrupted once its lease ran out, and the sweep then sells the lead once', async () => {
  const buyer = await stands.start('slow-pinger', { ping: 'hang' });
  const buyers = buyerDocuments(buyer.document());
  const leadId = await storeSaleLead(db, Buffer.from(KEY, 'hex'));

  // a short lease, so the sweep below may take the sale up while the lead's 40 s are still running
  await killMidPing({ file, url: '' }, SECRET, leadId, buyers, buyer, { leaseMs: 1500 });

  const held = (await saleOf(db, leadId))!;
  expect(held).toMatchObject({ status: 'pending', claimed_by: 'child', runs: 1 });
  const leaseEnd = Date.parse(held.claimed_until!);

  // while the lease runs: a sale in progress, its ping out
  const during = (await leadDetail(db, 'admin', leadId, false, leaseEnd - 1))!;
  expect(during.sale).toMatchObject({ status: 'pending', progress: 'selling', overdue: false });
  expect(during.events.map((e) => `${e.step} ${e.outcome}`)).toEqual(['ping sending']);
  expect(await pageText(leadId, new Date(leaseEnd - 1))).toContain('Status pending: being sold now (the process selling it holds its lease until');

  // its lease ran out: nobody is selling it, and nobody awaits the ping's answer
  const after = (await leadDetail(db, 'admin', leadId, false, new Date(leaseEnd + 1)))!;
  expect(after.sale).toMatchObject({ status: 'pending', progress: 'interrupted', overdue: false });
  expect(after.events.map((e) => `${e.step} ${e.outcome}`)).toEqual(['ping interrupted']);
  expect(after.events[0]!.detail).toMatch(new RegExp(`^${PING_INTERRUPTED} \\(pg_`));
  const text = await pageText(leadId, new Date(leaseEnd + 1));
  expect(text).toContain(
    'Status pending, interrupted: the process selling this lead stopped before deciding the sale (its lease on the sale ran out at ' +
      `${held.claimed_until!.slice(0, 10)} ${held.claimed_until!.slice(11, 16)} UTC). ` +
      'The sale sweep, every 5 s on each server running it, takes the sale up again and finishes it; the lead is never sold twice.',
  );
  expect(text).not.toContain('No sweep has taken it up');
  expect(text).not.toMatch(/ ping sending /);
  // left so for over a minute: no sweep is taking it up
  expect(await pageText(leadId, new Date(leaseEnd + SALE_OVERDUE_MS + 1))).toContain(
    'No sweep has taken it up in over a minute: check that a server runs the sale sweep (SALE_WORKER not off) and reaches the store.',
  );

  // a server starts, with the buyer, which now answers its pings; its sweep takes the sale up
  buyer.ping = { bid: 30 };
  const buyersDir = join(dir, 'buyers');
  mkdirSync(buyersDir, { recursive: true });
  writeFileSync(join(buyersDir, `${buyer.id}.json`), JSON.stringify(buyer.document()));
  server = serverStartChild({ LOANSITES_DB_FILE: file, LOANSITES_BUYERS_DIR: buyersDir, BUYER_SLOW_PINGER_SECRET: SECRET, SALE_SWEEP_INTERVAL_MS: '200' });
  const decided = expect.poll(async () => (await saleOf(db, leadId))?.status, { timeout: 60_000 }).not.toBe('pending');
  await decided.catch((err: Error) => {
    throw new Error(`the sweep did not decide the sale; the server logged:\n${server?.output()}`, { cause: err });
  });

  expect(await saleOf(db, leadId)).toMatchObject({ status: 'sold', buyer_id: buyer.id, price_cents: 3000, runs: 2 });
  expect(buyer.posts.map((p) => p.leadId)).toEqual([leadId]);
  expect([...buyer.accepted]).toEqual([leadId]);
  const timeline = await timelineOf(db, leadId);
  expect(timeline.map((e) => `${e.step} ${e.outcome}`)).toEqual(['ping interrupted', 'ping bid', 'post accepted', 'decision sold']);
  const sold = (await leadDetail(db, 'admin', leadId, false, new Date()))!;
  expect(sold.sale).toMatchObject({ status: 'sold', progress: 'decided' });
  expect(await pageText(leadId, new Date())).toContain('Status sold');
}, 150_000);
