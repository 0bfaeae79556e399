/**
 * The sale against real stand-in buyers (HTTP servers on loopback) on SQLite and PostgreSQL:
 * the best bid that accepts wins, every hostile or failing buyer is a recorded refusal, a lead
 * is sold once however many workers run it, and a sale killed mid-post resumes to one sale or
 * none — never two; a worker that lost its lease while stalled posts the lead to nobody, pings
 * nobody and asks no buyer again; a sale taken over after its deliver buyers were queued says
 * each delivery once on its timeline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import postgres from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { buyersOverview } from '../../engine/console/buyerQueries';
import { recordOptOut } from '../../engine/sale/optOut';
import { runSale, SALE_DEADLINE_MS, SALE_LEASE_MS, type SaleDeps, type SaleResult } from '../../engine/sale/runner';
import { addEvent, addEvents, claimSale, finishSale, PING_INTERRUPTED, saleOf, timelineOf } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { storeSaleLead } from '../support/saleLead';
import { buyerDocuments, killMidPost as killMidPostIn, saleDeps, standIns } from '../support/saleKit';
import type { StandInBuyer } from '../support/standInBuyer';

const KEY = 'd'.repeat(64);
const SECRET = 'stand-in-buyer-secret-01';
process.env.LEADS_ENCRYPTION_KEY = KEY;
const dir = mkdtempSync(join(tmpdir(), 'loansites-sale-'));
let pg: RunningPostgres;
const stands = standIns(SECRET);

beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await stands.closeAll();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const storeLead = (db: Store, over: { phone?: string; email?: string; amount?: number } = {}) => storeSaleLead(db, Buffer.from(KEY, 'hex'), over);
const buyer = stands.start;
const documents = buyerDocuments;
const deps = (buyers: Buyer[], over: Partial<SaleDeps> = {}) => saleDeps(SECRET, Buffer.alloc(32, 1), buyers, over);
const deliverDoc = (id: string, more: Record<string, unknown> = {}) => ({
  $schema: '../../schemas/buyer.schema.json',
  id,
  displayName: id,
  mode: 'deliver',
  endpoints: { deliver: `https://${id}.partner.example/leads` },
  secretEnv: `BUYER_${id.toUpperCase().replace(/-/g, '_')}_SECRET`,
  ...more,
});

describe.each(['SQLite', 'PostgreSQL'])('the sale on %s', (kind) => {
  let db: Store;
  let file = '';
  let url = '';
  beforeAll(async () => {
    if (kind === 'SQLite') {
      file = join(dir, `sale-${kind}.sqlite`);
      db = openStore({ url: '', file });
    } else {
      url = await pg.createDatabase('sale_runner');
      db = openStore({ url });
    }
    await migrateStore(db);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
  });

  it('a timeline lists events written in the same millisecond in the order they were written', async () => {
    const id = await storeLead(db);
    const at = new Date().toISOString();
    const steps = Array.from({ length: 40 }, (_, i) => `b${String(i).padStart(2, '0')}`);
    for (const b of steps) await addEvent(db, { lead_id: id, at, buyer_id: b, step: 'eligibility', outcome: 'skipped' });
    await addEvents(
      db,
      steps.map((b) => ({ lead_id: id, at, buyer_id: `${b}-x`, step: 'deliver' as const, outcome: 'queued' as const })),
    );
    expect((await timelineOf(db, id)).map((e) => e.buyer_id)).toEqual([...steps, ...steps.map((b) => `${b}-x`)]);
  });

  it('posts to the best bid that accepts; hostile, silent and failing bidders and a refused redirect are refusals on the timeline', async () => {
    const top = await buyer(`top-${kind.toLowerCase()}`, { ping: { bid: 50 }, post: 'wrong-redirect' });
    const good = await buyer(`good-${kind.toLowerCase()}`, { ping: { bid: 20 } });
    const silent = await buyer(`silent-${kind.toLowerCase()}`, { ping: 'hang' });
    const broken = await buyer(`broken-${kind.toLowerCase()}`, { ping: 'error' });
    const huge = await buyer(`huge-${kind.toLowerCase()}`, { ping: 'huge' });
    const typed = await buyer(`typed-${kind.toLowerCase()}`, { ping: 'bad-types' });
    const refuser = await buyer(`refuser-${kind.toLowerCase()}`, { ping: 'no-bid' });
    const cheap = await buyer(`cheap-${kind.toLowerCase()}`, { ping: { bid: 2 } });
    const all = [top, good, silent, broken, huge, typed, refuser, cheap];
    const buyers = documents(
      ...all.map((b) => b.document(b === cheap ? { price: { floor: 5 } } : b === silent ? { timeouts: { pingMs: 1000, postMs: 1500 } } : {})),
    );
    const leadId = await storeLead(db);

    const result = await runSale(db, leadId, deps(buyers));

    expect(result).toMatchObject({ status: 'sold', buyerId: good.id, priceCents: 2000, redirectUrl: `https://${good.id}.lender.example/offer/${leadId}` });
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'sold', buyer_id: good.id, price_cents: 2000, claimed_by: null });
    const timeline = await timelineOf(db, leadId);
    const row = (b: StandInBuyer, step: string) => timeline.find((e) => e.buyer_id === b.id && e.step === step);
    expect(row(silent, 'ping')).toMatchObject({ outcome: 'no-bid', detail: 'no answer within 1000 ms' });
    expect(row(broken, 'ping')).toMatchObject({ outcome: 'no-bid', detail: 'HTTP 500' });
    expect(row(huge, 'ping')).toMatchObject({ outcome: 'no-bid', detail: 'answer body over 16384 bytes' });
    expect(row(typed, 'ping')?.detail).toMatch(/^answer not valid: \/bid must be a boolean/);
    expect(row(refuser, 'ping')).toMatchObject({ outcome: 'no-bid', detail: 'no bid: not today' });
    expect(row(cheap, 'ping')).toMatchObject({ outcome: 'no-bid', detail: 'bid under the floor 5' });
    expect(row(top, 'post')).toMatchObject({
      outcome: 'refused',
      detail: "accept not taken: redirect refused: elsewhere.example is not one of the buyer's redirectHosts",
    });
    expect(row(good, 'post')).toMatchObject({ outcome: 'accepted', price_cents: 2000 });
    expect(row(cheap, 'post')).toBeUndefined();
    for (const e of timeline.filter((x) => x.step === 'ping')) expect(e.latency_ms).toBeGreaterThanOrEqual(0);
    // the pings carried nothing that identifies the borrower; the post to the winner did
    for (const b of all) for (const p of b.pings) expect(Object.keys(p).sort()).not.toContain('email');
    expect(JSON.stringify(good.pings)).not.toMatch(/Diaz|75001|1990-04-02/);
    expect(good.posts[0]!.body).toMatchObject({ id: leadId, lastName: 'Diaz', price: 20, pingId: expect.stringMatching(/^pg_/) });
  }, 30_000);

  it('sells each of 20 concurrent leads once, with two workers racing for every sale', async () => {
    const a = await buyer(`race-${kind.toLowerCase()}`, { ping: { bid: 30 } });
    const d = await buyer(`direct-${kind.toLowerCase()}`, { mode: 'direct-post' });
    const buyers = documents(a.document(), d.document({ tier: 2 }));
    const leads = await Promise.all(Array.from({ length: 20 }, () => storeLead(db)));
    const results = await Promise.all(
      leads.flatMap((id) => [runSale(db, id, deps(buyers, { worker: 'w1' })), runSale(db, id, deps(buyers, { worker: 'w2' }))]),
    );

    expect(results.filter((r) => r?.status === 'sold')).toHaveLength(20);
    for (const id of leads) {
      expect(await saleOf(db, id)).toMatchObject({ status: 'sold', buyer_id: a.id, price_cents: 3000, runs: 1 });
      expect(a.posts.filter((p) => p.leadId === id)).toHaveLength(1);
      expect((await timelineOf(db, id)).filter((e) => e.outcome === 'accepted')).toHaveLength(1);
    }
    expect(d.posts).toHaveLength(0);
  }, 60_000);

  it('marks a second request with the same phone a duplicate, offered only to buyers that take duplicates', async () => {
    const picky = await buyer(`picky-${kind.toLowerCase()}`, { ping: { bid: 30 } });
    const buyers = documents(picky.document());
    const phone = '(469) 555-0142';
    const first = await storeLead(db, { phone });
    expect(await runSale(db, first, deps(buyers))).toMatchObject({ status: 'sold' });
    const second = await storeLead(db, { phone: '4695550142' });
    expect(await runSale(db, second, deps(buyers))).toMatchObject({ status: 'duplicate', reason: 'no eligible buyer' });
    expect((await timelineOf(db, second)).find((e) => e.buyer_id === picky.id)).toMatchObject({
      step: 'eligibility',
      outcome: 'skipped',
      detail: 'a duplicate',
    });
    const open = documents(picky.document({ acceptsDuplicates: true }));
    const third = await storeLead(db, { email: 'x@example.com', phone: '4695550142' });
    expect(await runSale(db, third, deps(open))).toMatchObject({ status: 'sold' });
    expect(await saleOf(db, third)).toMatchObject({ duplicate: 1 });
  }, 30_000);

  it('a worker whose lease ran out while its ping was out leaves the decision to the worker that took the sale over', async () => {
    const slow = await buyer(`slow-${kind.toLowerCase()}`, { ping: { bid: 30 } });
    const buyers = documents(slow.document());
    const leadId = await storeLead(db);
    let stalledFor = 0;
    let taken: SaleResult | undefined;
    slow.beforeBid = async () => {
      slow.beforeBid = undefined;
      // the worker is held up past its lease; another takes the sale up and decides it
      stalledFor = SALE_LEASE_MS + 1000;
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: () => new Date(Date.now() + stalledFor) }));
    };

    await runSale(db, leadId, deps(buyers, { worker: 'w-stalled', now: () => new Date(Date.now() + stalledFor) }));

    const reason = 'the borrower had stopped waiting before the sale could start';
    expect(taken).toMatchObject({ status: 'unsold', reason });
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'unsold', reason, runs: 2 });
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => e.detail)).toEqual([reason]);
    // its bid came after the other worker's decision: nothing written by it; its ping's row settled by the worker that took the sale over
    expect(timeline.filter((e) => e.step === 'ping').map((e) => `${e.buyer_id} ${e.outcome}: ${e.detail}`)).toEqual([
      `${slow.id} interrupted: ${PING_INTERRUPTED} (${String(slow.pings[0]!.pingId)})`,
    ]);
    expect(slow.posts).toHaveLength(0);
  }, 30_000);

  const afterLease = () => new Date(Date.now() + SALE_LEASE_MS + 1000);

  it('pings out when their worker lost the sale to one that sold the lead end interrupted, each once, none left sending', async () => {
    const winner = await buyer(`outbid-${kind.toLowerCase()}`, { ping: { bid: 40 } });
    const other = await buyer(`also-pinged-${kind.toLowerCase()}`, { ping: { bid: 25 } });
    const buyers = documents(winner.document(), other.document());
    const leadId = await storeLead(db);
    let taken: SaleResult | undefined;
    winner.beforeBid = async () => {
      winner.beforeBid = undefined;
      // Both of the stalled worker's pings are out when its lease runs out: another worker takes
      // the sale up, still in time, pings both buyers itself and sells the lead. Only then are the
      // stalled worker's pings answered.
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: afterLease, deadlineMs: SALE_LEASE_MS + 60_000 }));
    };

    const stalled = await runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));

    expect(taken).toMatchObject({ status: 'sold', buyerId: winner.id, priceCents: 4000 });
    expect(stalled).toBeUndefined(); // not this worker's sale any more
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'sold', buyer_id: winner.id, runs: 2 });
    const timeline = await timelineOf(db, leadId);
    // one row per ping each buyer received, found by its ping id: the stalled worker's interrupted, the other's answered
    const rowsOf = (b: StandInBuyer) =>
      b.pings
        .map((p) =>
          timeline
            .filter((e) => e.step === 'ping' && e.buyer_id === b.id && e.detail.includes(String(p.pingId)))
            .map((e) => e.outcome)
            .join(' and '),
        )
        .sort();
    expect(rowsOf(winner)).toEqual(['bid', 'interrupted']);
    expect(rowsOf(other)).toEqual(['bid', 'interrupted']);
    expect(timeline.filter((e) => e.step === 'ping')).toHaveLength(4);
    expect(timeline.filter((e) => e.outcome === 'sending')).toEqual([]);
    expect(timeline.filter((e) => e.outcome === 'interrupted').map((e) => e.latency_ms)).toEqual([null, null]);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => `${e.buyer_id} ${e.outcome}`)).toEqual([`${winner.id} sold`]);
    expect(winner.posts).toHaveLength(1);
    // the buyers page counts every ping that went out; an interrupted one is neither a bid nor a failure, and in no rate
    const hour = 3_600_000;
    const rows = await buyersOverview(db, new Date(Date.now() - hour).toISOString(), new Date(Date.now() + 2 * SALE_LEASE_MS).toISOString());
    expect(rows.find((r) => r.buyer === other.id)).toMatchObject({ pings: 2, bids: 1, bidRate: 1, interrupted: 1, lastError: '' });
  }, 30_000);

  it('a sale resumed after its worker died with a ping out settles that ping interrupted, even when the sale then ends at once', async () => {
    const pinged = await buyer(`died-pinging-${kind.toLowerCase()}`, { ping: { bid: 30 } });
    const buyers = documents(pinged.document());
    const email = `gone.${kind.toLowerCase()}@example.com`;
    const leadId = await storeLead(db, { email });
    // an earlier run pinged the buyer and died, its lease run out; the borrower opted out since
    expect(await claimSale(db, leadId, 'w-dead', new Date(Date.now() - SALE_LEASE_MS - 1000), SALE_LEASE_MS)).toBeTruthy();
    await addEvent(db, { lead_id: leadId, at: new Date().toISOString(), buyer_id: pinged.id, step: 'ping', outcome: 'sending', detail: 'pg_dead' });
    await recordOptOut(db, [Buffer.alloc(32, 1)], { email }, () => false, new Date());

    const resumed = await runSale(db, leadId, deps(buyers, { worker: 'w-resumed' }));

    expect(resumed).toMatchObject({ status: 'suppressed', reason: 'the contact opted out' });
    expect((await timelineOf(db, leadId)).map((e) => `${e.step} ${e.buyer_id} ${e.outcome}: ${e.detail}`)).toEqual([
      `ping ${pinged.id} interrupted: ${PING_INTERRUPTED} (pg_dead)`,
      'decision  unsold: the contact opted out',
    ]);
    expect(pinged.pings).toHaveLength(0);
  }, 30_000);

  it('a worker that wakes after another took its sale over pings no buyer of the next tier', async () => {
    const first = await buyer(`tier1-${kind.toLowerCase()}`, { ping: 'no-bid' });
    const next = await buyer(`tier2-${kind.toLowerCase()}`, { ping: { bid: 30 } });
    const buyers = documents(first.document(), next.document({ tier: 2 }));
    const leadId = await storeLead(db);
    let taken: SaleResult | undefined;
    first.beforeBid = async () => {
      first.beforeBid = undefined;
      // While tier 1 decides, another worker finds the lease run out and takes the sale up and decides
      // it. Only its clock is past the lease: the stalled worker's still says the sale's bound has not
      // passed, so what stops it is that the sale is no longer its own.
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: afterLease }));
    };

    const stalled = await runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));

    const reason = 'the borrower had stopped waiting before the sale could start';
    expect(first.pings).toHaveLength(1);
    expect(next.pings).toHaveLength(0); // nothing of the lead offered for a sale this worker no longer runs
    expect(next.posts).toHaveLength(0);
    expect(taken).toMatchObject({ status: 'unsold', reason });
    expect(stalled).toBeUndefined(); // not this worker's sale any more
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'unsold', reason, runs: 2 });
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'ping').map((e) => e.buyer_id)).toEqual([first.id]);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => e.detail)).toEqual([reason]);
  }, 30_000);

  it('a worker that wakes after another took its sale over does not post again to a buyer the other asked', async () => {
    const down = await buyer(`down-${kind.toLowerCase()}`, { ping: { bid: 30 }, post: 'error' });
    const buyers = documents(down.document());
    const leadId = await storeLead(db);
    let stalledFor = 0;
    let taken: SaleResult | undefined;
    down.beforeAnswer = async () => {
      down.beforeAnswer = undefined;
      // held up past its lease while its post is out; another takes the sale up and asks the buyer itself (rule 3b)
      stalledFor = SALE_LEASE_MS + 1000;
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: () => new Date(Date.now() + stalledFor) }));
    };

    const stalled = await runSale(db, leadId, deps(buyers, { worker: 'w-stalled', now: () => new Date(Date.now() + stalledFor) }));

    const reason = `sale interrupted while posting to ${down.id}, which did not confirm its answer`;
    // the stalled worker's post, then the other's two asks: the stalled worker asked no more
    expect(down.posts.map((p) => p.leadId)).toEqual([leadId, leadId, leadId]);
    expect(taken).toMatchObject({ status: 'unsold', reason });
    expect(stalled).toBeUndefined();
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'unsold', reason, runs: 2 });
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'post').map((e) => e.outcome)).toEqual(['unconfirmed']);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => e.detail)).toEqual([reason]);
  }, 30_000);

  /** The buyers page's figures for one buyer read from its post rows (engine/console/buyerQueries.ts; its sales and revenue are read from lead_sales). */
  const buyerFigures = async (id: string) => {
    const hour = 3_600_000;
    const rows = await buyersOverview(db, new Date(Date.now() - hour).toISOString(), new Date(Date.now() + hour).toISOString());
    const r = rows.find((x) => x.buyer === id);
    return r && { posts: r.posts, accepted: r.accepted, refused: r.refused, acceptRate: r.acceptRate, lastError: r.lastError };
  };

  it("a worker whose last ask fails after another took its sale over and sold the lead to that buyer leaves the post's row accepted", async () => {
    const late = await buyer(`late-last-${kind.toLowerCase()}`, { ping: { bid: 30 }, post: 'error' });
    const buyers = documents(late.document());
    const leadId = await storeLead(db);
    let taken: SaleResult | undefined;
    late.beforeAnswer = async () => {
      if (late.posts.length < 3) return undefined;
      late.beforeAnswer = undefined;
      // The stalled worker's last ask is out (its first two were answered 503) when its lease runs
      // out; another worker takes the sale up, asks the buyer again and is sold the lead. Only then
      // is the stalled worker's last ask answered — a 503: the buyer's decision unknown, to it.
      late.post = 'accept';
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: afterLease }));
      return 'error';
    };

    const stalled = await runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));

    expect(taken).toMatchObject({ status: 'sold', buyerId: late.id, priceCents: 3000 });
    expect(late.posts.map((p) => p.leadId)).toEqual([leadId, leadId, leadId, leadId]);
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'sold', buyer_id: late.id, runs: 2 });
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'post').map((e) => `${e.buyer_id} ${e.outcome} ${e.price_cents}`)).toEqual([`${late.id} accepted 3000`]);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => `${e.buyer_id} ${e.outcome}`)).toEqual([`${late.id} sold`]);
    expect(await buyerFigures(late.id)).toEqual({ posts: 1, accepted: 1, refused: 0, acceptRate: 1, lastError: '' });
    expect(stalled).toBeUndefined(); // not this worker's sale any more
  }, 30_000);

  it("a worker whose post is refused after another took its sale over and found the buyer silent leaves the post's row unconfirmed", async () => {
    const late = await buyer(`late-refusal-${kind.toLowerCase()}`, { ping: { bid: 30 }, post: 'error' });
    const buyers = documents(late.document());
    const leadId = await storeLead(db);
    let taken: SaleResult | undefined;
    late.beforeAnswer = async () => {
      late.beforeAnswer = undefined;
      // The stalled worker's post is out when its lease runs out; another worker takes the sale up
      // and asks the buyer again, twice, answered 503: it leaves the lead unsold. Only then is the
      // stalled worker's post answered — refused.
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: afterLease }));
      late.post = 'refuse';
    };

    const stalled = await runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));

    const reason = `sale interrupted while posting to ${late.id}, which did not confirm its answer`;
    expect(taken).toMatchObject({ status: 'unsold', reason });
    expect(late.posts).toHaveLength(3);
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'unsold', reason, runs: 2 });
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'post').map((e) => `${e.buyer_id} ${e.outcome}: ${e.detail}`)).toEqual([
      `${late.id} unconfirmed: HTTP 503, 2 times`,
    ]);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => e.detail)).toEqual([reason]);
    expect(await buyerFigures(late.id)).toEqual({ posts: 1, accepted: 0, refused: 1, acceptRate: 0, lastError: 'HTTP 503, 2 times' });
    expect(stalled).toBeUndefined();
  }, 30_000);

  it('a worker whose resumed post is answered after another decided the sale writes nothing more: not that answer, nor eligibility rows', async () => {
    const asked = await buyer(`asked-again-${kind.toLowerCase()}`, { ping: { bid: 30 }, post: 'refuse' });
    const off = await buyer(`off-${kind.toLowerCase()}`);
    const buyers = documents(asked.document(), off.document({ enabled: false }));
    const leadId = await storeLead(db);
    // an earlier run posted to the buyer and died, its lease run out
    expect(await claimSale(db, leadId, 'w-dead', new Date(Date.now() - SALE_LEASE_MS - 1000), SALE_LEASE_MS)).toBeTruthy();
    await addEvent(db, {
      lead_id: leadId,
      at: new Date().toISOString(),
      buyer_id: asked.id,
      step: 'post',
      outcome: 'sending',
      price_cents: 3000,
      detail: 'pg_dead',
    });
    let taken: SaleResult | undefined;
    asked.beforeAnswer = async () => {
      asked.beforeAnswer = undefined;
      // This worker's ask is out when its lease runs out: another takes the sale up, asks the buyer
      // again itself (refused), and decides the sale. Only then is this worker's ask answered.
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: afterLease }));
    };

    const resumed = await runSale(db, leadId, deps(buyers, { worker: 'w-resumed' }));

    const reason = 'the borrower had stopped waiting before the sale could start';
    expect(taken).toMatchObject({ status: 'unsold', reason });
    expect(asked.posts).toHaveLength(2);
    const timeline = await timelineOf(db, leadId);
    expect(timeline.map((e) => `${e.step} ${e.buyer_id} ${e.outcome}`)).toEqual([`post ${asked.id} refused`, 'decision  unsold']);
    expect(resumed).toBeUndefined(); // not this worker's sale any more
  }, 30_000);

  const deliveriesOf = async (leadId: string) =>
    (await db.selectFrom('lead_deliveries').select('destination').where('lead_id', '=', leadId).execute()).map((r) => r.destination).sort();

  it('a worker that wakes after another took its sale over and left it unsold queues no delivery again', async () => {
    const silent = await buyer(`no-bid-${kind.toLowerCase()}`, { ping: 'no-bid' });
    const buyers = documents(
      silent.document(),
      deliverDoc(`open-${kind.toLowerCase()}`),
      deliverDoc(`capped-dl-${kind.toLowerCase()}`, { caps: { perDay: 100 } }),
    );
    const leadId = await storeLead(db);
    let taken: SaleResult | undefined;
    silent.beforeBid = async () => {
      silent.beforeBid = undefined;
      // held up past its lease while its ping is out; another takes the sale up after the borrower stopped waiting
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: afterLease }));
    };

    const stalled = await runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));

    const reason = 'the borrower had stopped waiting before the sale could start';
    expect(taken).toMatchObject({ status: 'unsold', reason });
    const timeline = await timelineOf(db, leadId);
    // each deliver buyer queued once, by the worker that decided the sale
    expect(
      timeline
        .filter((e) => e.step === 'deliver')
        .map((e) => e.buyer_id)
        .sort(),
    ).toEqual([`capped-dl-${kind.toLowerCase()}`, `open-${kind.toLowerCase()}`]);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => e.detail)).toEqual([reason]);
    expect(await deliveriesOf(leadId)).toHaveLength(2);
    expect(stalled).toBeUndefined(); // not this worker's sale any more
  }, 30_000);

  it('a worker that wakes after another took its sale over and sold the lead delivers it to nobody', async () => {
    const bidder = await buyer(`sells-${kind.toLowerCase()}`, { ping: 'no-bid' });
    const buyers = documents(
      bidder.document(),
      deliverDoc(`open2-${kind.toLowerCase()}`),
      deliverDoc(`capped2-${kind.toLowerCase()}`, { caps: { perDay: 100 } }),
    );
    const leadId = await storeLead(db);
    let taken: SaleResult | undefined;
    bidder.beforeBid = async () => {
      bidder.beforeBid = undefined;
      // held up past its lease while its ping is out; another takes the sale up, still in time, and sells it
      bidder.ping = { bid: 30 };
      taken = await runSale(db, leadId, deps(buyers, { worker: 'w-other', now: afterLease, deadlineMs: SALE_LEASE_MS + 60_000 }));
      bidder.ping = 'no-bid'; // the stalled worker's ping, answered last, brings no bid
    };

    const stalled = await runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));

    expect(taken).toMatchObject({ status: 'sold', buyerId: bidder.id });
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'sold', buyer_id: bidder.id });
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'deliver')).toEqual([]);
    expect(timeline.filter((e) => e.step === 'eligibility')).toEqual([]);
    expect(await deliveriesOf(leadId)).toEqual([]); // the sold lead's data goes to no deliver buyer
    expect(stalled).toBeUndefined();
  }, 30_000);

  /** Makes the store refuse the write of a decision (a busy SQLite file, a lost connection, the process dying there) until the returned function is called. */
  const failDecisions = async (): Promise<() => Promise<void>> => {
    if (kind === 'SQLite') {
      await sql`create trigger stop_at_decision before insert on sale_events when new.step = 'decision' begin select raise(abort, 'store gone'); end`.execute(
        db,
      );
      return async () => void (await sql`drop trigger stop_at_decision`.execute(db));
    }
    await sql`create function stop_at_decision() returns trigger language plpgsql as ${sql.raw("$$ begin raise exception 'store gone'; end $$")}`.execute(db);
    await sql`create trigger stop_at_decision before insert on sale_events for each row when (new.step = 'decision') execute function stop_at_decision()`.execute(
      db,
    );
    return async () => {
      await sql`drop trigger stop_at_decision on sale_events`.execute(db);
      await sql`drop function stop_at_decision()`.execute(db);
    };
  };

  it('a sale taken up after its worker queued the deliver buyers but never recorded its decision shows each delivery once', async () => {
    const open = `open3-${kind.toLowerCase()}`;
    const full = `full3-${kind.toLowerCase()}`;
    const buyers = documents(deliverDoc(open), deliverDoc(full, { caps: { perDay: 1 } }));
    // an earlier lead takes the capped deliver buyer's one place of the day
    const earlier = await storeLead(db);
    expect(await runSale(db, earlier, deps(buyers))).toMatchObject({ status: 'unsold', reason: 'no eligible buyer' });
    const leadId = await storeLead(db);
    const allowDecisions = await failDecisions();
    try {
      await expect(runSale(db, leadId, deps(buyers, { worker: 'w-failed' }))).rejects.toThrow(/store gone/);
    } finally {
      await allowDecisions();
    }
    // the deliver buyers are queued (the outbox may already be sending), the sale still pending under the worker's lease
    expect(await deliveriesOf(leadId)).toEqual([`buyer:${open}`]);
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'pending' });

    const resumed = await runSale(db, leadId, deps(buyers, { worker: 'w2', now: afterLease }));

    const reason = 'the borrower had stopped waiting before the sale could start';
    expect(resumed).toMatchObject({ status: 'unsold', reason });
    expect(await deliveriesOf(leadId)).toEqual([`buyer:${open}`]);
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'deliver').map((e) => `${e.buyer_id} ${e.outcome}`)).toEqual([`${open} queued`]);
    expect(timeline.filter((e) => e.step === 'eligibility').map((e) => `${e.buyer_id} ${e.outcome}: ${e.detail}`)).toEqual([
      `${full} skipped: daily cap 1 reached (1 queued)`,
    ]);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => e.detail)).toEqual([reason]);
  }, 30_000);

  it('a sale whose bound ran out during one tier pings no buyer of the next', async () => {
    const first = await buyer(`refuses-late-${kind.toLowerCase()}`, { mode: 'direct-post', post: 'refuse' });
    const next = await buyer(`after-bound-${kind.toLowerCase()}`, { ping: { bid: 30 } });
    const buyers = documents(first.document(), next.document({ tier: 2 }));
    const leadId = await storeLead(db);
    let late = 0;
    first.beforeAnswer = async () => {
      late = SALE_DEADLINE_MS; // its refusal comes as the borrower's page stops waiting
    };

    const result = await runSale(db, leadId, deps(buyers, { now: () => new Date(Date.now() + late) }));

    expect(next.pings).toHaveLength(0);
    expect(result).toMatchObject({ status: 'unsold', reason: 'the sale ran out of time' });
    expect(first.posts).toHaveLength(1);
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'ping')).toEqual([]);
  }, 30_000);

  const killMidPost = (leadId: string, buyers: Buyer[], holder: StandInBuyer) => killMidPostIn({ file, url }, SECRET, leadId, buyers, holder);

  it('a sale killed while its post is out resumes by asking the same buyer again: sold once, never to a second buyer', async () => {
    const first = await buyer(`first-${kind.toLowerCase()}`, { ping: { bid: 30 } });
    const second = await buyer(`second-${kind.toLowerCase()}`, { ping: { bid: 20 } });
    const buyers = documents(first.document(), second.document());
    const leadId = await storeLead(db);
    await killMidPost(leadId, buyers, first);
    first.holdPosts = false; // the buyer did accept the lead the dead worker posted
    await expect.poll(() => first.accepted.has(leadId)).toBe(true);
    expect(await runSale(db, leadId, deps(buyers, { worker: 'w2' }))).toBeUndefined(); // the dead worker's lease still runs

    const resumed = await runSale(db, leadId, deps(buyers, { worker: 'w2', now: afterLease }));

    expect(resumed).toMatchObject({ status: 'sold', buyerId: first.id, priceCents: 3000 });
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'sold', buyer_id: first.id, runs: 2 });
    expect(first.posts.map((p) => p.leadId)).toEqual([leadId, leadId]);
    expect(first.posts[1]!.body).toMatchObject({ pingId: first.posts[0]!.body.pingId });
    expect(second.posts).toHaveLength(0);
  }, 60_000);

  it('a sale killed mid-post whose buyer cannot confirm afterwards is left unsold, not offered to another', async () => {
    const first = await buyer(`gone-${kind.toLowerCase()}`, { ping: { bid: 30 }, post: 'hang' });
    const second = await buyer(`next-${kind.toLowerCase()}`, { ping: { bid: 20 } });
    const buyers = documents(first.document(), second.document());
    const leadId = await storeLead(db);
    await killMidPost(leadId, buyers, first);
    first.holdPosts = false;
    first.post = 'error';

    const resumed = await runSale(db, leadId, deps(buyers, { worker: 'w2', now: afterLease }));

    expect(resumed).toMatchObject({ status: 'unsold', reason: `sale interrupted while posting to ${first.id}, which did not confirm its answer` });
    expect(second.posts).toHaveLength(0);
    expect(await runSale(db, leadId, deps(buyers, { worker: 'w3', now: afterLease }))).toBeUndefined(); // final: nobody runs it again
  }, 60_000);
});

