/**
 * The console's "last errors" of a buyer (its page) and "Last error" (the buyers list) show the
 * calls that failed — no answer in time, a status other than 200, a body we could not read, a
 * broken connection, an accept the sale could not take — and never the buyer's own decisions (a plain "no bid", a refusal), which
 * an operator would otherwise chase as faults. Answers are read by the sale's own readers and
 * recorded as the sale records them; both stores.
 */
import { describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { buyerDetail } from '../../engine/console/buyerDetail';
import { buyersOverview } from '../../engine/console/buyerQueries';
import type { RawAnswer } from '../../engine/sale/answers';
import { insertLead } from '../../engine/store/leads';
import { addEvents } from '../../engine/store/sales';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';
import { recordedCalls } from '../support/recordedCalls';

const stores = bothStores('loansites-buyer-errors-');
const NOW = new Date('2026-11-10T15:00:00.000Z');
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();
const acme = { id: 'acme', redirectHosts: ['acme.example'] } as unknown as Buyer;

describe.each(stores.kinds('errors.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('lists failed calls only, newest first, and the list names the newest failure even when decisions came after it', async () => {
    const lead = await insertLead(db(), leadRow({ created_at: at(60) }), []);
    const calls = recordedCalls(lead.id, acme);
    const ping = (raw: RawAnswer, minutesAgo: number) => calls.ping(raw, at(minutesAgo));
    const post = (raw: RawAnswer, minutesAgo: number) => calls.post(raw, at(minutesAgo));
    await addEvents(db(), [
      ping({ error: 'no answer within 1000 ms' }, 50),
      ping({ status: 503, text: '' }, 40),
      post({ error: 'socket hang up' }, 30),
      // the buyer's decisions, all newer than every failure
      ping({ status: 200, text: '{"bid":false}' }, 20),
      ping({ status: 200, text: '{"bid":false,"reason":"not in our area"}' }, 15),
      ping({ status: 200, text: '{"bid":true,"price":12}' }, 12),
      post({ status: 200, text: '{"accepted":false,"reason":"duplicate"}' }, 10),
      post({ status: 200, text: '{"accepted":false}' }, 5),
    ]);
    const detail = await buyerDetail(db(), 'acme', NOW);
    expect(detail.errors.map((e) => [e.step, e.outcome])).toEqual([
      ['post', 'unconfirmed'],
      ['ping', 'no-bid'],
      ['ping', 'no-bid'],
    ]);
    expect(detail.errors.map((e) => e.detail)).not.toContainEqual(expect.stringMatching(/^(no bid|refused)/));
    expect(detail.errors[2]!.detail).toBe('no answer within 1000 ms');
    const [row] = await buyersOverview(db(), at(24 * 60), NOW.toISOString());
    expect(row).toMatchObject({ buyer: 'acme', lastError: detail.errors[0]!.detail });
    expect(row!.lastError).not.toBe('');
  });

  it('lists an accept the sale could not take, even one under the floor: the buyer was not told and may think it bought the lead', async () => {
    const lead = await insertLead(db(), leadRow({ created_at: at(60) }), []);
    const strict = { id: 'strict', redirectHosts: ['strict.example'], price: { floor: 20 } } as unknown as Buyer;
    const calls = recordedCalls(lead.id, strict);
    await addEvents(db(), [
      calls.post({ status: 200, text: '{"accepted":false,"reason":"duplicate"}' }, at(20)),
      calls.post({ status: 200, text: '{"accepted":true,"redirectUrl":"https://strict.example/x"}' }, at(10)),
    ]);
    const detail = await buyerDetail(db(), 'strict', NOW);
    expect(detail.errors.map((e) => e.detail)).toEqual(['accept not taken: price 10 under the floor 20']);
    const rows = await buyersOverview(db(), at(24 * 60), NOW.toISOString());
    expect(rows.find((r) => r.buyer === 'strict')?.lastError).toBe('accept not taken: price 10 under the floor 20');
  });
});
