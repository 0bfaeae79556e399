/**
 * One client cannot spend the whole site's ingest budget (the route's own code on a Node server
 * over a temp SQLite file): a client sending a new visit of 50 events per post, within its
 * allowance of posts a minute, is refused with 429 and a reason once it has sent its share, and
 * another visitor's events are still taken. Its refused events are not counted as the site's
 * shortfall (the overview does not call its counts a sample because of one client).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../../engine/store/db';
import { refusedEvents } from '../../engine/traffic/refusedQuery';
import { sharedTrafficWriter } from '../../engine/traffic/writer';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  // the defaults: 120 posts a minute per client, 6,000 events a minute for the site
  server = await startTraceServer({ RATE_LIMIT_EVENTS: '120', EVENTS_BUDGET_PER_MINUTE: '6000' }, '/api/events');
  db = openStore({ url: '', file: server.dbFile });
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

const newVisit = () =>
  JSON.stringify({ landing: { path: '/', params: { source1: 'flood' } }, events: Array.from({ length: 50 }, () => ({ type: 'page_view', path: '/' })) });

it('a client flooding new visits gets 429 past its share, and another visitor’s events are still taken', async () => {
  const from = new Date(Date.now() - 3600_000).toISOString();
  const statuses: number[] = [];
  let refusal: Awaited<ReturnType<typeof post>> | undefined;
  // 118 posts: within the client's 120, and 118 × 51 is past the site's 6,000
  for (let i = 0; i < 118; i++) {
    const res = await post(server.port, newVisit(), { path: '/api/events', ip: '203.0.113.50' });
    statuses.push(res.status);
    if (res.status === 429) refusal ??= res;
  }
  // 600 events a minute per client by default: 11 visits of 51
  expect(statuses.slice(0, 11).every((s) => s === 202)).toBe(true);
  expect(statuses.slice(11).every((s) => s === 429)).toBe(true);
  expect(refusal?.json.error).toMatch(/client has sent too many events/);
  expect(Number(refusal?.headers['retry-after'])).toBeGreaterThan(0);

  const other = await post(server.port, JSON.stringify({ landing: { path: '/' }, events: [{ type: 'page_view', path: '/' }] }), {
    path: '/api/events',
    ip: '198.51.100.7',
  });
  expect(other.status).toBe(202);

  await sharedTrafficWriter().flush();
  expect(await refusedEvents(db, { from, to: new Date(Date.now() + 3600_000).toISOString() })).toBe(0);
});