describe('a worker stalled past its lease on PostgreSQL', () => {
  let db: Store;
  let url = '';
  beforeAll(async () => {
    url = await pg.createDatabase('sale_stalled');
    db = openStore({ url });
    await migrateStore(db);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
  });

  const afterLease = () => new Date(Date.now() + SALE_LEASE_MS + 1000);

  it.each([
    ['another worker', 'w-other'],
    ["its own process's sweep (a worker of the same name)", 'w-stalled'],
  ])(
    'posts the lead to nobody once %s has taken the sale over and decided it',
    async (_, taker) => {
      const capped = await buyer(`capped-${taker}`, { ping: { bid: 30 } });
      const buyers = documents(capped.document({ caps: { perDay: 100 } }));
      const leadId = await storeLead(db);
      // Another sale posting to the same capped buyer holds its cap lock: this worker waits for it
      // between choosing the buyer and posting, as long as a stalled database or process would.
      const other = new postgres.Client({ connectionString: url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('select pg_advisory_xact_lock(hashtext($1))', [`loansites sale cap ${capped.id}`]);
        const stalled = runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));
        // read outside the lock holder's transaction, which keeps its first view of pg_stat_activity
        const waiting = async () =>
          (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory'`.execute(db))
            .rows[0]!.n;
        await expect.poll(waiting, { timeout: 20_000 }).toBe(1);

        // its lease runs out; another worker takes the sale up, after the borrower stopped waiting
        const taken = await runSale(db, leadId, deps(buyers, { worker: taker, now: afterLease }));
        expect(taken).toMatchObject({ status: 'unsold', reason: 'the borrower had stopped waiting before the sale could start' });
        await other.query('commit');

        const result = await stalled;
        expect(capped.posts).toHaveLength(0);
        expect(result).toBeUndefined(); // not this worker's sale any more
      } finally {
        await other.end();
      }
      expect(await saleOf(db, leadId)).toMatchObject({ status: 'unsold', runs: 2 });
      const timeline = await timelineOf(db, leadId);
      expect(timeline.filter((e) => e.step === 'post')).toEqual([]);
      expect(timeline.filter((e) => e.step === 'decision').map((e) => e.detail)).toEqual(['the borrower had stopped waiting before the sale could start']);
    },
    60_000,
  );

  it('a worker held up before its eligibility check, whose sale another took over and decided, writes no eligibility row', async () => {
    const off = await buyer('off-held');
    const buyers = documents(off.document({ enabled: false }));
    const leadId = await storeLead(db);
    const reason = 'the borrower had stopped waiting before the sale could start';
    const waiting = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'relation'`.execute(db))
        .rows[0]!.n;
    let stalled: Promise<SaleResult | undefined> | undefined;
    await db.transaction().execute(async (trx) => {
      // Another connection holds the opt-out list (a long write, a migration): this worker, its sale
      // claimed, waits for it in its opt-out check — before it checks who may be offered the lead.
      await sql`lock table suppressions in access exclusive mode`.execute(trx);
      stalled = runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));
      await expect.poll(waiting, { timeout: 20_000 }).toBe(1);
      // its lease runs out; another worker takes the sale up and decides it (what runSale writes then)
      const later = afterLease();
      expect(await claimSale(trx, leadId, 'w-other', later, SALE_LEASE_MS)).toMatchObject({ runs: 2 });
      expect(await finishSale(trx, leadId, 'w-other', { status: 'unsold', duplicate: false, reason }, later, 2)).toBe(true);
      await addEvent(trx, { lead_id: leadId, at: later.toISOString(), buyer_id: '', step: 'decision', outcome: 'unsold', detail: reason });
    });

    const result = await stalled;
    const timeline = await timelineOf(db, leadId);
    expect(timeline.map((e) => `${e.step} ${e.outcome}: ${e.detail}`)).toEqual([`decision unsold: ${reason}`]);
    expect(result).toBeUndefined(); // not this worker's sale any more
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'unsold', reason, runs: 2 });
  }, 60_000);

  it('a worker held up after queueing its deliver buyers, whose sale another took over, leaves one queued row per buyer on the timeline', async () => {
    const open = 'open-held';
    const capped = 'capped-held';
    const buyers = documents(deliverDoc(open), deliverDoc(capped, { caps: { perDay: 100 } }));
    const leadId = await storeLead(db);
    const waiting = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory'`.execute(db))
        .rows[0]!.n;
    // Another sale queueing to the capped buyer holds its cap lock: this worker queues the uncapped
    // buyer, then waits for that lock, past its lease, before it can queue the capped one and decide.
    const other = new postgres.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select pg_advisory_xact_lock(hashtext($1))', [`loansites sale cap ${capped}`]);
      const stalled = runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));
      await expect.poll(waiting, { timeout: 20_000 }).toBe(1);
      expect(await db.selectFrom('lead_deliveries').select('destination').where('lead_id', '=', leadId).execute()).toEqual([{ destination: `buyer:${open}` }]);

      // its lease runs out; another worker takes the sale up and queues the deliver buyers itself
      const taken = runSale(db, leadId, deps(buyers, { worker: 'w-other', now: afterLease }));
      await expect.poll(waiting, { timeout: 20_000 }).toBe(2);
      await other.query('commit');

      expect(await taken).toMatchObject({ status: 'unsold', reason: 'the borrower had stopped waiting before the sale could start' });
      expect(await stalled).toBeUndefined(); // not this worker's sale any more
    } finally {
      await other.end();
    }
    const outbox = await db.selectFrom('lead_deliveries').select('destination').where('lead_id', '=', leadId).orderBy('destination').execute();
    expect(outbox.map((r) => r.destination)).toEqual([`buyer:${capped}`, `buyer:${open}`]);
    const timeline = await timelineOf(db, leadId);
    expect(
      timeline
        .filter((e) => e.step === 'deliver')
        .map((e) => `${e.buyer_id} ${e.outcome}`)
        .sort(),
    ).toEqual([`${capped} queued`, `${open} queued`]);
    expect(timeline.filter((e) => e.step === 'decision')).toHaveLength(1);
  }, 60_000);
});
