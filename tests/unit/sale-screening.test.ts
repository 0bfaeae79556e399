/**
 * Screening in the sale, against stand-in buyers on SQLite: a buyer asking a minimum quality
 * score is not offered a lead under it (the timeline says why), a ping carries the score band and
 * reason codes, a lead the brand holds or refuses reaches no buyer, one the brand offers only to
 * buyers that take low-quality leads reaches only those, and a duplicate is reported with
 * screening's codes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSale } from '../../engine/sale/runner';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { saveScreening, screeningOf } from '../../engine/store/screening';
import { ADOPT_AFTER_MS, adoptLeadsWithoutSale, ensureSale, saleOf, timelineOf } from '../../engine/store/sales';
import { storeSaleLead } from '../support/saleLead';
import { buyerDocuments, saleDeps, standIns } from '../support/saleKit';

const KEY = 'e'.repeat(64);
const SECRET = 'stand-in-buyer-secret-02';
process.env.LEADS_ENCRYPTION_KEY = KEY;
const dir = mkdtempSync(join(tmpdir(), 'loansites-sale-screening-'));
const stands = standIns(SECRET);
let db: Store;

beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'sale.sqlite') });
  await migrateStore(db);
}, 60_000);
afterAll(async () => {
  await stands.closeAll();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function screenedLead(score: number, routing: string, codes: string[], over: { phone?: string; email?: string } = {}) {
  const id = await storeSaleLead(db, Buffer.from(KEY, 'hex'), over);
  if (score >= 0) {
    const band = score >= 80 ? 'high' : score >= 50 ? 'medium' : 'low';
    await saveScreening(db, {
      lead_id: id,
      created_at: new Date().toISOString(),
      score,
      band,
      codes: codes.join(','),
      routing,
      phone_key: '',
      email_key: '',
      ip_key: '',
      device_key: `d${++n}`,
    });
  }
  return id;
}
const deps = (...docs: Record<string, unknown>[]) => saleDeps(SECRET, Buffer.alloc(32, 2), buyerDocuments(...docs));
const skipped = async (leadId: string, buyerId: string) =>
  (await timelineOf(db, leadId)).find((e) => e.buyer_id === buyerId && e.step === 'eligibility')?.detail;

describe('screening in the sale', () => {
  it('a buyer with a minimum score is not offered a low-scoring lead; another is pinged with the band and codes only', async () => {
    const picky = await stands.start('picky', { ping: { bid: 40 } });
    const open = await stands.start('open', { ping: { bid: 10 } });
    const leadId = await screenedLead(20, 'offer', ['bot-fast', 'bot-no-input-events', 'bot-paste-all', 'bot-webdriver']);
    const result = await runSale(db, leadId, deps(picky.document({ minQualityScore: 60 }), open.document()));
    expect(result).toMatchObject({ status: 'sold', buyerId: 'open' });
    expect(picky.pings).toHaveLength(0);
    expect(await skipped(leadId, 'picky')).toBe('quality score 20 under its minimum 60');
    expect(open.pings[0]).toMatchObject({ qualityBand: 'low', reasonCodes: ['bot-fast', 'bot-no-input-events', 'bot-paste-all', 'bot-webdriver'] });
  });

  it('a high-scoring lead reaches the buyer with a minimum', async () => {
    const picky = await stands.start('picky-2', { ping: { bid: 40 } });
    const leadId = await screenedLead(95, 'offer', ['bot-webdriver']);
    expect(await runSale(db, leadId, deps(picky.document({ minQualityScore: 60 })))).toMatchObject({ status: 'sold', buyerId: 'picky-2' });
    expect(picky.pings[0]).toMatchObject({ qualityBand: 'high', reasonCodes: ['bot-webdriver'] });
  });

  it('an unscreened lead is not offered to a buyer asking a minimum', async () => {
    const picky = await stands.start('picky-3', { ping: { bid: 40 } });
    const leadId = await screenedLead(-1, '', []);
    expect(await runSale(db, leadId, deps(picky.document({ minQualityScore: 1 })))).toMatchObject({ status: 'unsold', reason: 'no eligible buyer' });
    expect(await skipped(leadId, 'picky-3')).toBe('not screened (minimum quality score 1)');
  });

  it.each([
    ['hold', 'held for review by screening (score 30: email-disposable, velocity-1h)'],
    ['refuse', 'refused by screening (score 30: email-disposable, velocity-1h)'],
  ])('a lead the brand chose to %s reaches no buyer, and the sale says why', async (routing, reason) => {
    const any = await stands.start(`any-${routing}`, { ping: { bid: 40 } });
    const leadId = await screenedLead(30, routing, ['email-disposable', 'velocity-1h']);
    expect(await runSale(db, leadId, deps(any.document({ acceptsLowQuality: true })))).toMatchObject({ status: 'unsold', reason });
    expect(any.pings).toHaveLength(0);
    expect(await saleOf(db, leadId)).toMatchObject({ status: 'unsold' });
  });

  it('a lead under the threshold that the brand offers to buyers taking them reaches only those', async () => {
    const takes = await stands.start('takes-low', { ping: { bid: 5 } });
    const usual = await stands.start('usual', { ping: { bid: 50 } });
    const leadId = await screenedLead(30, 'low-quality-buyers', ['email-disposable', 'velocity-1h']);
    expect(await runSale(db, leadId, deps(takes.document({ acceptsLowQuality: true }), usual.document()))).toMatchObject({
      status: 'sold',
      buyerId: 'takes-low',
    });
    expect(await skipped(leadId, 'usual')).toBe("quality score 30 under the brand's threshold");
  });

  it("a duplicate is reported with screening's codes", async () => {
    const phone = '2145550177';
    const first = await screenedLead(100, 'offer', [], { phone });
    const again = await screenedLead(100, 'offer', [], { phone });
    const quiet = await stands.start('quiet', { ping: 'no-bid' });
    await runSale(db, first, deps(quiet.document()));
    await runSale(db, again, deps(quiet.document()));
    expect((await screeningOf(db, first))?.codes).toBe('');
    expect((await screeningOf(db, again))?.codes).toBe('duplicate');
  });
});

describe('the sale sweep and a lead its request is still screening', () => {
  it('leaves a lead stored moments ago to its request, whose sale then holds it as screened; takes up one left without a sale past the minute', async () => {
    const any = await stands.start('any-sweep', { ping: { bid: 40 } });
    const fresh = await storeSaleLead(db, Buffer.from(KEY, 'hex'));
    const abandoned = await storeSaleLead(db, Buffer.from(KEY, 'hex'));
    // stored, and no sale started yet (the kit starts one)
    await db.deleteFrom('lead_sales').where('lead_id', 'in', [fresh, abandoned]).execute();
    const now = new Date();
    await db
      .updateTable('leads')
      .set({ created_at: new Date(now.getTime() - ADOPT_AFTER_MS - 1000).toISOString() })
      .where('id', '=', abandoned)
      .execute();
    // a sweep (here or on another instance) while the request that stored `fresh` is screening it
    expect(await adoptLeadsWithoutSale(db, now)).toBe(1);
    expect(await saleOf(db, fresh)).toBeUndefined();
    expect(await saleOf(db, abandoned)).toMatchObject({ status: 'pending' });
    // the request goes on: screening holds the lead for review, then it starts the sale, which reaches no buyer
    await saveScreening(db, {
      lead_id: fresh,
      created_at: now.toISOString(),
      score: 30,
      band: 'low',
      codes: 'bot-paste-all',
      routing: 'hold',
      phone_key: '',
      email_key: '',
      ip_key: '',
      device_key: 'd-sweep',
    });
    await ensureSale(db, fresh, new Date());
    expect(await runSale(db, fresh, deps(any.document({ acceptsLowQuality: true })))).toMatchObject({
      status: 'unsold',
      reason: 'held for review by screening (score 30: bot-paste-all)',
    });
    expect(any.pings).toHaveLength(0);
  });
});
