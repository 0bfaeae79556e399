/**
 * "Stop calls and emails": what the form and the API accept, and — on SQLite and PostgreSQL,
 * against real stand-in buyers — that an opted-out contact is kept only as keyed hashes, is
 * never sold again (in any of its spellings), and that the buyer who bought the earlier lead
 * gets one signed notice through the outbox, retried while its endpoint is down.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import noticeSchema from '../../schemas/api/buyer-opt-out.schema.json' with { type: 'json' };
import { optOutOutcome } from '../../blocks/contactOptOut/outcome';
import { validatorFor } from '../../engine/http/api';
import { backoffMs, deliverDue } from '../../engine/outbox/deliver';
import { getBuyers } from '../../engine/sale/buyers';
import { readOptOut, recordOptOut } from '../../engine/sale/optOut';
import { runSale, type SaleDeps } from '../../engine/sale/runner';
import { ensureSale } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { startBuyer, type Buyer as Webhook } from '../support/buyer';
import { leadRow } from '../support/leadRow';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';

const KEY = 'f'.repeat(64);
const SECRET = 'opt-out-buyer-secret-0001';
const CONTACT_KEY = Buffer.alloc(32, 7);
const OLD_CONTACT_KEY = Buffer.alloc(32, 8);
const dir = mkdtempSync(join(tmpdir(), 'loansites-opt-out-'));
const saved = { ...process.env };
let pg: RunningPostgres;
let hook: Webhook;
let lender: StandInBuyer;
let plain: StandInBuyer;
/** answers "accepted" with no redirect (an accept the sale cannot take), on usbadcreditloans leads only */
let eager: StandInBuyer;
let eagerHook: Webhook;

beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = KEY;
  [pg, hook, lender, plain, eager, eagerHook] = await Promise.all([
    startPostgres(),
    startBuyer(SECRET),
    startStandInBuyer('opt-lender', SECRET, { ping: { bid: 40 } }),
    startStandInBuyer('no-url-lender', SECRET, { ping: { bid: 10 } }),
    startStandInBuyer('eager-lender', SECRET, { ping: { bid: 50 }, post: { answer: { accepted: true, buyerLeadId: 'EAGER-1' } } }),
    startBuyer(SECRET),
  ]);
  mkdirSync(join(dir, 'buyers'));
  writeFileSync(join(dir, 'buyers', 'lender.json'), JSON.stringify(lender.document({ optOutUrl: hook.url })));
  writeFileSync(join(dir, 'buyers', 'plain.json'), JSON.stringify(plain.document()));
  writeFileSync(join(dir, 'buyers', 'eager.json'), JSON.stringify(eager.document({ optOutUrl: eagerHook.url, filters: { brands: ['usbadcreditloans'] } })));
  Object.assign(process.env, {
    LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
    BUYER_OPT_LENDER_SECRET: SECRET,
    BUYER_NO_URL_LENDER_SECRET: SECRET,
    BUYER_EAGER_LENDER_SECRET: SECRET,
  });
}, 120_000);
afterAll(async () => {
  process.env = saved;
  await Promise.all([hook?.close(), lender?.close(), plain?.close(), eager?.close(), eagerHook?.close()]);
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('what the opt-out accepts', () => {
  it.each([
    ['a phone alone', { phone: '(214) 555-0142' }, true],
    ['an email alone', { email: 'Ana@Example.com' }, true],
    ['both', { phone: '+1 214-555-0142', email: 'ana@example.com' }, true],
    ['an Australian mobile', { phone: '+61 412 345 678' }, true],
    ['nothing', {}, '/: enter the phone number or the email address you gave on your request'],
    ['blanks', { phone: '  ', email: '' }, '/: enter the phone number or the email address you gave on your request'],
    ['a short phone', { phone: '555-0142' }, '/phone: enter a 10-digit US phone number, for example (512) 555-0123'],
    ['an email without a domain', { email: 'ana@' }, '/email: enter an email address such as ana@example.com'],
    ['a phone with a letter (not dropped as a typo)', { phone: '5125550123x' }, '/phone: enter a 10-digit US phone number, for example (512) 555-0123'],
    ['an email with two dots in a row', { email: 'ana@example..com' }, '/email: enter an email address such as ana@example.com'],
    ['a phone in Arabic-Indic digits', { phone: '٢١٤٥٥٥٠١٤٢' }, true],
    ['a phone partly in full-width digits', { phone: '(２１４) 555-0142' }, true],
    // its other-script digit was once dropped, leaving 2145551427: somebody else's number
    ['a phone of 11 digits, one of them Arabic-Indic', { phone: '214 555 ٠142 7' }, '/phone: enter a 10-digit US phone number, for example (512) 555-0123'],
    ['a phone with a superscript digit', { phone: '214 555 014²' }, '/phone: enter a 10-digit US phone number, for example (512) 555-0123'],
  ])('%s', (_, body, expected) => {
    const r = readOptOut(body, 'US');
    if (expected === true) expect(r.ok).toBe(true);
    else expect(r).toEqual({ ok: false, problems: [expected] });
  });

  it.each([
    ['recorded', 200, { status: 'recorded' }, null, { kind: 'done' }],
    [
      'a phone the server refused',
      400,
      { problems: ['/phone: enter a 10-digit US phone number, for example (512) 555-0123'] },
      null,
      {
        kind: 'invalid',
        message: 'Enter a 10-digit US phone number, for example (512) 555-0123.',
        fields: { phone: true, email: false },
      },
    ],
    ['too many requests', 429, {}, '30', { kind: 'retry', message: 'Too many requests came from your connection. Please wait 30 seconds, then try again.' }],
    ['offline', 0, null, null, { kind: 'retry', message: "We couldn't record your choice just now. Please try again in a moment." }],
  ])('the form reads an answer: %s', (_, status, body, retryAfter, expected) => {
    expect(optOutOutcome(status, body, retryAfter)).toEqual(expected);
  });
});

describe.each(['SQLite', 'PostgreSQL'])('an opt-out on %s', (kind) => {
  let db: Store;
  beforeAll(async () => {
    db = kind === 'SQLite' ? openStore({ url: '', file: join(dir, 'opt-out.sqlite') }) : openStore({ url: await pg.createDatabase('contact_opt_out') });
    await migrateStore(db);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
  });

  const store = async (phone: string, email: string, brand = 'ipaydayloans'): Promise<string> => {
    const { id } = await insertLead(db, leadRow({ brand, phone, email, created_at: new Date().toISOString() }), []);
    await ensureSale(db, id, new Date());
    return id;
  };
  const deps = (): SaleDeps => ({
    buyers: [...getBuyers().buyers.values()].map((b) => b.buyer),
    secretOf: () => SECRET,
    contactKey: CONTACT_KEY,
    suppressionKeys: [CONTACT_KEY, OLD_CONTACT_KEY],
    worker: `w-${kind}`,
    duplicateWindowMs: 0,
  });
  const wants = (id: string) => !!getBuyers().buyers.get(id)?.buyer.optOutUrl;

  it('an Australian mobile opted out in its international spelling stops the next request stored with it', async () => {
    const mobile = kind === 'SQLite' ? '0412345601' : '0412345602';
    expect(await recordOptOut(db, [CONTACT_KEY], { phone: `+61 ${mobile.slice(1, 4)} ${mobile.slice(4, 7)} ${mobile.slice(7)}` }, wants, new Date())).toEqual({
      notices: 0,
    });
    const later = await store(mobile, `au.${kind.toLowerCase()}@example.com`);
    expect(await runSale(db, later, deps())).toMatchObject({ status: 'suppressed', reason: 'the contact opted out' });
  });

  it('keeps only keyed hashes, sells the contact to nobody again, and tells the buyer once, retrying while it is down', async () => {
    const phone = kind === 'SQLite' ? '4695550101' : '4695550202';
    const email = `opt.${kind.toLowerCase()}@gmail.com`;
    const earlier = await store(phone, email);
    expect(await runSale(db, earlier, deps())).toMatchObject({ status: 'sold', buyerId: 'opt-lender' });

    // The borrower writes the number another way; the hashes still match.
    const spelled = `+1 (${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`;
    expect(await recordOptOut(db, [CONTACT_KEY, OLD_CONTACT_KEY], { phone: spelled }, wants, new Date())).toEqual({ notices: 1 });
    expect(await recordOptOut(db, [CONTACT_KEY, OLD_CONTACT_KEY], { phone }, wants, new Date())).toEqual({ notices: 1 });
    const rows = await db.selectFrom('suppressions').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) expect(r.hash).not.toContain(phone.slice(3));
    const queued = await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', earlier).execute();
    expect(queued.map((r) => r.destination)).toEqual(['optout:opt-lender']);

    // Later requests with that contact — even under another email, or with the email only — are not sold.
    const pinged = lender.pings.length;
    const later = await store(phone, `someone.else.${kind}@example.com`);
    expect(await runSale(db, later, deps())).toMatchObject({ status: 'suppressed', reason: 'the contact opted out' });
    await recordOptOut(db, [CONTACT_KEY], { email: email.replace('opt.', 'o.p.t.').replace('@', '+loans@') }, wants, new Date());
    const byEmail = await store('2145550199', email);
    expect(await runSale(db, byEmail, deps())).toMatchObject({ status: 'suppressed' });
    expect(lender.pings.length).toBe(pinged);

    // The notice: the buyer is down, then back; sent until it answers 2xx, once.
    hook.mode = 'down';
    const t0 = new Date();
    const first = await deliverDue(db, kind === 'SQLite' ? 'sqlite' : 'postgres', { worker: 'outbox', now: () => t0 });
    expect(first).toMatchObject({ claimed: 1, failed: 1 });
    hook.mode = 'ok';
    const later2 = new Date(t0.getTime() + backoffMs(1) + 1000);
    expect(await deliverDue(db, kind === 'SQLite' ? 'sqlite' : 'postgres', { worker: 'outbox', now: () => later2 })).toMatchObject({
      claimed: 1,
      delivered: 1,
    });
    const got = hook.received.filter((r) => r.body.leadId === earlier);
    expect(got).toHaveLength(1);
    expect(validatorFor(noticeSchema)(got[0]!.body)).toBe(true);
    expect(got[0]!.body).toMatchObject({ type: 'opt-out', leadId: earlier, revokes: ['calls', 'texts', 'emails'] });
    expect(got[0]!.headers['idempotency-key']).toBe(`optout:${earlier}`);
    expect(got[0]!.headers['x-loansites-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(JSON.stringify(got[0]!.body)).digest('hex')}`);
    expect(
      await deliverDue(db, kind === 'SQLite' ? 'sqlite' : 'postgres', { worker: 'outbox', now: () => new Date(later2.getTime() + 3_600_000) }),
    ).toMatchObject({
      claimed: 0,
    });
  }, 60_000);

  it('a contact opted out under an earlier lead key is still not sold after the key rotates', async () => {
    const phone = kind === 'SQLite' ? '4695550303' : '4695550404';
    await recordOptOut(db, [OLD_CONTACT_KEY], { phone }, wants, new Date());
    const lead = await store(phone, `rotated.${kind}@example.com`);
    expect(await runSale(db, lead, deps())).toMatchObject({ status: 'suppressed' });
  }, 30_000);

  it('a buyer whose accept the sale did not take is told when the borrower opts out, with no other buyer’s lead id', async () => {
    const phone = kind === 'SQLite' ? '4695550707' : '4695550808';
    const lead = await store(phone, `eager.${kind}@example.com`, 'usbadcreditloans');
    lender.post = { answer: { accepted: true, redirectUrl: `https://opt-lender.lender.example/offer/${lead}`, buyerLeadId: 'LENDER-7' } };
    try {
      expect(await runSale(db, lead, deps())).toMatchObject({ status: 'sold', buyerId: 'opt-lender' });
    } finally {
      lender.post = 'accept';
    }
    // the eager buyer answered "accepted": it may believe it bought the lead, and it holds it
    expect(eager.posts.filter((p) => p.leadId === lead)).toHaveLength(1);
    expect(await recordOptOut(db, [CONTACT_KEY], { phone }, wants, new Date())).toEqual({ notices: 2 });
    const later = new Date(Date.now() + 60_000);
    await deliverDue(db, kind === 'SQLite' ? 'sqlite' : 'postgres', { worker: 'outbox', now: () => later });
    const told = eagerHook.received.filter((r) => r.body.leadId === lead);
    expect(told.map((r) => r.body)).toEqual([expect.objectContaining({ type: 'opt-out', leadId: lead, revokes: ['calls', 'texts', 'emails'] })]);
    expect(validatorFor(noticeSchema)(told[0]!.body)).toBe(true);
    expect(told[0]!.body).not.toHaveProperty('buyerLeadId');
    expect(hook.received.filter((r) => r.body.leadId === lead).map((r) => r.body)).toEqual([expect.objectContaining({ buyerLeadId: 'LENDER-7' })]);
  }, 60_000);

  it('a buyer whose accept was not taken as the borrower opted out during the sale is told too', async () => {
    const phone = kind === 'SQLite' ? '4695550909' : '4695551010';
    const lead = await store(phone, `midsale.${kind}@example.com`, 'usbadcreditloans');
    // the opt-out is recorded while the eager buyer has the post, before its answer is read
    const optingOut: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      if (String(url) === `${eager.origin}/post`) await recordOptOut(db, [CONTACT_KEY], { phone }, wants, new Date());
      return res;
    };
    expect(await runSale(db, lead, { ...deps(), fetcher: optingOut })).toMatchObject({ status: 'sold', buyerId: 'opt-lender' });
    const later = new Date(Date.now() + 60_000);
    await deliverDue(db, kind === 'SQLite' ? 'sqlite' : 'postgres', { worker: 'outbox', now: () => later });
    expect(eagerHook.received.filter((r) => r.body.leadId === lead).map((r) => r.body)).toEqual([expect.objectContaining({ type: 'opt-out', leadId: lead })]);
    expect(hook.received.filter((r) => r.body.leadId === lead)).toHaveLength(1);
  }, 60_000);

  it('a buyer without an optOutUrl gets no notice', async () => {
    const phone = kind === 'SQLite' ? '4695550505' : '4695550606';
    const lead = await store(phone, `plain.${kind}@example.com`);
    const onlyPlain = { ...deps(), buyers: deps().buyers.filter((b) => b.id === 'no-url-lender') };
    expect(await runSale(db, lead, onlyPlain)).toMatchObject({ status: 'sold', buyerId: 'no-url-lender' });
    expect(await recordOptOut(db, [CONTACT_KEY], { phone }, wants, new Date())).toEqual({ notices: 0 });
    expect(await db.selectFrom('lead_deliveries').selectAll().where('lead_id', '=', lead).execute()).toEqual([]);
  }, 30_000);
});
