/**
 * Load: 1,000 session posts at 32 connections (autocannon, a fixed number of requests) against
 * the real route over SQLite → 1,000 rows, each sent uuid once, no 5xx, no errors; then the
 * same 1,000 again (a browser retrying) → all 200, still 1,000 rows. Prints the rate.
 * Each request comes from its own client address, as visitors do, so the per-client limit holds.
 */
import autocannon from 'autocannon';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../../engine/store/db';
import { listSessionTraces } from '../../engine/store/sessionTraces';
import { startTraceServer, type TraceServer } from '../support/traceServer';

const POSTS = 1_000;
const CONNECTIONS = 32;

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer();
  db = openStore({ url: '', file: server.dbFile });
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

const uuidOf = (i: number) => `cc${(0xabc000 + i).toString(16).padStart(32, '0')}`;

async function blast(label: string) {
  let i = 0;
  const sent: string[] = [];
  const t0 = performance.now();
  let last = t0;
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/api/trace/session`,
    connections: CONNECTIONS,
    amount: POSTS,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        onResponse: () => {
          last = performance.now();
        },
        setupRequest: (req) => {
          const k = i++;
          const uuid = uuidOf(k % POSTS);
          sent.push(uuid);
          return {
            ...req,
            headers: {
              host: 'ipaydayloans.localhost',
              'content-type': 'application/json',
              'x-forwarded-for': `10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`,
              'user-agent': 'autocannon',
            },
            body: JSON.stringify({ source1: `load-${k}`, source2: '/', clickId: `gg${k}`, uuid, ggClientId: '' }),
          };
        },
      },
    ],
  });
  // autocannon ends on its next 1 s sampling tick; the rate counts up to the last answer.
  const seconds = (last - t0) / 1000;
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]));
  console.log(
    `[load] ${label}: ${result.requests.total} posts at ${CONNECTIONS} connections in ${seconds.toFixed(2)} s → ${(result.requests.total / seconds).toFixed(0)} posts/s (statuses ${JSON.stringify(statuses)}, errors ${result.errors}, timeouts ${result.timeouts})`,
  );
  return { result, sent, statuses };
}

it(`${POSTS} posts at ${CONNECTIONS} connections: none lost, none duplicated, no 5xx; replayed: still ${POSTS} rows`, async () => {
  const first = await blast('new uuids');
  expect(first.result.errors).toBe(0);
  expect(first.result.timeouts).toBe(0);
  expect(first.statuses).toEqual({ 201: POSTS });
  expect(new Set(first.sent).size).toBe(POSTS);
  const rows = await listSessionTraces(db, { since: new Date(0), limit: POSTS * 2 });
  expect(rows).toHaveLength(POSTS);
  expect(rows.map((r) => r.uuid).sort()).toEqual([...first.sent].sort());

  const replay = await blast('the same uuids again');
  expect(replay.result.errors).toBe(0);
  expect(replay.statuses).toEqual({ 200: POSTS });
  expect(await listSessionTraces(db, { since: new Date(0), limit: POSTS * 2 })).toHaveLength(POSTS);
}, 120_000);
