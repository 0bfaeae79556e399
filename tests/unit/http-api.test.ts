import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApi, readJsonBody, requireMethod, truncateIp } from '../../engine/http/api';
import { memoryRateLimiter } from '../../engine/http/rateLimit';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', maxLength: 10 } },
};

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) =>
    handleApi(req, res, async () => {
      requireMethod(req, ['POST']);
      const body = await readJsonBody<{ name: string }>(req, { limit: 64, schema });
      return { status: 200, body: { hello: body.name } };
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function send(method: string, body: string, type = 'application/json'): Promise<{ status: number; json: Record<string, unknown>; allow?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: '/', headers: { 'content-type': type } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text), allow: res.headers.allow as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('readJsonBody and handleApi', () => {
  // the status second: the title's %i takes the second value
  it.each(
    (
      [
        ['a valid body', 'POST', '{"name":"ann"}', 'application/json', 200, undefined],
        ['charset in the type', 'POST', '{"name":"ann"}', 'application/json; charset=utf-8', 200, undefined],
        ['wrong method', 'GET', '', 'application/json', 405, 'Use POST'],
        ['a form post', 'POST', 'name=ann', 'application/x-www-form-urlencoded', 415, 'Send the body as application/json'],
        ['text/plain (no preflight)', 'POST', '{"name":"ann"}', 'text/plain', 415, 'Send the body as application/json'],
        ['broken JSON', 'POST', '{"name":', 'application/json', 400, 'The body is not valid JSON'],
        ['an extra field', 'POST', '{"name":"ann","x":1}', 'application/json', 400, 'The body is not valid'],
        ['a too long string', 'POST', '{"name":"abcdefghijklmnop"}', 'application/json', 400, 'The body is not valid'],
        ['over the cap', 'POST', JSON.stringify({ name: 'x'.repeat(200) }), 'application/json', 413, 'The body is larger than 64 bytes'],
      ] as [string, string, string, string, number, string | undefined][]
    ).map(([label, method, body, type, status, error]) => [label, status, method, body, type, error] as const),
  )('%s → %i', async (_label, status, method, body, type, error) => {
    const res = await send(method, body, type);
    expect(res.status).toBe(status);
    if (error) expect(String(res.json.error)).toContain(error);
    if (status === 405) expect(res.allow).toBe('POST');
    if (status === 400 && error === 'The body is not valid') expect((res.json.problems as string[]).length).toBeGreaterThan(0);
  });
});

describe('truncateIp', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1::'],
    ['::1', '::'],
    ['garbage', ''],
  ])('%s → %s', (ip, out) => expect(truncateIp(ip)).toBe(out));
});

describe('memoryRateLimiter', () => {
  it('allows the limit per window, then 429s until the window ends', async () => {
    const l = memoryRateLimiter({ name: 't', limit: 3, windowMs: 60_000 });
    const t0 = 1_000_000;
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await l.hit('a', t0 + i)).ok);
    expect(seen).toEqual([true, true, true, false]);
    expect((await l.hit('b', t0)).ok).toBe(true);
    const blocked = await l.hit('a', t0 + 30_000);
    expect(blocked).toMatchObject({ ok: false, retryAfter: 30 });
    expect((await l.hit('a', t0 + 60_000)).ok).toBe(true);
  });
});
