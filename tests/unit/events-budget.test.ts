/**
 * The site's ingest budget (EVENTS_BUDGET_PER_MINUTE) over every client together (the route's own
 * code on a Node server over a temp SQLite file): many addresses, each within its own limit, are
 * answered 429 with Retry-After and a reason once the site's budget is spent; what was refused is
 * counted by hour and brand, which is how the overview knows to say its counts are a sample.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../../engine/store/db';
import { refusedEvents } from '../../engine/traffic/refusedQuery';
import { sharedTrafficWriter } from '../../engine/traffic/writer';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer({ EVENTS_BUDGET_PER_MINUTE: '500' }, '/api/events');
  db = openStore({ url: '', file: server.dbFile });
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

it('past the budget every client gets 429 with Retry-After; the refused events are counted for the overview', async () => {
  const from = new Date(Date.now() - 3600_000).toISOString();
  const answers = [];
  // 20 addresses, one batch of 50 (a new visit) each: 1,020 events and landings against a budget of 500
  for (let i = 0; i < 20; i++) {
    const body = { landing: { path: '/' }, events: Array.from({ length: 50 }, () => ({ type: 'page_view', path: '/' })) };
    answers.push(await post(server.port, JSON.stringify(body), { path: '/api/events', ip: `192.0.2.${i + 1}` }));
  }
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 202).length).toBe(9);
  expect(statuses.slice(9).every((s) => s === 429)).toBe(true);
  const refused = answers[19]!;
  expect(refused.json.error).toMatch(/more events than its budget/);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

  await sharedTrafficWriter().flush();
  const to = new Date(Date.now() + 3600_000).toISOString();
  expect(await refusedEvents(db, { from, to, brand: 'ipaydayloans' })).toBe(11 * 50);
  expect(await refusedEvents(db, { from, to, brand: 'ustitleloans' })).toBe(0);
  const stored = await db.selectFrom('traffic_events').select('id').execute();
  expect(stored.length).toBe(9 * 50);
});
