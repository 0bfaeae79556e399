/**
 * One rule for a post whose answer does not tell what the buyer decided (no answer in time, a
 * 503…), in the running sale and in a sale resumed after its worker was killed: the same buyer
 * is asked again with the same Idempotency-Key, its first answer we can read decides (a late
 * accept wins), and a buyer that never confirms leaves the lead unsold — never posted to or
 * delivered to anyone else, so the borrower's personal data reaches no second buyer. An answer
 * that does say what the buyer decided, with something we cannot take (an absurd price…), is a
 * refusal: not asked again, and the next buyer is offered the lead. Real stand-in buyers on
 * loopback, SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { buyerStats } from '../../engine/console/buyerQueries';
import { readPostAnswer, type RawAnswer } from '../../engine/sale/answers';
import { runSale, SALE_LEASE_MS, type SaleDeps } from '../../engine/sale/runner';
import { saleStatusAnswer } from '../../engine/sale/status';
import { claimSale, finishSale, saleOf, settleEvent, timelineOf } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { freePort } from '../support/ports';
import { storeSaleLead } from '../support/saleLead';
import { buyerDocuments, killMidPost as killMidPostIn, saleDeps, standIns } from '../support/saleKit';
import type { StandInBuyer } from '../support/standInBuyer';

const KEY = 'd'.repeat(64);
const SECRET = 'stand-in-buyer-secret-02';
process.env.LEADS_ENCRYPTION_KEY = KEY;
const dir = mkdtempSync(join(tmpdir(), 'loansites-late-'));
const file = join(dir, 'sale.sqlite');
const stands = standIns(SECRET);
let db: Store;

beforeAll(async () => {
  db = openStore({ url: '', file });
  await migrateStore(db);
}, 60_000);
afterAll(async () => {
  await stands.closeAll();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const buyer = stands.start;
const documents = buyerDocuments;
const deps = (buyers: Buyer[], over: Partial<SaleDeps> = {}) => saleDeps(SECRET, Buffer.alloc(32, 1), buyers, over);
const storeLead = () => storeSaleLead(db, Buffer.from(KEY, 'hex'));
/** Pings with room for a loaded machine; posts time out after 1500 ms, which the tests are about. */
const timed = { timeouts: { pingMs: 3000, postMs: 1500 } };

