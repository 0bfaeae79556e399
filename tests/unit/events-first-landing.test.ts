/**
 * POST /api/events keeps a visit's first landing whatever the timing (the route's own code on a
 * Node server over a temp SQLite file): a later batch of the visit that brings another landing
 * and campaign is taken (202, its events stored) but changes neither — when both batches reach
 * one writer before it saves (the writer here saves only when the test flushes it, as it does
 * for batches within the same second), and when the later batch is saved first (the first
 * batch went to another instance whose writer has not saved yet).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../engine/store/db';
import { sharedTrafficWriter } from '../../engine/traffic/writer';
import { issueVisitId } from '../../engine/traffic/visitId';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { trafficEvent } from '../support/trafficEvent';
import { campaignCounts } from '../support/campaignCounts';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

// Read by the writer when it loads, so set before the imports above are evaluated.
const flushMsBefore = vi.hoisted(() => {
  const before = process.env.EVENTS_FLUSH_MS;
  process.env.EVENTS_FLUSH_MS = String(24 * 3600_000);
  return before;
});

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer({ RATE_LIMIT_EVENTS: '1000' }, '/api/events');
  db = openStore({ url: '', file: server.dbFile });
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
  if (flushMsBefore === undefined) delete process.env.EVENTS_FLUSH_MS;
  else process.env.EVENTS_FLUSH_MS = flushMsBefore;
});

const send = (body: unknown) => post(server.port, JSON.stringify(body), { path: '/api/events' });

describe('a second landing for a visit, sent before the first batch was saved', () => {
  it('is taken with its events, and the visit keeps its first landing and campaign', async () => {
    const first = await send({
      landing: { path: '/payday-loans', params: { source1: 'first-campaign' } },
      events: [{ type: 'page_view', path: '/payday-loans' }],
    });
    expect(first.status).toBe(202);
    const visitId = String(first.json.visitId);
    const second = await send({
      visitId,
      landing: { path: '/other', params: { source1: 'second-campaign' } },
      events: [{ type: 'page_view', path: '/other' }],
    });
    expect(second.status).toBe(202);
    expect(second.json).toEqual({ accepted: 1 });
    // both batches wait for the same write
    expect(sharedTrafficWriter().stats().queued).toBe(2);
    await sharedTrafficWriter().flush();

    const visits = await db.selectFrom('traffic_visits').select(['landing_path', 'source1', 'campaign']).where('id', '=', visitId).execute();
    expect(visits).toEqual([{ landing_path: '/payday-loans', source1: 'first-campaign', campaign: 'first-campaign' }]);
    const events = await db.selectFrom('traffic_events').select(['path', 'campaign', 'landing']).where('visit_id', '=', visitId).orderBy('path').execute();
    expect(events).toEqual([
      { path: '/other', campaign: 'first-campaign', landing: '/payday-loans' },
      { path: '/payday-loans', campaign: 'first-campaign', landing: '/payday-loans' },
    ]);
    expect(await campaignCounts(db, 'first-campaign')).toEqual({ visit: 1, page_view: 2 });
    expect(await campaignCounts(db, 'second-campaign')).toEqual({});
  });
});

describe('a second landing for a visit, saved before its first batch', () => {
  it('is taken with its events; the first batch, saved later by another instance, still gives the visit its landing and campaign', async () => {
    // the id another instance issued in its answer to the visit's first batch
    const visitId = issueVisitId('ipaydayloans');
    const later = await send({
      visitId,
      landing: { path: '/elsewhere', params: { source1: 'later-campaign' } },
      events: [{ type: 'apply_view', path: '/apply' }],
    });
    expect(later.status).toBe(202);
    await sharedTrafficWriter().flush();
    expect(await db.selectFrom('traffic_events').select('metric').where('visit_id', '=', visitId).execute()).toEqual([{ metric: 'apply_view' }]);

    // the other instance's writer saves the first batch now
    const now = new Date();
    const landing = { path: '/title-loans', params: { source1: 'earlier-campaign' } };
    await writeTraffic(db, {
      visits: [visitRow(visitId, landing, { brand: 'ipaydayloans', host: 'ipaydayloans.localhost', userAgent: 'test-agent/1.0', optedOut: false, now })],
      events: [trafficEvent(visitId, 'page_view', now.toISOString(), { path: '/title-loans' })],
    });
    const visits = await db.selectFrom('traffic_visits').select(['landing_path', 'campaign']).where('id', '=', visitId).execute();
    expect(visits).toEqual([{ landing_path: '/title-loans', campaign: 'earlier-campaign' }]);
    expect(await campaignCounts(db, 'earlier-campaign')).toMatchObject({ visit: 1 });
    expect(await campaignCounts(db, 'later-campaign')).toEqual({});
  });
});
