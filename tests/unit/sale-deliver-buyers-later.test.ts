/**
 * What happens to a lead after its sale, or instead of it, against real webhooks on loopback and
 * SQLite: a deliver buyer that takes test leads (a sandbox) gets them; a lead waiting for a
 * deliver buyer that is down goes to nobody once the borrower opts out, and a deliver buyer that
 * had it — or answered 503, which may have kept it — is told, as a buyer that bought it would be; a sale that could only start after
 * the borrower's page had stopped waiting offers the lead to no ping or post buyer.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../engine/outbox/deliver';
import { getBuyers } from '../../engine/sale/buyers';
import { contactKey, contactKeys } from '../../engine/sale/keys';
import { recordOptOut } from '../../engine/sale/optOut';
import { runSale, SALE_DEADLINE_MS } from '../../engine/sale/runner';
import { ensureSale, timelineOf } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { startBuyer, type Buyer as Webhook } from '../support/buyer';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { leadRow } from '../support/leadRow';

const SECRET = 'deliver-later-secret-0001';
const dir = mkdtempSync(join(tmpdir(), 'loansites-deliver-later-'));
const saved = { ...process.env };
let db: Store;
let sandbox: Webhook;
let strict: Webhook;
let notices: Webhook;
let bidder: StandInBuyer;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = '7'.repeat(64);
  [sandbox, strict, notices] = await Promise.all([startBuyer(SECRET), startBuyer(SECRET), startBuyer(SECRET)]);
  bidder = await startStandInBuyer('bidder', SECRET, { ping: { bid: 30 } });
  mkdirSync(join(dir, 'buyers'));
  const deliverBuyer = (id: string, hook: Webhook, more: object) =>
    writeFileSync(
      join(dir, 'buyers', `${id}.json`),
      JSON.stringify({ $schema: 'x', id, displayName: id, mode: 'deliver', endpoints: { deliver: hook.url }, secretEnv: 'BUYER_LATER_SECRET', ...more }),
    );
  deliverBuyer('sandbox', sandbox, { acceptsTestLeads: true, optOutUrl: notices.url });
  deliverBuyer('strict', strict, {});
  process.env.LOANSITES_BUYERS_DIR = join(dir, 'buyers');
  process.env.BUYER_LATER_SECRET = SECRET;
  db = openStore({ url: '', file: join(dir, 'store.sqlite') });
  await migrateStore(db);
});
afterAll(async () => {
  process.env = saved;
  await db?.destroy();
  await Promise.all([sandbox?.close(), strict?.close(), notices?.close(), bidder?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function storeLead(over: Parameters<typeof leadRow>[0] = {}): Promise<string> {
  n += 1;
  const { id } = await insertLead(db, leadRow({ email: `later${n}@example.org`, phone: `51255501${String(n).padStart(2, '0')}`, ...over }), []);
  await ensureSale(db, id, new Date());
  return id;
}
const deliverBuyers = () => [...getBuyers().buyers.values()].map((b) => b.buyer);
const wantsNotice = (id: string) => !!getBuyers().buyers.get(id)?.buyer.optOutUrl;
const deps = (buyers = deliverBuyers()) => ({ buyers, secretOf: () => SECRET, contactKey: contactKey(), suppressionKeys: contactKeys(), worker: 'w' });
const rows = (leadId: string) =>
  db.selectFrom('lead_deliveries').select(['destination', 'status', 'last_error']).where('lead_id', '=', leadId).orderBy('destination').execute();
/** Every delivery of the lead due now (a failed one waits its back-off), then one outbox round. */
async function deliverNow() {
  await db
    .updateTable('lead_deliveries')
    .set({ next_attempt_at: new Date(0).toISOString() })
    .where('status', '=', 'pending')
    .execute();
  return deliverDue(db, 'sqlite', { worker: 'outbox' });
}

