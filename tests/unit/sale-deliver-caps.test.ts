/**
 * A deliver buyer's caps, on SQLite and PostgreSQL: it buys nothing, so its caps count the leads
 * queued to it (each lead once), on its calendar day in its schedule's time zone, and across
 * instances exactly — the place is taken in the transaction that queues the lead. A lead over
 * the cap is not queued to it, and its timeline says which cap was reached.
 */
import { describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { capsUsed } from '../../engine/console/buyerCaps';
import { buildBuyerCatalog } from '../../engine/sale/buyers';
import { deliverDestination, runSale, type SaleDeps } from '../../engine/sale/runner';
import { timelineOf } from '../../engine/store/sales';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { bothStores, migratedStore } from '../support/bothStores';
import { storeSaleLead } from '../support/saleLead';

const KEY = 'd'.repeat(64);
const SECRET = 'deliver-caps-secret-0001';
process.env.LEADS_ENCRYPTION_KEY = KEY;
const key = Buffer.from(KEY, 'hex');
const stores = bothStores('loansites-deliver-caps-');

function deliverBuyer(id: string, more: Record<string, unknown>): Buyer {
  const doc = {
    $schema: 'x',
    id,
    displayName: id,
    mode: 'deliver',
    endpoints: { deliver: `https://${id}.partner.example/leads` },
    secretEnv: 'BUYER_CAPS_SECRET',
    ...more,
  };
  const c = buildBuyerCatalog([{ file: `buyers/${id}.json`, text: JSON.stringify(doc) }]);
  expect(c.problems).toEqual([]);
  return c.buyers.get(id)!.buyer;
}
const deps = (buyers: Buyer[], worker = 'w', now?: Date): SaleDeps => ({
  buyers,
  secretOf: () => SECRET,
  contactKey: Buffer.alloc(32, 4),
  worker,
  ...(now ? { now: () => now } : {}),
});
const queuedTo = async (db: Store, buyer: string, leads: readonly string[]) =>
  (await db.selectFrom('lead_deliveries').select('lead_id').where('destination', '=', deliverDestination(buyer)).where('lead_id', 'in', leads).execute()).map(
    (r) => r.lead_id,
  );
const capSkips = async (db: Store, lead: string, buyer: string) =>
  (await timelineOf(db, lead)).filter((e) => e.buyer_id === buyer && e.step === 'eligibility' && e.outcome === 'skipped').map((e) => e.detail);

describe.each(stores.kinds('deliver-caps.sqlite'))('a deliver buyer’s caps on %s', (kind, options) => {
  const db = migratedStore(options);

  it('a deliver buyer capped at 2 a day gets 2 of 5 unsold leads; the other 3 say its daily cap was reached', async () => {
    const partner = deliverBuyer(`daily-${kind.length}`, { caps: { perDay: 2 } });
    const leads: string[] = [];
    for (let i = 0; i < 5; i++) {
      const lead = await storeSaleLead(db(), key);
      leads.push(lead);
      expect(await runSale(db(), lead, deps([partner]))).toMatchObject({ status: 'unsold' });
    }
    expect(await queuedTo(db(), partner.id, leads)).toEqual(expect.arrayContaining(leads.slice(0, 2)));
    expect(await queuedTo(db(), partner.id, leads)).toHaveLength(2);
    for (const lead of leads.slice(2)) {
      expect(await capSkips(db(), lead, partner.id)).toEqual(['daily cap 2 reached (2 queued)']);
      expect((await timelineOf(db(), lead)).some((e) => e.buyer_id === partner.id && e.step === 'deliver')).toBe(false);
    }
    // the buyers page shows what the cap counts
    expect(await capsUsed(db(), partner, new Date())).toBe('2 of 2 today');
  });

  it('a monthly cap counts the queued leads of the month', async () => {
    const partner = deliverBuyer(`monthly-${kind.length}`, { caps: { perMonth: 1 } });
    const [first, second] = [await storeSaleLead(db(), key), await storeSaleLead(db(), key)];
    await runSale(db(), first, deps([partner]));
    await runSale(db(), second, deps([partner]));
    expect(await queuedTo(db(), partner.id, [first, second])).toEqual([first]);
    expect(await capSkips(db(), second, partner.id)).toEqual(['monthly cap 1 reached (1 queued)']);
  });

  it('the day is the buyer’s calendar day in its schedule’s time zone', async () => {
    // UTC+14: 09:00 UTC is 23:00 on the 29th there, 11:00 and 12:00 UTC are the 30th.
    const partner = deliverBuyer(`zoned-${kind.length}`, { caps: { perDay: 1 }, schedule: { timeZone: 'Pacific/Kiritimati' } });
    const leads = [await storeSaleLead(db(), key), await storeSaleLead(db(), key), await storeSaleLead(db(), key)];
    const at = ['2026-11-29T09:00:00Z', '2026-11-29T11:00:00Z', '2026-11-29T12:00:00Z'];
    for (const [i, lead] of leads.entries()) await runSale(db(), lead, deps([partner], 'w', new Date(at[i]!)));
    expect((await queuedTo(db(), partner.id, leads)).sort()).toEqual(leads.slice(0, 2).sort());
    expect(await capSkips(db(), leads[2]!, partner.id)).toEqual(['daily cap 1 reached (1 queued)']);
  });

  it('two sales at once on two instances for the last place: exactly one gets it', async () => {
    // Two instances: two connection pools on one PostgreSQL; on SQLite (one server) two workers share the file.
    const other = kind === 'PostgreSQL' ? openStore(options()) : db();
    try {
      if (other !== db()) await migrateStore(other);
      for (let round = 0; round < 5; round++) {
        const partner = deliverBuyer(`race-${kind.length}-${round}`, { caps: { perDay: 2 } });
        const taken = await storeSaleLead(db(), key);
        await runSale(db(), taken, deps([partner]));
        const [a, b] = [await storeSaleLead(db(), key), await storeSaleLead(db(), key)];
        await Promise.all([runSale(db(), a, deps([partner], 'instance-a')), runSale(other, b, deps([partner], 'instance-b'))]);
        const last = await queuedTo(db(), partner.id, [a, b]);
        expect(last).toHaveLength(1);
        const loser = last[0] === a ? b : a;
        expect(await capSkips(db(), loser, partner.id)).toEqual(['daily cap 2 reached (2 queued)']);
      }
    } finally {
      if (other !== db()) await other.destroy();
    }
  });
});
