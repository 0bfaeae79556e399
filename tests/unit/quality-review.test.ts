/**
 * Lead quality in the store, on SQLite and on PostgreSQL: a lead screening held for review is
 * released by an operator and then sold — once, even when two reviews arrive together and the
 * sale is asked to run again, and to the ping/post buyers however long after its arrival the
 * release comes, within the bound counted from the release even when its sale is resumed after its
 * worker died — or rejected and offered to nobody; until then its borrower is told it is being
 * checked; a lead whose held sale is not decided yet is left for later. Certificates: stored once per lead, claimed (the first claim's
 * time kept, retention extended), read only while kept, pruned with their claims; who was offered
 * a lead.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { certificateRow, claimCertificate, insertCertificate, offeredTo, pruneCertificates } from '../../engine/store/certificates';
import { runSale, SALE_DEADLINE_MS, SALE_LEASE_MS } from '../../engine/sale/runner';
import { reviewHeldLead, saveScreening, screeningOf } from '../../engine/store/screening';
import { addEvent, claimSale, saleOf, timelineOf } from '../../engine/store/sales';
import { bothStores, migratedStore } from '../support/bothStores';
import { storeSaleLead } from '../support/saleLead';
import { buyerDocuments, saleDeps, standIns } from '../support/saleKit';
import type { Store } from '../../engine/store/db';
import { saleStatusOf } from '../../engine/sale/status';
import { validatorFor } from '../../engine/http/api';
import statusSchema from '../../schemas/api/sale-status.schema.json' with { type: 'json' };
import type { SaleStatusAnswer } from '../../schemas/api.types';

const KEY = 'e'.repeat(64);
const SECRET = 'quality-review-buyer-secret-01';
process.env.LEADS_ENCRYPTION_KEY = KEY;
const stores = bothStores('loansites-quality-review-');
const stands = standIns(SECRET);
afterAll(() => stands.closeAll());

let n = 0;
async function heldLead(db: Store): Promise<string> {
  const id = await storeSaleLead(db, Buffer.from(KEY, 'hex'));
  await saveScreening(db, {
    lead_id: id,
    created_at: new Date().toISOString(),
    score: 25,
    band: 'low',
    codes: 'bot-fast,bot-paste-all',
    routing: 'hold',
    phone_key: '',
    email_key: '',
    ip_key: '',
    device_key: `review-${++n}`,
  });
  return id;
}

describe.each(stores.kinds('review.sqlite'))('reviewing held leads on %s', (kind, options) => {
  const db = migratedStore(options);
  const deps = async (id: string) => {
    const buyer = await stands.start(`rv${kind === 'SQLite' ? 's' : 'p'}${++n}`, { ping: { bid: 30 }, post: 'accept' });
    return { buyer, deps: saleDeps(SECRET, Buffer.alloc(32, 3), buyerDocuments(buyer.document({ acceptsDuplicates: true })), { worker: `w-${id}` }) };
  };

  it('sells a released lead once: two releases at once count as one, and asking the sale again changes nothing', async () => {
    const id = await heldLead(db());
    const { buyer, deps: d } = await deps(id);
    await runSale(db(), id, d);
    expect(await saleOf(db(), id)).toMatchObject({ status: 'unsold', reason: expect.stringContaining('held for review') });
    expect(buyer.pings).toHaveLength(0);

    const outcomes = await Promise.all([reviewHeldLead(db(), id, 'release', new Date()), reviewHeldLead(db(), id, 'release', new Date())]);
    expect(outcomes.sort()).toEqual(['not-held', 'released']);
    expect((await screeningOf(db(), id))?.routing).toBe('released');
    expect(await saleOf(db(), id)).toMatchObject({ status: 'pending' });

    await Promise.all([runSale(db(), id, d), runSale(db(), id, { ...d, worker: 'another' })]);
    await runSale(db(), id, d);
    expect(await saleOf(db(), id)).toMatchObject({ status: 'sold', buyer_id: buyer.id });
    expect(buyer.pings).toHaveLength(1);
    expect(buyer.posts).toHaveLength(1);
    expect(await reviewHeldLead(db(), id, 'release', new Date())).toBe('not-held');
  }, 60_000);

  it('offers a lead released ten minutes after its arrival to the ping/post buyers, its bound counted from its release: pinged and sold once', async () => {
    const id = await heldLead(db());
    const { buyer, deps: d } = await deps(id);
    await runSale(db(), id, d);
    expect(await saleOf(db(), id)).toMatchObject({ status: 'unsold', reason: expect.stringContaining('held for review') });

    // the review takes ten minutes: the release and its sale happen then
    const later = () => new Date(Date.now() + 10 * 60_000);
    expect(await reviewHeldLead(db(), id, 'release', later())).toBe('released');
    const result = await runSale(db(), id, { ...d, now: later });
    expect(result).toMatchObject({ status: 'sold', buyerId: buyer.id });
    expect(await runSale(db(), id, { ...d, now: later })).toBeUndefined();
    expect(await saleOf(db(), id)).toMatchObject({ status: 'sold', buyer_id: buyer.id });
    expect(buyer.pings).toHaveLength(1);
    expect(buyer.posts).toHaveLength(1);
  }, 60_000);

  it('keeps a released lead to the bound counted from its release when its sale is resumed after its worker died: no new window', async () => {
    const id = await heldLead(db());
    const { buyer, deps: d } = await deps(id);
    await runSale(db(), id, d);
    const releasedAt = new Date(Date.now() + 10 * 60_000);
    expect(await reviewHeldLead(db(), id, 'release', releasedAt)).toBe('released');
    expect((await screeningOf(db(), id))?.reviewed_at).toBe(releasedAt.toISOString());
    // the worker that took up the released sale dies before offering it: its lease runs out, then another resumes the sale
    expect(await claimSale(db(), id, 'dead-worker', releasedAt, SALE_LEASE_MS)).toBeDefined();
    const resumedAt = () => new Date(releasedAt.getTime() + SALE_LEASE_MS + 1000);
    expect(resumedAt().getTime() - releasedAt.getTime()).toBeGreaterThan(SALE_DEADLINE_MS);

    const result = await runSale(db(), id, { ...d, worker: 'second-worker', now: resumedAt });

    expect(result).toMatchObject({ status: 'unsold', reason: 'the borrower had stopped waiting before the sale could start' });
    expect(await saleOf(db(), id)).toMatchObject({ status: 'unsold', runs: 3 });
    expect(buyer.pings).toHaveLength(0);
    expect(buyer.posts).toHaveLength(0);
  }, 60_000);

  it("tells the borrower a held lead is being checked until it is reviewed: then its sale's answer, or none once rejected", async () => {
    const buyerOf = () => undefined;
    const released = await heldLead(db());
    const { buyer, deps: d } = await deps(released);
    await runSale(db(), released, d);
    expect(await saleStatusOf(db(), released, buyerOf)).toEqual({ state: 'review' });
    await reviewHeldLead(db(), released, 'release', new Date());
    expect(await saleStatusOf(db(), released, buyerOf)).toEqual({ state: 'finding' });
    await runSale(db(), released, d);
    const documents = buyerDocuments(buyer.document({ acceptsDuplicates: true }));
    expect(await saleStatusOf(db(), released, (id) => documents.find((b) => b.id === id))).toMatchObject({ state: 'matched', lender: `Stand-in ${buyer.id}` });

    const rejected = await heldLead(db());
    await runSale(db(), rejected, d);
    expect(await saleStatusOf(db(), rejected, buyerOf)).toEqual({ state: 'review' });
    await reviewHeldLead(db(), rejected, 'reject', new Date());
    expect(await saleStatusOf(db(), rejected, buyerOf)).toEqual({ state: 'none' });
    // the answer the page gets is what sale-status.schema.json promises
    const validate = validatorFor<SaleStatusAnswer>(statusSchema);
    expect(validate({ state: 'review' })).toBe(true);
  }, 60_000);

  it('offers a rejected lead to nobody, and a rejected lead cannot be released after', async () => {
    const id = await heldLead(db());
    const { buyer, deps: d } = await deps(id);
    await runSale(db(), id, d);
    expect(await reviewHeldLead(db(), id, 'reject', new Date())).toBe('rejected');
    expect(await reviewHeldLead(db(), id, 'release', new Date())).toBe('not-held');
    expect(await runSale(db(), id, d)).toBeUndefined();
    expect(await saleOf(db(), id)).toMatchObject({ status: 'unsold', reason: expect.stringContaining('rejected by review') });
    expect((await screeningOf(db(), id))?.routing).toBe('rejected');
    expect(buyer.pings).toHaveLength(0);
    expect((await timelineOf(db(), id)).filter((e) => e.step === 'ping')).toEqual([]);
  }, 60_000);

  it('leaves a lead whose held sale is not decided yet for a moment later, unchanged', async () => {
    const id = await heldLead(db());
    expect(await reviewHeldLead(db(), id, 'release', new Date())).toBe('sale-running');
    expect((await screeningOf(db(), id))?.routing).toBe('hold');
    expect(await saleOf(db(), id)).toMatchObject({ status: 'pending' });
  }, 30_000);
});

describe.each(stores.kinds('certificates.sqlite'))('certificates in %s', (_kind, options) => {
  const db = migratedStore(options);
  const row = (id: string, leadId: string, expires: string) => ({
    id,
    lead_id: leadId,
    brand: 'ipaydayloans',
    created_at: '2026-11-28T12:00:00.000Z',
    expires_at: expires,
    sealed: `sealed-${id}`,
  });

  it('keeps one certificate per lead, the first', async () => {
    await insertCertificate(db(), row('ct_one', 'ld_one', '2031-11-28T12:00:00.000Z'));
    await insertCertificate(db(), row('ct_two', 'ld_one', '2031-11-28T12:00:00.000Z'));
    expect(await certificateRow(db(), 'ct_one', new Date('2026-11-29T00:00:00Z'))).toMatchObject({ lead_id: 'ld_one', sealed: 'sealed-ct_one' });
    expect(await certificateRow(db(), 'ct_two', new Date('2026-11-29T00:00:00Z'))).toBeUndefined();
  });

  it('records a claim once, keeps its first time and moves the retention later, never earlier', async () => {
    await insertCertificate(db(), row('ct_claim', 'ld_claim', '2031-11-28T12:00:00.000Z'));
    const first = await claimCertificate(db(), 'ct_claim', 'b1', new Date('2027-01-01T00:00:00Z'), new Date('2032-01-01T00:00:00Z'));
    expect(first).toEqual({ claimedAt: '2027-01-01T00:00:00.000Z', expiresAt: '2032-01-01T00:00:00.000Z' });
    const again = await claimCertificate(db(), 'ct_claim', 'b1', new Date('2027-02-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    expect(again).toEqual({ claimedAt: '2027-01-01T00:00:00.000Z', expiresAt: '2032-01-01T00:00:00.000Z' });
  });

  it('forgets certificates past their retention, with their claims', async () => {
    await insertCertificate(db(), row('ct_old', 'ld_old', '2026-12-01T00:00:00.000Z'));
    await claimCertificate(db(), 'ct_old', 'b1', new Date('2026-11-29T00:00:00Z'), new Date('2026-11-30T00:00:00Z'));
    const later = new Date('2026-12-02T00:00:00Z');
    expect(await certificateRow(db(), 'ct_old', later)).toBeUndefined();
    expect(await pruneCertificates(db(), later)).toBe(1);
    expect(await db().selectFrom('lead_certificate_claims').selectAll().where('certificate_id', '=', 'ct_old').execute()).toEqual([]);
  });

  it('knows which buyers a lead was offered to (pinged, posted or delivered), not those merely considered', async () => {
    const at = new Date().toISOString();
    const [offered, other] = [await storeSaleLead(db(), Buffer.from(KEY, 'hex')), await storeSaleLead(db(), Buffer.from(KEY, 'hex'))];
    await addEvent(db(), { lead_id: offered, at, buyer_id: 'pinged', step: 'ping', outcome: 'bid' });
    await addEvent(db(), { lead_id: offered, at, buyer_id: 'delivered', step: 'deliver', outcome: 'queued' });
    await addEvent(db(), { lead_id: offered, at, buyer_id: 'skipped', step: 'eligibility', outcome: 'skipped' });
    expect(await offeredTo(db(), offered, 'pinged')).toBe(true);
    expect(await offeredTo(db(), offered, 'delivered')).toBe(true);
    expect(await offeredTo(db(), offered, 'skipped')).toBe(false);
    expect(await offeredTo(db(), other, 'pinged')).toBe(false);
  });
});