describe('which answers to a post tell what the buyer decided', () => {
  const acme = documents({
    $schema: '../../schemas/buyer.schema.json',
    id: 'acme',
    displayName: 'Acme',
    mode: 'direct-post',
    endpoints: { post: 'https://acme.example/post' },
    secretEnv: 'BUYER_ACME_SECRET',
    redirectHosts: ['offers.acme.example'],
  })[0]!;
  const status = (s: number, body = ''): RawAnswer => ({ status: s, text: body });
  it.each<[string, 'sold' | 'refused' | 'unknown', RawAnswer]>([
    ['accepted', 'sold', status(200, '{"accepted":true,"price":9,"redirectUrl":"https://offers.acme.example/a"}')],
    ['refused', 'refused', status(200, '{"accepted":false}')],
    ['accepted, after a byte order mark', 'sold', status(200, '\uFEFF{"accepted":true,"price":9,"redirectUrl":"https://offers.acme.example/a"}')],
    ['a byte order mark alone', 'unknown', status(200, '\uFEFF')],
    ['a 400', 'refused', status(400)],
    ['a 404', 'refused', status(404)],
    ['an accept we refuse (no redirect)', 'refused', status(200, '{"accepted":true,"price":9}')],
    ['the lead never left (connection refused)', 'refused', { error: 'fetch failed (ECONNREFUSED)', notSent: true }],
    ['no answer in time', 'unknown', { error: 'no answer within 1500 ms' }],
    ['a connection reset after sending', 'unknown', { error: 'fetch failed (ECONNRESET)' }],
    ['a 503', 'unknown', status(503)],
    ['a 500', 'unknown', status(500)],
    ['a 409 (the same post still being worked on)', 'unknown', status(409)],
    ['a 429', 'unknown', status(429)],
    ['a 408', 'unknown', status(408)],
    ['a 202', 'unknown', status(202)],
    ['a 200 that is not JSON', 'unknown', status(200, '<html>ok</html>')],
    ['a 200 whose "accepted" is not a boolean', 'unknown', status(200, '{"accepted":"yes"}')],
    ['a body over the cap', 'unknown', { status: 200, text: '', truncated: true }],
    [
      'an answer that says refused, then accepted (a key given twice)',
      'unknown',
      status(200, '{"accepted":false,"accepted":true,"price":9,"redirectUrl":"https://offers.acme.example/a"}'),
    ],
    [
      'an accept with a key given twice further in',
      'unknown',
      status(200, '{"accepted":true,"price":9,"price":900,"redirectUrl":"https://offers.acme.example/a"}'),
    ],
    ['an answer nested thousands deep', 'unknown', status(200, `{"accepted":true,"x":${'['.repeat(5000)}${']'.repeat(5000)}}`)],
    ['an accept at a price over 1,000', 'refused', status(200, '{"accepted":true,"price":1001,"redirectUrl":"https://offers.acme.example/a"}')],
    ['an accept at a negative price', 'refused', status(200, '{"accepted":true,"price":-5,"redirectUrl":"https://offers.acme.example/a"}')],
    ['an accept at a price as a string', 'refused', status(200, '{"accepted":true,"price":"9","redirectUrl":"https://offers.acme.example/a"}')],
    [
      'an accept with a redirect over 2,000 characters',
      'refused',
      status(200, `{"accepted":true,"price":9,"redirectUrl":"https://offers.acme.example/${'a'.repeat(2000)}"}`),
    ],
    [
      'an accept with a property the schema does not have',
      'refused',
      status(200, '{"accepted":true,"price":9,"redirectUrl":"https://offers.acme.example/a","ok":1}'),
    ],
    ['a refusal with a reason over 200 characters', 'refused', status(200, `{"accepted":false,"reason":"${'x'.repeat(201)}"}`)],
    ['a refusal with a property the schema does not have', 'refused', status(200, '{"accepted":false,"code":7}')],
  ])('%s → %s', (_, expected, raw) => {
    const got = readPostAnswer(raw, acme, undefined);
    expect(got.ok ? 'sold' : got.unknown ? 'unknown' : 'refused').toBe(expected);
  });
});

