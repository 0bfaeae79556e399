/**
 * POST /api/opt-out through the shared API handler: bad input gets a 4xx with a reason a person
 * can read, a flood is rate-limited, and a good request records keyed hashes only — the same
 * answer whether or not the contact ever asked for a loan.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../../engine/store/db';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer({ LEADS_ENCRYPTION_KEY: 'c'.repeat(64), RATE_LIMIT_OPT_OUT: '8', LEADS_WORKER: 'off' }, '/api/opt-out');
  db = openStore({ url: '', file: server.dbFile });
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

const send = (body: unknown, opts: Parameters<typeof post>[2] = {}) =>
  post(server.port, typeof body === 'string' ? body : JSON.stringify(body), { path: '/api/opt-out', ip: '198.51.100.20', ...opts });

it('refuses bad input with a reason, records a good request as hashes only, and limits a flood', async () => {
  expect(await send('{"phone":')).toMatchObject({ status: 400, json: { error: expect.stringContaining('not valid JSON') } });
  expect(await send({})).toMatchObject({ status: 400 });
  expect(await send({ phone: '123' })).toMatchObject({
    status: 400,
    json: { problems: ['/phone: enter a 10-digit US phone number, for example (512) 555-0123'] },
  });
  expect(await send({ phone: '2145550142', extra: 1 })).toMatchObject({ status: 400 });
  expect(await send({ email: 'a'.repeat(3000) })).toMatchObject({ status: 413 });
  expect(await send('phone=2145550142', { type: 'application/x-www-form-urlencoded' })).toMatchObject({ status: 415 });
  expect(await send({ phone: '2145550142' }, { host: 'unknown.example' })).toMatchObject({ status: 404 });

  expect(await send({ phone: '(214) 555-0142', email: 'Ana@example.com' })).toMatchObject({ status: 200, json: { status: 'recorded' } });
  const rows = await db.selectFrom('suppressions').selectAll().execute();
  expect(rows).toHaveLength(2);
  expect(JSON.stringify(rows)).not.toMatch(/5550142|ana@/i);

  const flood = await Promise.all(Array.from({ length: 4 }, () => send({ email: 'someone@example.com' })));
  expect(flood.map((a) => a.status)).toContain(429);
  expect(flood.find((a) => a.status === 429)!.headers['retry-after']).toMatch(/^\d+$/);
}, 60_000);

it('a phone written partly in other digits opts out the same number, and one with a digit more is refused, not another number', async () => {
  const ip = '198.51.100.21';
  const suppressed = async () => (await db.selectFrom('suppressions').select('hash').execute()).map((r) => r.hash).sort();
  expect(await send({ phone: '(469) 555-0177' }, { ip })).toMatchObject({ status: 200 });
  const once = await suppressed();
  // the same number, in Arabic-Indic and full-width digits: no new hash, it is the one recorded
  expect(await send({ phone: '+١ (٤٦٩) ５５５-0177' }, { ip })).toMatchObject({ status: 200, json: { status: 'recorded' } });
  expect(await suppressed()).toEqual(once);
  expect(await send({ phone: '469 555 ٠177 2' }, { ip })).toMatchObject({
    status: 400,
    json: { problems: ['/phone: enter a 10-digit US phone number, for example (512) 555-0123'] },
  });
  expect(await suppressed()).toEqual(once);
}, 60_000);