describe('deliver buyers after the sale', () => {
  it('a deliver buyer that takes test leads gets a development lead; one that does not is never offered it', async () => {
    const lead = await storeLead({ host: 'ipaydayloans.localhost', environment: 'development' });
    expect(await runSale(db, lead, deps())).toMatchObject({ status: 'unsold' });
    await deliverNow();
    expect(await rows(lead)).toEqual([{ destination: 'buyer:sandbox', status: 'delivered', last_error: null }]);
    expect(sandbox.received.map((r) => r.id)).toEqual([lead]);
    expect(strict.received).toEqual([]);
  });

  it('a lead waiting for a deliver buyer that is down goes to nobody once the borrower opts out, and a buyer whose 503 may have kept it is told', async () => {
    const email = 'changed.mind@example.org';
    const lead = await storeLead({ email });
    sandbox.mode = 'down';
    strict.mode = 'down';
    try {
      expect(await runSale(db, lead, deps())).toMatchObject({ status: 'unsold' });
      expect(await deliverNow()).toMatchObject({ failed: 2 });
      // both answered 503 to a lead they were sent: either may hold it; only sandbox gave an optOutUrl
      expect(await recordOptOut(db, contactKeys(), { email }, wantsNotice, new Date())).toEqual({ notices: 1 });
    } finally {
      sandbox.mode = 'ok';
      strict.mode = 'ok';
    }
    const before = sandbox.received.length + strict.received.length;
    expect(await deliverNow()).toMatchObject({ delivered: 1, rejected: 2 });
    expect(await rows(lead)).toEqual([
      { destination: 'buyer:sandbox', status: 'rejected', last_error: 'not sent: the borrower opted out before it went' },
      { destination: 'buyer:strict', status: 'rejected', last_error: 'not sent: the borrower opted out before it went' },
      { destination: 'optout:sandbox', status: 'delivered', last_error: null },
    ]);
    expect(sandbox.received.length + strict.received.length).toBe(before);
    expect(notices.received.filter((r) => r.body.leadId === lead).map((r) => r.body)).toEqual([
      expect.objectContaining({ type: 'opt-out', leadId: lead, revokes: ['calls', 'texts', 'emails'] }),
    ]);
  });

  it('a deliver buyer that answered 503 while the borrower was opting out is told', async () => {
    const email = 'opted.midway@example.org';
    const lead = await storeLead({ email });
    expect(await runSale(db, lead, deps())).toMatchObject({ status: 'unsold' });
    sandbox.mode = 'down';
    strict.mode = 'down';
    // the opt-out is recorded while the lead is out to the buyers, before their 503 is read
    const optingOut: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      await recordOptOut(db, contactKeys(), { email }, wantsNotice, new Date());
      return res;
    };
    try {
      // the sandbox's delivery alone is due: no other answer of this lead is read meanwhile
      await db
        .updateTable('lead_deliveries')
        .set({ next_attempt_at: new Date(Date.now() + 3_600_000).toISOString() })
        .where('lead_id', '=', lead)
        .where('destination', '!=', 'buyer:sandbox')
        .execute();
      expect(await deliverDue(db, 'sqlite', { worker: 'outbox', fetcher: optingOut })).toMatchObject({ claimed: 1, failed: 1 });
    } finally {
      sandbox.mode = 'ok';
      strict.mode = 'ok';
    }
    await deliverNow();
    expect(notices.received.filter((r) => r.body.leadId === lead).map((r) => r.body)).toEqual([expect.objectContaining({ type: 'opt-out', leadId: lead })]);
    expect(sandbox.received.map((r) => r.id)).not.toContain(lead);
  });

  it('a deliver buyer that had the lead is told when the borrower opts out, at its optOutUrl', async () => {
    const email = 'later.no@example.org';
    const lead = await storeLead({ email });
    expect(await runSale(db, lead, deps())).toMatchObject({ status: 'unsold' });
    await deliverNow();
    expect(sandbox.received.map((r) => r.id)).toContain(lead);
    const { notices: queued } = await recordOptOut(db, contactKeys(), { email }, wantsNotice, new Date());
    expect(queued).toBe(1);
    await deliverNow();
    expect(notices.received.map((r) => r.body)).toContainEqual(expect.objectContaining({ type: 'opt-out', leadId: lead }));
    expect((await rows(lead)).map((r) => `${r.destination} ${r.status}`)).toContain('optout:sandbox delivered');
  });
});

describe('a sale that starts late', () => {
  it('offers the lead to no ping or post buyer once the borrower’s page has stopped waiting, and to the deliver buyers instead', async () => {
    const buyers = [bidder.document(), ...deliverBuyers()] as ReturnType<typeof deliverBuyers>;
    const late = await storeLead({ created_at: new Date(Date.now() - SALE_DEADLINE_MS - 20_000).toISOString() });
    expect(await runSale(db, late, deps(buyers))).toMatchObject({ status: 'unsold', reason: 'the borrower had stopped waiting before the sale could start' });
    const timeline = (await timelineOf(db, late)).map((e) => `${e.buyer_id} ${e.step} ${e.outcome}`);
    expect(timeline.filter((e) => e.startsWith('bidder'))).toEqual([]);
    expect(timeline).toEqual(expect.arrayContaining(['sandbox deliver queued', 'strict deliver queued']));
    // the same lead arriving now is sold to the bidder
    const fresh = await storeLead();
    expect(await runSale(db, fresh, deps(buyers))).toMatchObject({ status: 'sold', buyerId: 'bidder' });
  });
});