describe('in the running sale', () => {
  it('a post answered "accepted" after its timeout is asked again: the late accept is the sale, and the next buyer never gets the lead', async () => {
    const late = await buyer('late', { ping: { bid: 30 }, post: { slowMs: 2500 } }); // its post timeout is 1500 ms
    const next = await buyer('next-late', { ping: { bid: 20 } });
    const buyers = documents(late.document(timed), next.document(timed));
    const leadId = await storeLead();

    const result = await runSale(db, leadId, deps(buyers));

    expect(result).toMatchObject({ status: 'sold', buyerId: late.id, priceCents: 3000, redirectUrl: `https://${late.id}.lender.example/offer/${leadId}` });
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'sold', buyer_id: late.id });
    expect(late.posts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(late.posts.map((p) => p.leadId))).toEqual(new Set([leadId])); // the same Idempotency-Key every time
    expect(next.posts).toHaveLength(0);
    const posts = (await timelineOf(db, leadId)).filter((e) => e.step === 'post');
    expect(posts.map((e) => `${e.buyer_id} ${e.outcome}`)).toEqual([`${late.id} accepted`]);
  }, 30_000);

  /** A sale whose worker stalled with its post out (the buyer holds its answer) and whose lease another worker has taken up. */
  const postOutWhenTakenOver = async (stalledId: string, nextId: string) => {
    const stalled = await buyer(stalledId, { ping: { bid: 30 } });
    const next = await buyer(nextId, { ping: { bid: 20 } });
    const buyers = documents(stalled.document({ timeouts: { pingMs: 3000, postMs: 10_000 } }), next.document(timed));
    const leadId = await storeLead();
    stalled.holdPosts = true;
    const running = runSale(db, leadId, deps(buyers, { worker: 'w-stalled' }));
    await expect.poll(() => stalled.posts.length, { timeout: 20_000 }).toBe(1);
    const later = new Date(Date.now() + SALE_LEASE_MS + 1000);
    expect(await claimSale(db, leadId, 'w-other', later, SALE_LEASE_MS)).toBeTruthy();
    return { stalled, next, buyers, leadId, running, later };
  };

  it("an accept that comes after another worker took the sale over and sold the lead elsewhere is not taken: recorded so over that worker's answer, and nobody else is offered the lead", async () => {
    const { stalled, next, leadId, running, later } = await postOutWhenTakenOver('stalled-accept', 'next-stalled');
    // which asked the buyer again (refused, this time) and sold the lead elsewhere
    const [post] = (await timelineOf(db, leadId)).filter((e) => e.step === 'post');
    await settleEvent(db, post!.id, { outcome: 'refused', latency_ms: 5, detail: 'not for us' });
    const elsewhere = { status: 'sold' as const, duplicate: false, buyerId: 'elsewhere', priceCents: 1500, redirectUrl: 'https://elsewhere.example/x' };
    expect(await finishSale(db, leadId, 'w-other', elsewhere, later)).toBe(true);
    stalled.holdPosts = false;

    const result = await running;

    const reason = "the sale was no longer this worker's to decide (sold to elsewhere)";
    expect(result).toEqual({ status: 'sold', buyerId: 'elsewhere', reason });
    expect(stalled.accepted).toContain(leadId);
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'sold', buyer_id: 'elsewhere', price_cents: 1500 });
    const timeline = await timelineOf(db, leadId);
    // the buyer accepted the first ask: it may believe it holds the lead, whatever it answered the second
    expect(timeline.filter((e) => e.step === 'post').map((e) => `${e.buyer_id} ${e.outcome}: ${e.detail}`)).toEqual([
      `${stalled.id} refused: accept not taken: ${reason}`,
    ]);
    expect(timeline.filter((e) => e.step === 'decision')).toEqual([]);
    expect(next.posts).toHaveLength(0);
  }, 30_000);

  it('an accept that comes while another worker holds the sale is left to it: asked again, the same buyer buys the lead, once', async () => {
    const { stalled, next, buyers, leadId, running, later } = await postOutWhenTakenOver('stalled-held', 'next-held');
    stalled.holdPosts = false;
    expect(await running).toMatchObject({ status: 'unsold', reason: "the sale was no longer this worker's to decide (pending)" });
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'pending' });

    // that worker stopped too; the next one finds the post unanswered and asks the buyer again
    const muchLater = new Date(later.getTime() + SALE_LEASE_MS + 1000);
    expect(await runSale(db, leadId, deps(buyers, { worker: 'w-third', now: () => muchLater }))).toMatchObject({ status: 'sold', buyerId: stalled.id });
    expect(stalled.posts.map((p) => p.leadId)).toEqual([leadId, leadId]);
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'post').map((e) => `${e.buyer_id} ${e.outcome}`)).toEqual([`${stalled.id} accepted`]);
    expect(timeline.filter((e) => e.step === 'decision').map((e) => `${e.buyer_id} ${e.outcome}`)).toEqual([`${stalled.id} sold`]);
    expect(next.posts).toHaveLength(0);
  }, 30_000);

  it('a post never answered leaves the lead unsold, posted to and delivered to nobody else; a buyer that could not be reached is passed over', async () => {
    const unreachable = documents({
      ...(await buyer('unused')).document(),
      id: 'unreachable',
      mode: 'direct-post',
      endpoints: { post: `http://127.0.0.1:${await freePort(49500)}/post` },
    })[0]!;
    const silent = await buyer('silent', { ping: { bid: 30 }, post: 'hang' });
    const next = await buyer('next-silent', { ping: { bid: 20 } });
    const outbox = await buyer('outbox');
    const buyers = [
      unreachable,
      ...documents(
        silent.document({ ...timed, tier: 2 }),
        next.document({ ...timed, tier: 2 }),
        outbox.document({ mode: 'deliver', endpoints: { deliver: `${outbox.origin}/deliver` } }),
      ),
    ];
    const leadId = await storeLead();

    const result = await runSale(db, leadId, deps(buyers));

    expect(result).toMatchObject({
      status: 'unsold',
      reason: `${silent.id} did not confirm its answer to the post (no answer within 1500 ms, 3 times); offered to no other buyer`,
    });
    expect(silent.posts.map((p) => p.leadId)).toEqual([leadId, leadId, leadId]);
    expect(next.posts).toHaveLength(0);
    const timeline = await timelineOf(db, leadId);
    expect(timeline.filter((e) => e.step === 'post').map((e) => `${e.buyer_id} ${e.outcome}`)).toEqual(['unreachable refused', `${silent.id} unconfirmed`]);
    expect(timeline.find((e) => e.buyer_id === 'unreachable')?.detail).toMatch(/ECONNREFUSED/);
    expect(timeline.filter((e) => e.step === 'deliver')).toEqual([]);
    expect(await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', leadId).execute()).toEqual([]);
  }, 30_000);

  it("a post never confirmed gives every ask's wait in its reason, not only the last, shorter one", async () => {
    const slow = await buyer('slow-to-confirm', { ping: { bid: 30 }, post: 'hang' });
    const leadId = await storeLead();

    // the sale's bound near: the first ask waits the buyer's whole post timeout, the repeats only what is left (at least a second)
    const result = await runSale(db, leadId, deps(documents(slow.document(timed)), { deadlineMs: 4000 }));

    expect(slow.posts).toHaveLength(3);
    const said = /^no answer within 1500 ms, then no answer within \d+ ms, then no answer within 1000 ms$/;
    expect(result).toMatchObject({
      status: 'unsold',
      reason: expect.stringContaining(`${slow.id} did not confirm its answer to the post (no answer within 1500 ms, then`),
    });
    const post = (await timelineOf(db, leadId)).find((e) => e.step === 'post');
    expect(post).toMatchObject({ outcome: 'unconfirmed', detail: expect.stringMatching(said) });
  }, 30_000);
});

