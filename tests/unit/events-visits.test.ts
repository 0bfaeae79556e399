/**
 * POST /api/events cannot be used to write a campaign's funnel (the route's own code on a Node
 * server over a temp SQLite file): the probe — batches of 50 "submitted" for one visit — moves
 * its campaign by at most one visit and one submitted, and past the visit's cap is refused with
 * 429; a visit id the server did not issue, or one issued for another brand, is refused with 403
 * and a reason, and stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../engine/store/db';
import { refusedEvents } from '../../engine/traffic/refusedQuery';
import { issueVisitId } from '../../engine/traffic/visitId';
import { sharedTrafficWriter } from '../../engine/traffic/writer';
import { campaignCounts } from '../support/campaignCounts';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer({ RATE_LIMIT_EVENTS: '1000', EVENTS_BUDGET_PER_MINUTE: '100000', EVENTS_PER_VISIT_MAX: '300' }, '/api/events');
  db = openStore({ url: '', file: server.dbFile });
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

const send = (body: unknown, ip = '203.0.113.9') => post(server.port, JSON.stringify(body), { path: '/api/events', ip });
const submitted = (n: number) => Array.from({ length: n }, () => ({ type: 'submitted', path: '/apply' }));

/** The campaign's funnel as the overview's daily rollups count it, once the writer has written. */
async function campaignFunnel(campaign: string): Promise<Record<string, number>> {
  await sharedTrafficWriter().flush();
  return campaignCounts(db, campaign);
}

describe('the probe', () => {
  it('20 batches of 50 “submitted” for one visit move its campaign by one visit and one submitted; past the visit’s cap they are refused with 429', async () => {
    const first = await send({ landing: { path: '/apply', params: { source1: 'probe' } }, events: submitted(50) });
    expect(first.status).toBe(202);
    const visitId = String(first.json.visitId);
    const statuses = [first.status];
    for (let i = 1; i < 20; i++) statuses.push((await send({ visitId, events: submitted(50) })).status);
    expect(await campaignFunnel('probe')).toEqual({ visit: 1, submitted: 1 });
    // 300 events a visit: the first six batches are taken (stored as repeats), the rest refused
    expect(statuses.slice(0, 6).every((s) => s === 202)).toBe(true);
    expect(statuses.slice(7).every((s) => s === 429)).toBe(true);
    const refused = await send({ visitId, events: submitted(1) });
    expect(refused.json.error).toMatch(/visit has sent too many events/);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // an abusive visit's refusals do not make the overview call its counts a sample
    await sharedTrafficWriter().flush();
    const from = new Date(Date.now() - 3600_000).toISOString();
    expect(await refusedEvents(db, { from, to: new Date(Date.now() + 3600_000).toISOString() })).toBe(0);
  });

  it('a new visit per batch still counts one visit and one submitted per visit, never more', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await send({ landing: { path: '/apply', params: { source1: 'probe-many' } }, events: submitted(50) }, `198.51.100.${i + 1}`);
      expect(res.status).toBe(202);
    }
    expect(await campaignFunnel('probe-many')).toEqual({ visit: 5, submitted: 5 });
  });
});

describe('visit ids the server did not issue', () => {
  it('are refused with 403 and a reason — made up, or another brand’s — and nothing is counted', async () => {
    const forged = [`v${'a'.repeat(32)}`, issueVisitId('ustitleloans')];
    for (const visitId of forged) {
      const res = await send({ visitId, landing: { path: '/apply', params: { source1: 'forged' } }, events: submitted(5) });
      expect(res.status).toBe(403);
      expect(res.json.error).toMatch(/not issued by this site for this brand/);
    }
    await sharedTrafficWriter().flush();
    expect(await campaignFunnel('forged')).toEqual({});
    expect(await db.selectFrom('traffic_events').select('id').where('visit_id', 'in', forged).execute()).toEqual([]);
  });

  it('an id issued for the brand is taken', async () => {
    const res = await send({ visitId: issueVisitId('ipaydayloans'), events: submitted(1) });
    expect(res.status).toBe(202);
  });
});
