/**
 * A ping or post whose answer we never recorded because our own sale stopped — settled
 * `interrupted` by the run that took the sale up, or still `sending` on a sale whose lease ran out —
 * is not the buyer's doing. The buyers list, the buyer's page, the acceptance alert and the
 * overview's cut by buyer give a buyer with N bids and M such pings the rates of one with N bids
 * and none, and show those calls apart as "interrupted (ours)"; a call still out on a sale being
 * sold counts in neither. The sales are claimed, taken over and settled by the store's own
 * functions; both stores.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import BuyersPage from '../../pages/_console/buyers';
import { addAlertRule, evaluateAlerts, openAlerts } from '../../engine/console/alerts';
import { buyerDetail } from '../../engine/console/buyerDetail';
import { ALERT_AFTER, buyersOverview } from '../../engine/console/buyerQueries';
import { leadCuts } from '../../engine/console/cutsQuery';
import { insertLead } from '../../engine/store/leads';
import { addEvent, addEvents, claimSale, ensureSale, settleInterruptedPings, type NewEvent } from '../../engine/store/sales';
import { moneyCells } from '../../engine/traffic/moneyQuery';
import { converter } from '../../engine/traffic/currency';
import { bothStores, migratedStore } from '../support/bothStores';
import { leadRow } from '../support/leadRow';

const stores = bothStores('loansites-buyer-interrupted-');
const NOW = new Date('2026-11-10T15:00:00.000Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const LEASE_MS = 90_000;
const DAY = { from: ago(24 * 60).toISOString(), to: NOW.toISOString() };

describe.each(stores.kinds('interrupted.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);
  const newLead = async () => (await insertLead(db(), leadRow({ created_at: ago(60).toISOString() }), [])).id;
  const ping = (lead_id: string, buyer_id: string, outcome: 'bid' | 'no-bid', minutesAgo: number): NewEvent => ({
    lead_id,
    buyer_id,
    step: 'ping',
    outcome,
    latency_ms: 80,
    at: ago(minutesAgo).toISOString(),
    detail: outcome === 'bid' ? 'pg_1' : 'no bid',
  });
  const post = (lead_id: string, buyer_id: string, outcome: 'accepted' | 'refused', minutesAgo: number): NewEvent => ({
    lead_id,
    buyer_id,
    step: 'post',
    outcome,
    latency_ms: 90,
    at: ago(minutesAgo).toISOString(),
    detail: outcome === 'accepted' ? 'https://buyer.example/r' : 'refused: duplicate',
  });

  /** Three bids and a no-bid, each on its own lead; an accepted post and a refused one. */
  const answers = async (buyer: string) => {
    const leads = [await newLead(), await newLead(), await newLead(), await newLead()];
    await addEvents(db(), [
      ping(leads[0]!, buyer, 'bid', 50),
      ping(leads[1]!, buyer, 'bid', 49),
      ping(leads[2]!, buyer, 'bid', 48),
      ping(leads[3]!, buyer, 'no-bid', 47),
      post(leads[0]!, buyer, 'accepted', 46),
      post(leads[1]!, buyer, 'refused', 45),
    ]);
  };

  /** A ping a sale's first run left out when it died, settled `interrupted` by the run that took the sale up. */
  const interruptedPing = async (buyer: string, minutesAgo: number) => {
    const lead = await newLead();
    await ensureSale(db(), lead, ago(minutesAgo + 1));
    expect(await claimSale(db(), lead, 'w1', ago(minutesAgo), LEASE_MS)).toBeDefined();
    await addEvent(db(), { lead_id: lead, buyer_id: buyer, step: 'ping', outcome: 'sending', at: ago(minutesAgo).toISOString(), detail: 'pg_out' });
    // the first run's lease ran out; a second run takes the sale up and settles the ping
    expect(await claimSale(db(), lead, 'w2', ago(minutesAgo - 3), LEASE_MS)).toBeDefined();
    expect(await settleInterruptedPings(db(), lead, { worker: 'w2', runs: 2 })).toBe(true);
  };

  /** A call still `sending` on a sale claimed `minutesAgo` for LEASE_MS: lapsed at NOW when claimed over 1.5 min ago. */
  const callOut = async (buyer: string, step: 'ping' | 'post', minutesAgo: number) => {
    const lead = await newLead();
    await ensureSale(db(), lead, ago(minutesAgo + 1));
    expect(await claimSale(db(), lead, 'w1', ago(minutesAgo), LEASE_MS)).toBeDefined();
    await addEvent(db(), { lead_id: lead, buyer_id: buyer, step, outcome: 'sending', at: ago(minutesAgo).toISOString(), detail: 'pg_out' });
  };

  it('a buyer with interrupted pings and calls left out by a dead sale has the rates of one without them, and the list and its page count them apart', async () => {
    await answers('steady');
    await answers('cut');
    await interruptedPing('cut', 40);
    await interruptedPing('cut', 39);
    await callOut('cut', 'ping', 30); // its sale's lease ran out at NOW - 28.5 min
    await callOut('cut', 'post', 29);
    await callOut('cut', 'ping', 0.5); // its sale is being sold now: still out, counted in no rate and not as interrupted

    const rows = await buyersOverview(db(), DAY.from, DAY.to, new Map(), converter('USD', new Map()), NOW);
    const steady = rows.find((r) => r.buyer === 'steady')!;
    const cut = rows.find((r) => r.buyer === 'cut')!;
    expect(steady).toMatchObject({ pings: 4, bids: 3, bidRate: 0.75, posts: 2, accepted: 1, acceptRate: 0.5, interrupted: 0 });
    expect(cut).toMatchObject({ pings: 8, bids: 3, bidRate: 0.75, posts: 3, accepted: 1, acceptRate: 0.5, interrupted: 4, lastError: '' });

    // read once the live sale's lease too has run out, its ping counts as interrupted as well
    const later = await buyersOverview(db(), DAY.from, DAY.to, new Map(), converter('USD', new Map()), new Date(NOW.getTime() + LEASE_MS));
    expect(later.find((r) => r.buyer === 'cut')).toMatchObject({ bidRate: 0.75, interrupted: 5 });

    const html = renderToStaticMarkup(
      createElement(BuyersPage, {
        viewer: { email: 'ops@example.com', role: 'admin', csrf: 'c', may: [] },
        from: '2026-11-09',
        to: '2026-11-10',
        zone: 'UTC',
        problem: '',
        rows,
        buyers: [],
        currency: 'USD',
        currencies: [],
      }),
    );
    const cells = (buyer: string) =>
      [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)]
        .map((m) => [...m[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((c) => c[1]!.replace(/<[^>]*>/g, '')))
        .find((r) => r[0] === buyer)!;
    const head = [...html.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, ''));
    const column = (name: string) => head.indexOf(name);
    expect(column('Interrupted (ours)')).toBeGreaterThan(0);
    expect(cells('cut')[column('Interrupted (ours)')]).toBe('4');
    expect(cells('cut')[column('Bid rate')]).toBe(cells('steady')[column('Bid rate')]);
    expect(cells('cut')[column('Accept rate')]).toBe(cells('steady')[column('Accept rate')]);

    const [steadyPage, cutPage] = [await buyerDetail(db(), 'steady', NOW), await buyerDetail(db(), 'cut', NOW)];
    expect(steadyPage).toMatchObject({ posts: 2, accepted: 1, acceptRate: 0.5, interrupted: 0 });
    expect(cutPage).toMatchObject({ posts: 2, accepted: 1, acceptRate: 0.5, interrupted: 4 });
  });

  it('the acceptance alert and the cut by buyer read the offers a buyer answered, not those our stopped sales left unanswered', async () => {
    await answers('alert-steady');
    await answers('alert-cut');
    await interruptedPing('alert-cut', 40);
    await interruptedPing('alert-cut', 39);
    await callOut('alert-cut', 'ping', 30);
    await callOut('alert-cut', 'ping', 0.5);
    // 3 of 4 leads accepted: 75 %, over a 50 % rule; counting the 4 unanswered offers, 3 of 8 would be under it
    for (const subject of ['alert-steady', 'alert-cut'])
      await addAlertRule(db(), { kind: 'acceptance', subject, threshold: 50, windowHours: 24 }, 'ops@example.com');
    await evaluateAlerts(db(), [], NOW);
    expect((await openAlerts(db())).filter((a) => a.subject.startsWith('alert-'))).toEqual([]);

    const cuts = await leadCuts(db(), DAY, await moneyCells(db(), DAY));
    const byBuyer = (key: string) => cuts.buyer.find((r) => r.key === key)!;
    expect(byBuyer('alert-cut')).toMatchObject({ leads: 4, rejected: 1, acceptance: 0.75 });
    expect(byBuyer('alert-cut').acceptance).toBe(byBuyer('alert-steady').acceptance);
  });

  it('alerts on a buyer whose last calls it answered were all no-bids, an interrupted ping after them notwithstanding', async () => {
    const leads = await Promise.all(Array.from({ length: ALERT_AFTER }, () => newLead()));
    await addEvents(
      db(),
      leads.map((lead, i) => ping(lead, 'never-bids', 'no-bid', 30 - i)),
    );
    await interruptedPing('never-bids', 10);
    const rows = await buyersOverview(db(), DAY.from, DAY.to, new Map(), converter('USD', new Map()), NOW);
    expect(rows.find((r) => r.buyer === 'never-bids')).toMatchObject({ pings: ALERT_AFTER + 1, bidRate: 0, interrupted: 1, alert: true });
  });
});