describe('an answer that tells what the buyer decided, with something we cannot take', () => {
  it.each([1001, -5])(
    'a direct-post accept at a price of %d is a refusal: asked once, its reason on the timeline, and the next buyer buys the lead',
    async (price) => {
      const absurd = await buyer(`absurd${price}`, {
        mode: 'direct-post',
        post: { answer: { accepted: true, price, redirectUrl: `https://absurd${price}.lender.example/x` } },
      });
      const next = await buyer(`next-absurd${price}`, { ping: { bid: 20 } });
      const buyers = documents(absurd.document(timed), next.document({ ...timed, tier: 2 }));
      const leadId = await storeLead();

      const result = await runSale(db, leadId, deps(buyers));

      const sentTo = `https://${next.id}.lender.example/offer/${leadId}`;
      expect(result).toMatchObject({ status: 'sold', buyerId: next.id, priceCents: 2000, redirectUrl: sentTo });
      expect(absurd.posts).toHaveLength(1);
      const posts = (await timelineOf(db, leadId)).filter((e) => e.step === 'post');
      expect(posts.map((e) => `${e.buyer_id} ${e.outcome}: ${e.detail}`)).toEqual([
        `${absurd.id} refused: accept not taken: answer not valid: /price must be ${price < 0 ? 'at least 0' : 'at most 1000'}`,
        `${next.id} accepted: ${sentTo}`,
      ]);
      expect(saleStatusAnswer(await saleOf(db, leadId), (id) => buyers.find((b) => b.id === id))).toEqual({
        state: 'matched',
        lender: `Stand-in ${next.id}`,
        continueUrl: sentTo,
      });
    },
    30_000,
  );

  it("a ping-post buyer's accept is a sale at its bid whatever its answer's price holds: that field is not read", async () => {
    const stringy = await buyer('stringy', {
      ping: { bid: 30 },
      post: { answer: { accepted: true, price: '5', redirectUrl: 'https://stringy.lender.example/x' } },
    });
    const next = await buyer('next-stringy', { ping: { bid: 20 } });
    const buyers = documents(stringy.document(timed), next.document(timed));
    const leadId = await storeLead();

    const result = await runSale(db, leadId, deps(buyers));

    expect(result).toMatchObject({ status: 'sold', buyerId: stringy.id, priceCents: 3000, redirectUrl: 'https://stringy.lender.example/x' });
    expect(stringy.posts).toHaveLength(1);
    expect(next.posts).toHaveLength(0);
    expect((await timelineOf(db, leadId)).filter((e) => e.step === 'post').map((e) => `${e.buyer_id} ${e.outcome} ${e.price_cents}`)).toEqual([
      `${stringy.id} accepted 3000`,
    ]);
  }, 30_000);
});

