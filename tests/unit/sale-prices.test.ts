/**
 * Prices are US dollars in whole cents, and the price recorded for a sale is exactly the one the
 * buyer named and was posted: a bid finer than a cent is no bid, and a direct-post accept at such
 * a price is a refusal, so the operator's figure and the lender's never differ by a rounding.
 * Whole-cent prices that a float division gets wrong (9.94 / 0.01 is not 994 in floating point)
 * are taken as they are. Real stand-in buyers on loopback, SQLite.
 */
import { expect, it } from 'vitest';
import { runSale } from '../../engine/sale/runner';
import { saleOf, timelineOf } from '../../engine/store/sales';
import { buyerDocuments, sqliteSale } from '../support/saleKit';

const SECRET = 'stand-in-buyer-secret-04';
const { db, buyer, deps, storeLead } = sqliteSale('prices', SECRET, 'e'.repeat(64), 5);
const documents = buyerDocuments;

it('a bid finer than a cent is no bid; the next bid is posted and recorded at exactly its price', async () => {
  const fine = await buyer('fine-bid', { ping: { bid: 10.005 } });
  const whole = await buyer('whole-bid', { ping: { bid: 9.94 } });
  const buyers = documents(fine.document(), whole.document());
  const leadId = await storeLead();

  const result = await runSale(db(), leadId, deps(buyers));

  expect(result).toMatchObject({ status: 'sold', buyerId: whole.id, priceCents: 994 });
  expect(await saleOf(db(), leadId)).toMatchObject({ status: 'sold', buyer_id: whole.id, price_cents: 994 });
  expect(fine.posts).toHaveLength(0);
  expect(whole.posts.map((p) => p.body.price)).toEqual([9.94]); // the lender's figure
  const timeline = await timelineOf(db(), leadId);
  expect(timeline.find((e) => e.buyer_id === fine.id && e.step === 'ping')).toMatchObject({ outcome: 'no-bid', detail: 'price 10.005 is finer than a cent' });
  expect(timeline.find((e) => e.buyer_id === whole.id && e.step === 'post')).toMatchObject({ outcome: 'accepted', price_cents: 994 });
}, 30_000);

it('a direct-post accept at a price finer than a cent is a refusal, asked once; the next buyer buys at exactly the price it answered', async () => {
  const fine = await buyer('fine-answer', {
    mode: 'direct-post',
    post: { answer: { accepted: true, price: 12.345, redirectUrl: 'https://fine-answer.lender.example/x' } },
  });
  const whole = await buyer('whole-answer', {
    mode: 'direct-post',
    post: { answer: { accepted: true, price: 10.02, redirectUrl: 'https://whole-answer.lender.example/x' } },
  });
  const buyers = documents(fine.document(), whole.document({ tier: 2 }));
  const leadId = await storeLead();

  const result = await runSale(db(), leadId, deps(buyers));

  expect(result).toMatchObject({ status: 'sold', buyerId: whole.id, priceCents: 1002 });
  expect(await saleOf(db(), leadId)).toMatchObject({ status: 'sold', buyer_id: whole.id, price_cents: 1002 });
  expect(fine.posts).toHaveLength(1);
  expect((await timelineOf(db(), leadId)).filter((e) => e.step === 'post').map((e) => `${e.buyer_id} ${e.outcome} ${e.price_cents}: ${e.detail}`)).toEqual([
    `${fine.id} refused null: accept not taken: price 12.345 is finer than a cent`,
    `${whole.id} accepted 1002: https://whole-answer.lender.example/x`,
  ]);
}, 30_000);

it("a buyer's fixed price is posted as the sale records it, to the cent", async () => {
  const fixed = await buyer('fixed-price', { ping: { bid: 10 } });
  // A buyer document refuses such a price (tests/unit/buyer-documents.test.ts); one that came by
  // another way is still posted at the price recorded.
  const buyers = documents(fixed.document()).map((b) => ({ ...b, price: { fixed: 10.005 } }));
  const leadId = await storeLead();

  const result = await runSale(db(), leadId, deps(buyers));

  expect(result).toMatchObject({ status: 'sold', buyerId: fixed.id, priceCents: 1001 });
  expect(fixed.posts.map((p) => p.body.price)).toEqual([10.01]);
}, 30_000);
