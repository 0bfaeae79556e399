/**
 * POST /api/trace/session, the route's own code on a Node server over a temp SQLite file: what
 * it stores (brand from the host, server time, user agent, truncated IP), idempotency, every
 * refusal with its status and reason, and the per-client rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../engine/store/db';
import { listSessionTraces } from '../../engine/store/sessionTraces';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

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

let n = 0;
const body = (extra: Record<string, unknown> = {}) => ({
  source1: 'spring',
  source2: '/payday-loans',
  clickId: 'ggabc',
  uuid: `cc${(++n).toString(16).padStart(32, '0')}`,
  ggClientId: '11.22',
  ...extra,
});
// every trace stored (the test stores far fewer than listSessionTraces' 10,000)
const storedCount = async () => (await listSessionTraces(db, { since: new Date(0) })).length;
const rowOf = async (uuid: string) => (await listSessionTraces(db, { since: new Date(0) })).filter((r) => r.uuid === uuid);

describe('storing a trace', () => {
  it('stores the body with the host’s brand, server time, user agent and a truncated IP (201)', async () => {
    const sent = body();
    const before = new Date().toISOString();
    const res = await post(server.port, JSON.stringify(sent), { host: 'www.ustitleloans.com', ip: '203.0.113.77', ua: 'Mozilla/5.0 test' });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ uuid: sent.uuid, stored: 'now' });
    const [row, ...rest] = await rowOf(sent.uuid);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      brand: 'ustitleloans',
      source1: 'spring',
      source2: '/payday-loans',
      clickId: 'ggabc',
      gaClientId: '11.22',
      userAgent: 'Mozilla/5.0 test',
      ip: '203.0.113.0',
    });
    expect(row!.createdAt >= before && row!.createdAt <= new Date().toISOString()).toBe(true);
  });

  it('the same uuid again is 200 and still one row, the first one', async () => {
    const sent = body({ source1: 'first' });
    expect((await post(server.port, JSON.stringify(sent))).status).toBe(201);
    const again = await post(server.port, JSON.stringify({ ...sent, source1: 'second' }));
    expect(again.status).toBe(200);
    expect(again.json.stored).toBe('already');
    expect((await rowOf(sent.uuid)).map((r) => r.source1)).toEqual(['first']);
  });

  it('accepts a trace without a click id or GA client id, and a ttclid prefix', async () => {
    for (const extra of [{ clickId: '', ggClientId: '' }, { clickId: 'ttxyz' }]) {
      expect((await post(server.port, JSON.stringify(body(extra)))).status).toBe(201);
    }
  });
});

describe('refusals: the status, the reason, and nothing stored', () => {
  it.each([
    ['a brand in the body', () => JSON.stringify(body({ brand: 'ustitleloans' })), {}, 400, 'The body is not valid', 'brand'],
    ['a malformed uuid', () => JSON.stringify(body({ uuid: 'cc-not-a-uuid' })), {}, 400, 'The body is not valid', '/uuid'],
    ['an unknown click-id prefix', () => JSON.stringify(body({ clickId: 'fbabc' })), {}, 400, 'The body is not valid', '/clickId'],
    ['a missing field', () => JSON.stringify({ ...body(), ggClientId: undefined }), {}, 400, 'The body is not valid', 'ggClientId'],
    ['a too long source1', () => JSON.stringify(body({ source1: 'x'.repeat(201) })), {}, 400, 'The body is not valid', '/source1'],
    ['broken JSON', () => '{"source1":', {}, 400, 'The body is not valid JSON', undefined],
    ['an array', () => '[]', {}, 400, 'The body is not valid', undefined],
    ['a body over 4 KB', () => JSON.stringify(body({ pad: 'x'.repeat(5000) })), {}, 413, 'The body is larger than 4096 bytes', undefined],
    ['text/plain', () => JSON.stringify(body()), { type: 'text/plain' }, 415, 'Send the body as application/json', undefined],
    ['a form post', () => 'source1=x', { type: 'application/x-www-form-urlencoded' }, 415, 'Send the body as application/json', undefined],
    ['GET', () => '', { method: 'GET' }, 405, 'Use POST', undefined],
    ['PUT', () => JSON.stringify(body()), { method: 'PUT' }, 405, 'Use POST', undefined],
    ['an unknown host', () => JSON.stringify(body()), { host: 'evil.example' }, 404, 'No site answers on host "evil.example"', undefined],
  ])('%s → %i', async (_label, make, opts, status, error, problem) => {
    const before = await storedCount();
    const res = await post(server.port, make(), { ip: `192.0.2.${n % 250}`, ...opts });
    expect(res.status).toBe(status);
    expect(String(res.json.error)).toContain(error);
    if (problem) expect((res.json.problems as string[]).join('\n')).toContain(problem);
    if (status === 405) expect(res.headers.allow).toBe('POST');
    expect(await storedCount()).toBe(before);
  });
});

describe('rate limit', () => {
  it('60 posts a minute per client, then 429 with Retry-After; other clients unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await post(server.port, JSON.stringify(body()), { ip: '198.51.100.200' })).status);
    expect(statuses.every((s) => s === 201)).toBe(true);
    const before = await storedCount();
    const limited = await post(server.port, JSON.stringify(body()), { ip: '198.51.100.200' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(String(limited.json.error)).toMatch(/^Too many requests; try again in \d+ s$/);
    expect(await storedCount()).toBe(before);
    expect((await post(server.port, JSON.stringify(body()), { ip: '198.51.100.201' })).status).toBe(201);
  });
});