describe('in a sale resumed after its worker was killed mid-post', () => {
  const killMidPost = (leadId: string, buyers: Buyer[], holder: StandInBuyer) => killMidPostIn({ file, url: '' }, SECRET, leadId, buyers, holder);
  const afterLease = () => new Date(Date.now() + SALE_LEASE_MS + 1000);

  it('the buyer answering 503 and then "accepted" is asked again as in a running sale: sold to it, never to the next buyer', async () => {
    const first = await buyer('first-503', { ping: { bid: 30 }, post: 'hang' });
    const next = await buyer('next-503', { ping: { bid: 20 } });
    const buyers = documents(first.document(timed), next.document(timed));
    const leadId = await storeLead();
    await killMidPost(leadId, buyers, first);
    first.holdPosts = false;
    await expect.poll(() => first.released).toBe(1); // the dead worker's post is gone unanswered
    first.post = 'error-once';

    const resumed = await runSale(db, leadId, deps(buyers, { worker: 'w2', now: afterLease }));

    expect(resumed).toMatchObject({ status: 'sold', buyerId: first.id, priceCents: 3000 });
    expect(first.posts.map((p) => p.leadId)).toEqual([leadId, leadId, leadId]);
    expect(next.posts).toHaveLength(0);
  }, 60_000);

  // The borrower stopped waiting long before (the lease outlasts the sale's bound): every ask waits the buyer's own post timeout.
  const patient = { timeouts: { pingMs: 3000, postMs: 5000 } };

  it('a buyer slower than a second to answer the post asked again after a restart is heard: sold to it', async () => {
    const first = await buyer('first-slow-resumed', { ping: { bid: 30 }, post: 'hang' });
    const buyers = documents(first.document(patient));
    const leadId = await storeLead();
    await killMidPost(leadId, buyers, first);
    first.holdPosts = false;
    await expect.poll(() => first.released).toBe(1);
    first.post = { slowMs: 2500 };

    expect(await runSale(db, leadId, deps(buyers, { worker: 'w2', now: afterLease }))).toMatchObject({ status: 'sold', buyerId: first.id });
    expect(first.posts).toHaveLength(2);
  }, 60_000);

  it('a resumed sale asks a buyer that answered 503 again as long as its post timeout, not the running sale’s last second', async () => {
    const first = await buyer('first-503-slow', { ping: { bid: 30 }, post: 'hang' });
    const buyers = documents(first.document(patient));
    const leadId = await storeLead();
    await killMidPost(leadId, buyers, first);
    first.holdPosts = false;
    await expect.poll(() => first.released).toBe(1);
    first.post = 'error';
    first.beforeAnswer = async () => {
      // the dead worker's post, the first ask after the restart (503), then a slow accept
      if (first.posts.length === 3) first.post = { slowMs: 2500 };
    };

    const resumed = await runSale(db, leadId, deps(buyers, { worker: 'w2', now: afterLease }));

    expect(resumed).toMatchObject({ status: 'sold', buyerId: first.id, priceCents: 3000 });
    expect(first.posts.map((p) => p.leadId)).toEqual([leadId, leadId, leadId]);
    expect((await timelineOf(db, leadId)).filter((e) => e.step === 'post').map((e) => e.outcome)).toEqual(['accepted']);
  }, 60_000);

  it('the post asked again is the very body that went out, its bid id included', async () => {
    const first = await buyer('first-same-body', { ping: { bid: 30 }, post: 'hang' });
    const buyers = documents(first.document(timed));
    const leadId = await storeLead();
    await killMidPost(leadId, buyers, first);
    first.holdPosts = false;
    await expect.poll(() => first.released).toBe(1);
    first.post = 'accept';

    expect(await runSale(db, leadId, deps(buyers, { worker: 'w2', now: afterLease }))).toMatchObject({ status: 'sold', buyerId: first.id });
    expect(first.posts).toHaveLength(2);
    expect(first.posts[0]!.body).toMatchObject({ bidId: 'first-same-body-bid', price: 30 });
    expect(first.posts[1]!.body).toEqual(first.posts[0]!.body);
  }, 60_000);

  it('a sale stopped after its post was found unconfirmed, before the sale was recorded, ends unsold and goes to no deliver buyer', async () => {
    const silent = await buyer('silent-stopped', { ping: { bid: 30 }, post: 'error' });
    const next = await buyer('next-stopped', { ping: { bid: 20 } });
    const outbox = await buyer('outbox-stopped');
    const buyers = documents(
      silent.document(timed),
      next.document(timed),
      outbox.document({ mode: 'deliver', endpoints: { deliver: `${outbox.origin}/deliver` } }),
    );
    const leadId = await storeLead();
    // The store fails the write of the decision (a busy SQLite file, a lost connection, the process
    // dying there): the post is settled "unconfirmed", the sale still pending under the worker's lease.
    await sql`create trigger stop_at_decision before insert on sale_events when new.step = 'decision' begin select raise(abort, 'store gone'); end`.execute(db);
    try {
      await expect(runSale(db, leadId, deps(buyers))).rejects.toThrow(/store gone/);
    } finally {
      await sql`drop trigger stop_at_decision`.execute(db);
    }

    expect((await timelineOf(db, leadId)).filter((e) => e.step === 'post').map((e) => e.outcome)).toEqual(['unconfirmed']);
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'pending' });

    const resumed = await runSale(db, leadId, deps(buyers, { worker: 'w2', now: afterLease }));

    expect(await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', leadId).execute()).toEqual([]);
    expect(resumed).toMatchObject({
      status: 'unsold',
      reason: `${silent.id} did not confirm its answer to the post (HTTP 503, 3 times); offered to no other buyer`,
    });
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'unsold' });
    expect(next.posts).toHaveLength(0);
    expect((await timelineOf(db, leadId)).filter((e) => e.step === 'deliver')).toEqual([]);
  }, 60_000);
});

