/**
 * A row the store cannot hold (a NUL, which PostgreSQL refuses in text) reaching the traffic
 * writer loses its own visit's events, not the whole batch's: the batch is split by visit until
 * each refused visit is alone. A store that is failing outright is not tried visit by visit.
 */
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../engine/store/db';
import type { TrafficBatch } from '../../engine/store/traffic';
import { halvesByVisit, SPLIT_ATTEMPTS_MAX, trafficWriter } from '../../engine/traffic/writer';
import { bothStores, migratedStore } from '../support/bothStores';

const stores = bothStores('loansites-writer-refused-');

let n = 0;
const visitId = () => `v${(++n).toString(16).padStart(32, '0')}`;
const views = (ids: string[], path = (_: number) => '/'): TrafficBatch => ({
  visits: [],
  events: ids.flatMap((id, i) =>
    [0, 1].map(() => ({
      visitId: id,
      metric: 'page_view',
      path: path(i),
      state: '',
      value: 0,
      brand: 'ipaydayloans',
      device: 'mobile',
      createdAt: new Date().toISOString(),
    })),
  ),
});

it("splits a batch by visit, each visit's rows together and in order", () => {
  const ids = [visitId(), visitId(), visitId()];
  const [a, b] = halvesByVisit(views(ids))!;
  expect(a.events.map((e) => e.visitId)).toEqual([ids[0], ids[0], ids[1], ids[1]]);
  expect(b.events.map((e) => e.visitId)).toEqual([ids[2], ids[2]]);
  expect(halvesByVisit(views([ids[0]!]))).toBeUndefined();
});

describe.each(stores.kinds('writer-refused.sqlite').filter(([kind]) => kind === 'PostgreSQL'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it("a NUL in one visit's event loses that visit's two events, not the other fifteen visits'", async () => {
    const ids = Array.from({ length: 16 }, visitId);
    const errors: unknown[] = [];
    const logged = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const w = trafficWriter(async () => db(), { flushMs: 60_000 });
      w.add(views(ids, (i) => (i === 11 ? '/payday-loans\u0000' : '/payday-loans')));
      await w.flush();
      expect(w.stats()).toMatchObject({ written: 30, failed: 2 });
    } finally {
      console.error = logged;
    }
    const stored = await db().selectFrom('traffic_events').select('visit_id').where('visit_id', 'in', ids).execute();
    expect(new Set(stored.map((r) => r.visit_id))).toEqual(new Set(ids.filter((_, i) => i !== 11)));
    expect(stored).toHaveLength(30);
    // one line for what was lost
    expect(errors).toHaveLength(1);
  });

  it('three visits the store refuses, spread through a batch, lose only their own events, each logged by visit', async () => {
    const ids = Array.from({ length: 40 }, visitId);
    // in both halves of the batch and twice in one quarter, so no single split isolates them
    const bad = new Set([3, 17, 30]);
    const errors: unknown[][] = [];
    const logged = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const w = trafficWriter(async () => db(), { flushMs: 60_000 });
      w.add(views(ids, (i) => (bad.has(i) ? '/payday-loans\u0000' : '/payday-loans')));
      await w.flush();
      expect(w.stats()).toMatchObject({ written: 74, failed: 6 });
    } finally {
      console.error = logged;
    }
    const stored = await db().selectFrom('traffic_events').select('visit_id').where('visit_id', 'in', ids).execute();
    expect(new Set(stored.map((r) => r.visit_id))).toEqual(new Set(ids.filter((_, i) => !bad.has(i))));
    expect(stored).toHaveLength(74);
    // one line per lost visit, naming it
    expect(errors).toHaveLength(3);
    for (const i of bad) expect(errors.some((line) => line.some((part) => String(part).includes(ids[i]!)))).toBe(true);
  });

  it('visits whose campaigns the store takes for one (a lone surrogate becomes U+FFFD) in both halves are all stored, each apart', async () => {
    // two such pairs in each half: PostgreSQL refuses to update one rollup row twice in one statement
    const ids = Array.from({ length: 16 }, visitId);
    const campaign = (i: number) => ({ 2: 'c\ud800', 3: 'c\ufffd', 12: 'c\udfff', 13: 'c\ufffd' })[i] ?? 'c';
    const now = new Date().toISOString();
    const batch: TrafficBatch = {
      ...views(ids),
      visits: ids.map((id, i) => ({
        id,
        brand: 'ipaydayloans',
        host: 'www.ipaydayloans.com',
        landing_path: '/',
        referrer_host: '',
        source1: campaign(i),
        source2: '',
        utm: '{}',
        gclid: '',
        ttclid: '',
        fbclid: '',
        msclkid: '',
        campaign: campaign(i),
        source: '',
        device: 'mobile',
        opted_out: 0,
        created_at: now,
      })),
    };
    const w = trafficWriter(async () => db(), { flushMs: 60_000 });
    w.add(batch);
    await w.flush();
    expect(w.stats()).toMatchObject({ written: 32, failed: 0 });
    const stored = await db().selectFrom('traffic_visits').select('id').where('id', 'in', ids).execute();
    expect(stored).toHaveLength(16);
  });

  it('a batch whose every visit is refused is split a bounded number of times, not down to each visit', async () => {
    const ids = Array.from({ length: 1000 }, visitId);
    const errors: unknown[] = [];
    const logged = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const w = trafficWriter(async () => db(), { flushMs: 60_000 });
      w.add(views(ids, () => '/payday-loans\u0000'));
      await w.flush();
      expect(w.stats()).toMatchObject({ written: 0, failed: 2000 });
    } finally {
      console.error = logged;
    }
    // each line is one part given up: at most one per two attempts
    expect(errors.length).toBeLessThanOrEqual(SPLIT_ATTEMPTS_MAX / 2 + 1);
  });

  it('a store that cannot be reached is not tried visit by visit: the batch, then its two halves', async () => {
    // a stand-in for a PostgreSQL that is away: it takes each connection and closes it at once
    let connections = 0;
    const away = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => away.listen(0, '127.0.0.1', done));
    const { port } = away.address() as AddressInfo;
    const unreachable = openStore({ url: `postgres://loansites:x@127.0.0.1:${port}/loansites` });
    const logged = console.error;
    console.error = () => undefined;
    try {
      // what one attempt costs: a batch of one visit cannot be split
      const once = trafficWriter(async () => unreachable, { flushMs: 60_000 });
      once.add(views([visitId()]));
      await once.flush();
      const perAttempt = connections;
      expect(perAttempt).toBeGreaterThan(0);
      connections = 0;
      const w = trafficWriter(async () => unreachable, { flushMs: 60_000 });
      w.add(views(Array.from({ length: 64 }, visitId)));
      await w.flush();
      expect(w.stats()).toMatchObject({ written: 0, failed: 128 });
      expect(connections).toBe(3 * perAttempt);
    } finally {
      console.error = logged;
      await unreachable.destroy();
      away.close();
    }
  });
});
