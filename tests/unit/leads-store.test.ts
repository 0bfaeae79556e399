/**
 * Leads and their outbox against both real databases (a SQLite file, PostgreSQL 15 started by
 * the test) and a real buyer webhook on loopback: stored once per idempotency key, delivered
 * once after a 2xx, retried with back-off while the buyer is down or slow, never claimed by two
 * workers at once, given up (and kept) after the last attempt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backoffMs, deliverDue, MAX_ATTEMPTS } from '../../engine/outbox/deliver';
import { leadPayload } from '../../engine/sale/wire';
import { openText, sealText } from '../../engine/keys/sealing';
import { migrateStore, openStore, storeKindOf, type Store, type StoreOptions } from '../../engine/store/db';
import { insertLead, listLeads, type LeadsTable } from '../../engine/store/leads';
import { startBuyer, type Buyer } from '../support/buyer';
import { startPostgres, type RunningPostgres } from '../support/postgres';

const SECRET = 'buyer-shared-secret-123';
const tmp = mkdtempSync(join(tmpdir(), 'loansites-leads-'));
let postgres: RunningPostgres | undefined;
let buyer: Buyer;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = 'a'.repeat(64);
  [postgres, buyer] = await Promise.all([startPostgres(), startBuyer(SECRET)]);
  process.env.LEAD_DESTINATIONS = JSON.stringify({ ipaydayloans: [{ name: 'buyer-a', url: buyer.url, secret: SECRET, timeoutMs: 800 }] });
}, 120_000);
afterAll(async () => {
  await Promise.all([postgres?.stop(), buyer?.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
const lead = (extra: Partial<LeadsTable> = {}): Omit<LeadsTable, 'id'> => ({
  brand: 'ipaydayloans',
  idempotency_key: `key-${++n}-abcdefghijklmnop`,
  created_at: '2026-11-23T10:00:00.000Z',
  loan_kind: 'general',
  amount: 1000,
  zip: '78701',
  state: 'tx',
  city: 'Austin',
  country: 'US',
  region: 'TX',
  currency: 'USD',
  purpose: '',
  vehicle: '',
  first_name: 'Ana',
  last_name: 'García',
  email: 'ana@example.org',
  phone: '5125550123',
  income_source: 'employment',
  pay_frequency: 'biweekly',
  sealed: sealText(JSON.stringify({ dateOfBirth: '1990-04-02', monthlyIncome: 3200 })),
  consent_version: 'tcpa-2026-11',
  consent_text: 'consent text',
  consent_hash: 'h',
  source: 'spring',
  source2: '/payday-loans',
  click_id: 'ggabc',
  session_uuid: 'cc' + '0'.repeat(32),
  privacy_opt_out: 0,
  ip: '203.0.113.0',
  user_agent: 'test',
  host: 'ipaydayloans.com',
  environment: 'production',
  ...extra,
});

describe('sealing at rest', () => {
  it('round-trips and hides the value', () => {
    const sealed = sealText('{"dateOfBirth":"1990-04-02"}');
    expect(sealed).not.toContain('1990');
    expect(openText(sealed)).toBe('{"dateOfBirth":"1990-04-02"}');
  });
  it('a changed byte is refused', () => {
    const sealed = sealText('secret');
    // "v2.<key id>.<iv>.<ciphertext+tag>": the last part is the ciphertext.
    const head = sealed.slice(0, sealed.lastIndexOf('.'));
    const body = sealed.slice(sealed.lastIndexOf('.') + 1);
    // One byte of the ciphertext flipped (the old test swapped a character for the one it compared
    // with the wrong neighbour: 1 run in 64 it changed nothing and failed).
    for (const at of [0, 5, -1]) {
      const bytes = Buffer.from(body, 'base64url');
      const i = at < 0 ? bytes.length + at : at;
      bytes[i] = bytes[i]! ^ 0x01;
      const broken = `${head}.${bytes.toString('base64url')}`;
      expect(broken).not.toBe(sealed);
      expect(() => openText(broken)).toThrow();
    }
  });
  it('back-off doubles from 5 s and stops at an hour', () => {
    expect([1, 2, 3, 4, 20].map(backoffMs)).toEqual([5_000, 10_000, 20_000, 40_000, 3_600_000]);
  });
});

describe.each([
  ['SQLite', (): StoreOptions => ({ url: '', file: join(tmp, 'leads.sqlite') })],
  ['PostgreSQL', (): StoreOptions => ({ url: postgres!.url })],
])('%s', (kind, options) => {
  let db: Store;
  const storeKind = () => storeKindOf(options());
  beforeAll(async () => {
    db = openStore(options());
    await migrateStore(db);
  });
  afterAll(() => db?.destroy());
  beforeEach(() => {
    buyer.mode = 'ok';
  });

  it('one lead per idempotency key, even when the same request arrives ten times at once', async () => {
    const one = lead();
    const answers = await Promise.all(Array.from({ length: 10 }, () => insertLead(db, one, ['buyer-a'])));
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    const rows = await db.selectFrom('leads').select('id').where('idempotency_key', '=', one.idempotency_key).execute();
    expect(rows).toHaveLength(1);
    const outbox = await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', rows[0]!.id).execute();
    expect(outbox).toHaveLength(1);
    await db.deleteFrom('lead_deliveries').execute();
  });

  it('delivers once after a 2xx: signed, with the sealed fields opened for the buyer', async () => {
    const { id } = await insertLead(db, lead(), ['buyer-a']);
    const before = buyer.received.length;
    const now = () => new Date('2026-11-23T10:00:01.000Z');
    expect(await deliverDue(db, storeKind(), { worker: 'w1', now })).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await deliverDue(db, storeKind(), { worker: 'w1', now: () => new Date('2026-11-23T12:00:00.000Z') })).toMatchObject({ claimed: 0 });
    const got = buyer.received.slice(before);
    expect(got.map((r) => r.id)).toEqual([id]);
    expect(got[0]!.body).toMatchObject({ dateOfBirth: '1990-04-02', monthlyIncome: 3200, state: 'TX', tracking: { source: 'spring', clickId: 'ggabc' } });
    expect(got[0]!.headers['idempotency-key']).toBe(id);
    const [listed] = (await listLeads(db, { since: new Date('2026-11-23T00:00:00Z') })).filter((l) => l.lead.id === id);
    expect(listed!.deliveries).toEqual([expect.objectContaining({ destination: 'buyer-a', status: 'delivered', attempts: 1 })]);
  });

  it('buyer down, then slow, then back: retried with back-off, delivered once, nothing lost', async () => {
    const { id } = await insertLead(db, lead(), ['buyer-a']);
    const t0 = Date.parse('2026-11-23T10:00:00.000Z');
    const at = (ms: number) => () => new Date(t0 + ms);
    buyer.mode = 'down';
    expect(await deliverDue(db, storeKind(), { worker: 'w1', now: at(1_000) })).toMatchObject({ claimed: 1, failed: 1 });
    expect(await deliverDue(db, storeKind(), { worker: 'w1', now: at(3_000) })).toMatchObject({ claimed: 0 }); // not due for 5 s
    buyer.mode = 'slow';
    expect(await deliverDue(db, storeKind(), { worker: 'w1', now: at(6_500) })).toMatchObject({ claimed: 1, failed: 1 });
    buyer.mode = 'ok';
    expect(await deliverDue(db, storeKind(), { worker: 'w1', now: at(12_000) })).toMatchObject({ claimed: 0 }); // 10 s after the second failure
    expect(await deliverDue(db, storeKind(), { worker: 'w1', now: at(17_000) })).toMatchObject({ claimed: 1, delivered: 1 });
    expect(buyer.received.filter((r) => r.id === id)).toHaveLength(1);
    const row = await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'delivered', attempts: 3 });
  });

  it('two workers at once never claim the same row: 20 leads, 20 deliveries', async () => {
    const before = buyer.received.length;
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push((await insertLead(db, lead(), ['buyer-a'])).id);
    const now = () => new Date('2026-11-23T10:00:02.000Z');
    const drain = async (worker: string) => {
      for (;;) {
        const r = await deliverDue(db, storeKind(), { worker, now, limit: 3 });
        if (!r.claimed) return;
      }
    };
    await Promise.all([drain('w-a'), drain('w-b'), drain('w-c')]);
    const got = buyer.received
      .slice(before)
      .map((r) => r.id)
      .sort();
    expect(got).toEqual([...ids].sort());
  });

  it('a destination that keeps failing is given up after the last attempt and kept for an operator', async () => {
    const { id } = await insertLead(db, lead(), ['buyer-a']);
    buyer.mode = 'down';
    let t = Date.parse('2026-11-23T10:00:00.000Z');
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      t += 3_600_001;
      await deliverDue(db, storeKind(), { worker: 'w1', now: () => new Date(t) });
    }
    const row = await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_error: 'HTTP 503' });
    expect(await deliverDue(db, storeKind(), { worker: 'w1', now: () => new Date(t + 10 * 3_600_000) })).toMatchObject({ claimed: 0 });
    expect(leadPayload(await db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).id).toBe(id);
  });
});

describe('a lead sealed with another key', () => {
  it('fails alone: the other leads of the round are delivered', async () => {
    const db = openStore({ url: '', file: join(tmp, 'other-key.sqlite') });
    await migrateStore(db);
    try {
      const before = buyer.received.length;
      buyer.mode = 'ok';
      const foreign = await insertLead(db, lead({ sealed: sealText('{"dateOfBirth":"1990-01-01","monthlyIncome":1}', Buffer.alloc(32, 7)) }), ['buyer-a']);
      const fine = await insertLead(db, lead(), ['buyer-a']);
      const round = await deliverDue(db, 'sqlite', { worker: 'w-key', now: () => new Date('2026-11-23T10:00:01.000Z') });
      expect(round).toMatchObject({ claimed: 2, delivered: 1, failed: 1 });
      expect(buyer.received.slice(before).map((r) => r.id)).toEqual([fine.id]);
      const bad = await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', foreign.id).executeTakeFirstOrThrow();
      expect(bad).toMatchObject({ status: 'pending', attempts: 1 });
      expect(bad.last_error).toMatch(/^not sent: /);
    } finally {
      await db.destroy();
    }
  });
});