it("the console's buyer record counts a post never confirmed as a failed post, and alerts on a buyer that never confirms", () => {
  const [row] = buyerStats(
    [{ buyer_id: 'silent', step: 'post', outcome: 'unconfirmed', n: 10, latency: 15_000, latencyCount: 10 }],
    [],
    new Map([['silent', Array(10).fill('unconfirmed')]]),
    new Map(),
  );
  expect(row).toMatchObject({ posts: 10, refused: 10, accepted: 0, alert: true });
});

it('a bid that came in time while this process was busy (a long render, a collection) is a bid, not "no answer"', async () => {
  const quick = await buyer('quick-busy', { ping: { bid: 40 } });
  const buyers = documents(quick.document({ timeouts: { pingMs: 300, postMs: 10_000 } }));
  const leadId = await storeLead();
  const sale = runSale(db, leadId, deps(buyers));
  // the buyer has the ping and has answered it; the answer is not read yet
  while (quick.pings.length === 0) await new Promise((r) => setImmediate(r));
  const until = Date.now() + 800;
  while (Date.now() < until); // the event loop is held past the ping's timeout

  expect(await sale).toMatchObject({ status: 'sold', buyerId: quick.id, priceCents: 4000 });
  expect((await timelineOf(db, leadId)).find((e) => e.step === 'ping')).toMatchObject({ buyer_id: quick.id, outcome: 'bid', price_cents: 4000 });
}, 30_000);
