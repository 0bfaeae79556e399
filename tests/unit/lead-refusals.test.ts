/**
 * A buyer's answer, read the way a buyer means it, against both real databases and a real buyer
 * webhook: a refusal (a 4xx other than 408/429) is recorded as rejected with the buyer's reason —
 * bounded, without control characters — and never retried; 429 and 5xx are retried as before; a
 * test lead is never sent to a buyer that does not accept test leads. `npm run leads` shows it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerKind, buyerReason, deliverDue } from '../../engine/outbox/deliver';
import { destinationTakes, environmentOfHost } from '../../engine/leads/environment';
import { migrateStore, openStore, storeKindOf, type Store, type StoreOptions } from '../../engine/store/db';
import { insertLead, type LeadsTable } from '../../engine/store/leads';
import { startBuyer, type Buyer } from '../support/buyer';
import { CLICKED, leadRow } from '../support/leadRow';
import { startPostgres, type RunningPostgres } from '../support/postgres';

const SECRET = 'buyer-shared-secret-456';
const KEY = 'd'.repeat(64);
const tmp = mkdtempSync(join(tmpdir(), 'loansites-refusals-'));
let postgres: RunningPostgres | undefined;
let buyer: Buyer;
let testBuyer: Buyer;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = KEY;
  [postgres, buyer, testBuyer] = await Promise.all([startPostgres(), startBuyer(SECRET), startBuyer(SECRET)]);
  process.env.LEAD_DESTINATIONS = JSON.stringify({
    ipaydayloans: [
      { name: 'buyer-a', url: buyer.url, secret: SECRET, timeoutMs: 800 },
      { name: 'buyer-test', url: testBuyer.url, secret: SECRET, timeoutMs: 800, acceptsTestLeads: true },
    ],
  });
}, 120_000);
afterAll(async () => {
  await Promise.all([postgres?.stop(), buyer?.close(), testBuyer?.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

const lead = (extra: Partial<LeadsTable> = {}) => leadRow({ ...CLICKED, ...extra });

describe('what a buyer answer means', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [400, 'refused'],
    [401, 'refused'],
    [409, 'refused'],
    [422, 'refused'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [302, 'retry'],
  ] as const)('HTTP %i → %s', (status, kind) => expect(answerKind(status)).toBe(kind));

  it.each([
    ['{"error":"duplicate lead"}', 'duplicate lead'],
    ['{"message":"  state not served "}', 'state not served'],
    ['{"other":1}', '{"other":1}'],
    ['plain text\r\nsecond line', 'plain text second line'],
    ['\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007 \u001b[2J', ']8;;http://evil.example click ]8;; [2J'],
    ['x'.repeat(5000), `${'x'.repeat(199)}…`],
  ])('reason of %j', (body, reason) => expect(buyerReason(body)).toBe(reason));

  it.each([
    ['ipaydayloans.com', 'production'],
    ['www.ipaydayloans.com', 'production'],
    ['dev.ipaydayloans.com', 'test'],
    ['test123.ipaydayloans.com', 'test'],
    ['ipaydayloans.localhost', 'development'],
    ['127.0.0.1', 'development'],
  ] as const)('a lead posted on %s is a %s lead', (host, env) => expect(environmentOfHost(host)).toBe(env));

  it('a test lead goes only where test leads are accepted', () => {
    expect(destinationTakes({}, { environment: 'test' })).toBe(false);
    expect(destinationTakes({ acceptsTestLeads: false }, { environment: 'development' })).toBe(false);
    expect(destinationTakes({ acceptsTestLeads: true }, { environment: 'test' })).toBe(true);
    expect(destinationTakes({}, { environment: 'production' })).toBe(true);
  });
});

describe.each([
  ['SQLite', (): StoreOptions => ({ url: '', file: join(tmp, 'refusals.sqlite') })],
  ['PostgreSQL', (): StoreOptions => ({ url: postgres!.url })],
])('%s', (_kind, options) => {
  let db: Store;
  const kind = () => storeKindOf(options());
  const t0 = Date.parse('2026-11-23T10:00:00.000Z');
  const at = (ms: number) => () => new Date(t0 + ms);
  beforeAll(async () => {
    db = openStore(options());
    await migrateStore(db);
  });
  afterAll(() => db?.destroy());
  beforeEach(async () => {
    buyer.mode = 'ok';
    testBuyer.mode = 'ok';
    await db.deleteFrom('lead_deliveries').execute();
  });
  const row = (id: string, destination = 'buyer-a') =>
    db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', id).where('destination', '=', destination).executeTakeFirstOrThrow();

  it("a buyer's 409 is recorded as rejected with its reason, and never sent again", async () => {
    const { id } = await insertLead(db, lead(), ['buyer-a']);
    buyer.mode = 'refuse';
    buyer.refusal = JSON.stringify({ error: `duplicate lead \u001b[2J${'!'.repeat(400)}` });
    const attempts = buyer.attempts;
    expect(await deliverDue(db, kind(), { worker: 'w1', now: at(1_000) })).toMatchObject({ claimed: 1, rejected: 1, failed: 0 });
    const rejected = await row(id);
    expect(rejected).toMatchObject({ status: 'rejected', attempts: 1 });
    expect(rejected.last_error).toMatch(/^HTTP 409: duplicate lead \[2J!+…$/);
    expect(rejected.last_error!.length).toBeLessThanOrEqual(220);
    expect(rejected.last_error).not.toContain('\u001b');
    buyer.mode = 'ok';
    expect(await deliverDue(db, kind(), { worker: 'w1', now: at(3_600_000) })).toMatchObject({ claimed: 0 });
    expect(buyer.attempts).toBe(attempts + 1);
  });

  it('429 and 503 are retried, then delivered', async () => {
    const { id } = await insertLead(db, lead(), ['buyer-a']);
    buyer.mode = 'busy';
    expect(await deliverDue(db, kind(), { worker: 'w1', now: at(1_000) })).toMatchObject({ claimed: 1, failed: 1, rejected: 0 });
    expect(await row(id)).toMatchObject({ status: 'pending', last_error: 'HTTP 429' });
    buyer.mode = 'down';
    expect(await deliverDue(db, kind(), { worker: 'w1', now: at(7_000) })).toMatchObject({ claimed: 1, failed: 1 });
    buyer.mode = 'ok';
    expect(await deliverDue(db, kind(), { worker: 'w1', now: at(20_000) })).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await row(id)).toMatchObject({ status: 'delivered', attempts: 3 });
  });

  it('a lead the buyer took in time while this process was busy is delivered once, not sent again as "no answer"', async () => {
    const { id } = await insertLead(db, lead(), ['buyer-a']);
    const before = buyer.received.length;
    const round = deliverDue(db, kind(), { worker: 'w1', now: at(1_000) });
    // the buyer has the lead and has answered 200; the answer is not read yet
    while (buyer.received.length === before) await new Promise((r) => setImmediate(r));
    const until = Date.now() + 1_500;
    while (Date.now() < until); // the event loop is held past the destination's 800 ms
    expect(await round).toMatchObject({ claimed: 1, delivered: 1, failed: 0 });
    expect(await row(id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await deliverDue(db, kind(), { worker: 'w1', now: at(3_600_000) })).toMatchObject({ claimed: 0 });
    expect(buyer.received.slice(before).map((r) => r.id)).toEqual([id]);
  });

  it('a test lead is sent, marked test, only to the buyer that accepts test leads', async () => {
    const before = [buyer.received.length, testBuyer.received.length];
    // stored with both outbox rows (as a lead from before environments were recorded could be): the worker still holds it back
    const { id } = await insertLead(db, lead({ host: 'dev.ipaydayloans.com', environment: 'test' }), ['buyer-a', 'buyer-test']);
    expect(await deliverDue(db, kind(), { worker: 'w1', now: at(1_000) })).toMatchObject({ claimed: 2, delivered: 1, rejected: 1 });
    expect(buyer.received.length).toBe(before[0]);
    expect(testBuyer.received.slice(before[1]).map((r) => [r.id, r.body.test])).toEqual([[id, true]]);
    expect((await row(id)).last_error).toContain('does not accept test leads');
  });
});

describe('npm run leads shows a rejected delivery and a pending one', () => {
  it('with their reasons', async () => {
    const file = join(tmp, 'cli.sqlite');
    const db = openStore({ url: '', file });
    await migrateStore(db);
    const now = new Date();
    const a = await insertLead(db, lead({ created_at: now.toISOString() }), ['buyer-a']);
    const b = await insertLead(db, lead({ created_at: now.toISOString() }), ['buyer-a']);
    buyer.mode = 'refuse';
    buyer.refusal = '{"error":"duplicate lead"}';
    await deliverDue(db, 'sqlite', { worker: 'w', now: () => now, limit: 1 });
    buyer.mode = 'down';
    await deliverDue(db, 'sqlite', { worker: 'w', now: () => now, limit: 1 });
    await db.destroy();
    const out = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/leads.ts', '--since', '1h'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '' },
    });
    expect(out.status).toBe(0);
    const line = (id: string) => out.stdout.split('\n').find((l) => l.includes(id)) ?? '';
    expect(line(a.id)).toContain('buyer-a: rejected (HTTP 409: duplicate lead)');
    expect(line(b.id)).toContain('buyer-a: pending (1 tries, HTTP 503)');
  }, 90_000);
});
