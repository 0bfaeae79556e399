/**
 * Returns on SQLite and PostgreSQL: a buyer returns a lead it bought within its window — the
 * sale turns 'returned', the price given back and the reason kept, the return on the timeline —
 * once, however often or concurrently it is sent; another buyer's lead and an unknown lead get
 * the same 404 (the API does not tell which leads exist), a closed window or a buyer without
 * returns a clear refusal. Over HTTP the request must be
 * signed with the buyer's secret.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import returnAnswerSchema from '../../schemas/api/buyer-return-answer.schema.json' with { type: 'json' };
import type { Buyer } from '../../schemas/buyer.types';
import { buildBuyerCatalog } from '../../engine/sale/buyers';
import { recordReturn } from '../../engine/sale/returns';
import { runSale } from '../../engine/sale/runner';
import { ensureSale, saleOf, timelineOf } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

const KEY = 'a'.repeat(64);
const SECRET = 'returns-buyer-secret-0001';
const DAY = 24 * 3600_000;
const dir = mkdtempSync(join(tmpdir(), 'loansites-returns-'));
const saved = { ...process.env };
let pg: RunningPostgres;
let seller: StandInBuyer;
let other: StandInBuyer;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = KEY;
  [pg, seller, other] = await Promise.all([startPostgres(), startStandInBuyer('returner', SECRET, { ping: { bid: 40 } }), startStandInBuyer('other', SECRET)]);
}, 120_000);
afterAll(async () => {
  process.env = saved;
  await Promise.all([seller?.close(), other?.close()]);
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const docs = (...d: Record<string, unknown>[]): Buyer[] =>
  [...buildBuyerCatalog(d.map((x, i) => ({ file: `b${i}.json`, text: JSON.stringify(x) }))).buyers.values()].map((b) => b.buyer);

async function soldLead(db: Store, buyer: Buyer): Promise<string> {
  const { id } = await insertLead(
    db,
    leadRow({ phone: `469555${String(Math.floor(Math.random() * 9000) + 1000)}`, email: `r${Math.random()}@example.com` }),
    [],
  );
  await ensureSale(db, id, new Date());
  const r = await runSale(db, id, { buyers: [buyer], secretOf: () => SECRET, contactKey: Buffer.alloc(32, 3), worker: 'w', duplicateWindowMs: 0 });
  expect(r).toMatchObject({ status: 'sold', buyerId: buyer.id, priceCents: 4000 });
  return id;
}

describe.each(['SQLite', 'PostgreSQL'])('a return on %s', (kind) => {
  let db: Store;
  let returner: Buyer;
  let stranger: Buyer;
  beforeAll(async () => {
    db = kind === 'SQLite' ? openStore({ url: '', file: join(dir, 'returns.sqlite') }) : openStore({ url: await pg.createDatabase('buyer_returns') });
    await migrateStore(db);
    [returner, stranger] = docs(seller.document({ returnWindowDays: 7 }), other.document()) as [Buyer, Buyer];
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
  });

  it('reverses the sale once, keeps the reason and the price, and puts it on the timeline', async () => {
    const id = await soldLead(db, returner);
    const at = new Date(Date.now() + 2 * DAY);
    const first = await recordReturn(db, returner, { leadId: id, reason: 'invalid-contact', note: 'phone disconnected' }, at);
    expect(first).toEqual({
      ok: true,
      created: true,
      answer: { leadId: id, status: 'returned', reason: 'invalid-contact', refundedPrice: 40, returnedAt: at.toISOString() },
    });
    expect(await saleOf(db, id)).toMatchObject({ status: 'returned', buyer_id: 'returner', price_cents: 4000 });
    const again = await recordReturn(db, returner, { leadId: id, reason: 'fraud' }, new Date(at.getTime() + 1000));
    expect(again).toEqual({ ...first, created: false });
    const returns = (await timelineOf(db, id)).filter((e) => e.step === 'return');
    expect(returns).toMatchObject([{ buyer_id: 'returner', outcome: 'returned', price_cents: -4000, detail: 'invalid-contact: phone disconnected' }]);
  }, 30_000);

  it('records one return when the same return arrives five times at once', async () => {
    const id = await soldLead(db, returner);
    const results = await Promise.all(Array.from({ length: 5 }, () => recordReturn(db, returner, { leadId: id, reason: 'duplicate' }, new Date())));
    expect(results.filter((r) => r.ok && r.created)).toHaveLength(1);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await db.selectFrom('lead_returns').selectAll().where('lead_id', '=', id).execute()).toHaveLength(1);
    expect((await timelineOf(db, id)).filter((e) => e.step === 'return')).toHaveLength(1);
  }, 30_000);

  it('refuses another buyer, an unknown lead, a closed window and a buyer without returns, changing nothing', async () => {
    const id = await soldLead(db, returner);
    // another buyer's lead and a lead that does not exist get the same answer: it does not tell which ids exist
    expect(await recordReturn(db, stranger, { leadId: id, reason: 'fraud' }, new Date())).toEqual({
      ok: false,
      status: 404,
      reason: `No lead ${id} sold to other`,
    });
    expect(await recordReturn(db, stranger, { leadId: 'ld_nosuchlead1', reason: 'fraud' }, new Date())).toEqual({
      ok: false,
      status: 404,
      reason: 'No lead ld_nosuchlead1 sold to other',
    });
    expect(await recordReturn(db, returner, { leadId: id, reason: 'fraud' }, new Date(Date.now() + 8 * DAY))).toMatchObject({
      ok: false,
      status: 409,
      reason: expect.stringContaining('The return window of 7 days closed on'),
    });
    const noReturns = { ...returner, returnWindowDays: 0 };
    expect(await recordReturn(db, noReturns, { leadId: id, reason: 'fraud' }, new Date())).toMatchObject({ ok: false, status: 409 });
    expect(await saleOf(db, id)).toMatchObject({ status: 'sold' });
  }, 30_000);
});

describe('POST /api/buyers/returns', () => {
  let server: TraceServer;
  let db: Store;
  let leadId = '';
  beforeAll(async () => {
    mkdirSync(join(dir, 'buyers'));
    writeFileSync(join(dir, 'buyers', 'returner.json'), JSON.stringify(seller.document({ returnWindowDays: 7 })));
    server = await startTraceServer(
      { LOANSITES_BUYERS_DIR: join(dir, 'buyers'), BUYER_RETURNER_SECRET: SECRET, LEADS_WORKER: 'off', SALE_WORKER: 'off' },
      '/api/buyers/returns',
    );
    db = openStore({ url: '', file: server.dbFile });
    await migrateStore(db);
    leadId = await soldLead(db, docs(seller.document({ returnWindowDays: 7 }))[0]!);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await server?.close();
  });

  const send = (body: string, headers: Record<string, string>, type?: string) =>
    post(server.port, body, { path: '/api/buyers/returns', headers, ...(type ? { type } : {}) });
  const signed = (body: string, secret = SECRET) => ({
    'x-loansites-buyer': 'returner',
    'x-loansites-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  });

  it('answers a signed return 201 then 200, and refuses unsigned, mis-signed, invalid and foreign requests with a 4xx and a reason', async () => {
    const body = JSON.stringify({ leadId, reason: 'did-not-apply' });
    expect(await send(body, {})).toMatchObject({ status: 401, json: { error: expect.stringContaining('bad signature') } });
    expect(await send(body, signed(body, 'not-the-secret'))).toMatchObject({ status: 401 });
    expect(await send(body, { ...signed(body), 'x-loansites-buyer': 'someone-else' })).toMatchObject({ status: 401 });
    expect(await send(body, signed(body), 'text/plain')).toMatchObject({ status: 415 });
    const bad = JSON.stringify({ leadId, reason: 'changed-my-mind' });
    expect(await send(bad, signed(bad))).toMatchObject({ status: 400, json: { problems: [expect.stringContaining('/reason')] } });
    const unknown = JSON.stringify({ leadId: 'ld_unknownlead', reason: 'fraud' });
    expect(await send(unknown, signed(unknown))).toMatchObject({ status: 404, json: { error: 'No lead ld_unknownlead sold to returner' } });

    const first = await send(body, signed(body));
    expect(first).toMatchObject({ status: 201, json: { leadId, status: 'returned', reason: 'did-not-apply', refundedPrice: 40 } });
    expect(await send(body, signed(body))).toMatchObject({ status: 200, json: first.json });
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'returned' });
  }, 60_000);
  it("answers a lead offered to the buyer but not sold to it 404, as the return answer's schema says", async () => {
    const { id } = await insertLead(db, leadRow({ phone: '4695550142', email: `unsold${Math.random()}@example.com` }), []);
    await ensureSale(db, id, new Date());
    seller.ping = 'no-bid';
    try {
      const r = await runSale(db, id, {
        buyers: docs(seller.document({ returnWindowDays: 7 })),
        secretOf: () => SECRET,
        contactKey: Buffer.alloc(32, 3),
        worker: 'w',
        duplicateWindowMs: 0,
      });
      expect(r).toMatchObject({ status: 'unsold' });
    } finally {
      seller.ping = { bid: 40 };
    }
    const body = JSON.stringify({ leadId: id, reason: 'fraud' });
    expect(await send(body, signed(body))).toMatchObject({ status: 404, json: { error: `No lead ${id} sold to returner` } });
    const described = String((returnAnswerSchema as { description: string }).description);
    expect(described).toMatch(/404 no lead sold to you by that id \([^)]*offered to you but not sold to you/);
    expect(described).not.toMatch(/409[^.]*not sold/);
  }, 60_000);
});
