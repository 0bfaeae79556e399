/**
 * An API route declared with engine/http/route.ts, served by a real node:http server: what a
 * client sees when a request breaks one of the declared rules (method, brand host, rate, body
 * cap, JSON, schema, signature), and what the handler is given when it keeps them.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../engine/http/api';
import { json, route, type RouteHandler } from '../../engine/http/route';
import { post } from '../support/traceServer';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', maxLength: 10 } },
};

const routes: Record<string, RouteHandler> = {
  '/greet': route({ methods: ['POST'], brand: true, body: json<{ name: string }>(schema, 64) }, async ({ body, brand, host, ip }) => ({
    status: 200,
    body: { hello: body.name, brand: brand.brand.id, host, ip },
  })),
  '/limited': route({ methods: ['GET', 'HEAD'], rate: { name: 'route-declaration-test', limit: 2, windowMs: 60_000 } }, async () => ({
    status: 200,
    body: { ok: true },
  })),
  '/signed': route(
    {
      methods: ['POST'],
      body: {
        ...json<{ name: string }>(schema, 64),
        signedBy: (_raw: Buffer, req: IncomingMessage) => {
          if (req.headers['x-signature'] !== 'good') throw new ApiError(401, 'Bad signature');
          return 'signer-1';
        },
      },
    },
    async ({ body, signer }) => ({ status: 200, body: { hello: body.name, signer } }),
  ),
  '/off': route({ unavailable: () => 'Switched off here', methods: ['POST'] }, async () => ({ status: 200, body: {} })),
};

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => void routes[new URL(req.url ?? '/', 'http://x').pathname]!(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A request to the test server (tests/support/traceServer.ts post: JSON, the brand's host, unless told). */
const send = (method: string, path: string, body = '', headers: Record<string, string> = {}) =>
  post(port, body, {
    method,
    path,
    ...(headers.host ? { host: headers.host } : {}),
    ...(headers['content-type'] ? { type: headers['content-type'] } : {}),
    headers,
  });

describe('a declared API route', () => {
  it('hands the handler the checked body, the brand of the host, the host and the client address', async () => {
    const res = await send('POST', '/greet', '{"name":"ann"}', { host: 'IPaydayLoans.localhost:3000' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ hello: 'ann', brand: 'ipaydayloans', host: 'ipaydayloans.localhost', ip: '127.0.0.1' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a method it does not declare with 405 and Allow', async () => {
    const res = await send('GET', '/greet');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json).toEqual({ error: 'Use POST' });
  });

  it('refuses a host that is no brand with 404 naming the host', async () => {
    const res = await send('POST', '/greet', '{"name":"ann"}', { host: 'nowhere.example' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'No site answers on host "nowhere.example"' });
  });

  it('refuses a body over its cap with 413', async () => {
    const res = await send('POST', '/greet', JSON.stringify({ name: 'x'.repeat(100) }));
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: 'The body is larger than 64 bytes' });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await send('POST', '/greet', 'name=ann', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
    expect(res.json).toEqual({ error: 'Send the body as application/json' });
  });

  it('refuses malformed JSON with 400 and the parser’s reason', async () => {
    const res = await send('POST', '/greet', '{"name":');
    expect(res.status).toBe(400);
    expect(String(res.json.error)).toMatch(/^The body is not valid JSON: .+/);
  });

  it('takes a JSON body after one byte order mark (Windows PowerShell and .NET send one), checked as without it', async () => {
    const bom = '\uFEFF';
    const taken = await send('POST', '/greet', `${bom}{"name":"ann"}`);
    expect(taken.status).toBe(200);
    expect(taken.json).toMatchObject({ hello: 'ann' });
    const wrong = await send('POST', '/greet', `${bom}{"name":"far too long a name"}`);
    expect(wrong.status).toBe(400);
    expect(wrong.json.problems).toEqual([expect.stringMatching(/^\/name: /)]);
    // the cap counts the bytes sent, the mark's three included
    const name = 'x'.repeat(51);
    expect(Buffer.byteLength(`{"name":"${name}"}`)).toBe(62);
    expect((await send('POST', '/greet', `{"name":"${name}"}`)).status).toBe(400);
    expect((await send('POST', '/greet', `${bom}{"name":"${name}"}`)).json).toEqual({ error: 'The body is larger than 64 bytes' });
  });

  it.each([
    ['two byte order marks', '\uFEFF\uFEFF{"name":"ann"}'],
    ['a byte order mark inside the JSON', '{\uFEFF"name":"ann"}'],
    ['a byte order mark after the JSON', '{"name":"ann"}\uFEFF'],
    ['a byte order mark alone', '\uFEFF'],
  ])('refuses %s as malformed JSON', async (_label, body) => {
    const res = await send('POST', '/greet', body);
    expect(res.status).toBe(400);
    expect(String(res.json.error)).toMatch(/^The body is not valid JSON: .+/);
  });

  it('refuses a body against its schema with 400 naming the field', async () => {
    const res = await send('POST', '/greet', '{"name":"far too long a name"}');
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The body is not valid');
    expect(res.json.problems).toEqual([expect.stringMatching(/^\/name: /)]);
  });

  it('counts a client against its rate rule, then refuses with 429 and Retry-After', async () => {
    expect((await send('GET', '/limited')).status).toBe(200);
    expect((await send('GET', '/limited')).status).toBe(200);
    const res = await send('GET', '/limited');
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(String(res.json.error)).toMatch(/^Too many requests; try again in \d+ s$/);
  });

  it('checks a signed body before it is parsed and hands on the signer', async () => {
    const unsigned = await send('POST', '/signed', '{"name":');
    expect(unsigned.status).toBe(401);
    expect(unsigned.json).toEqual({ error: 'Bad signature' });
    const signed = await send('POST', '/signed', '{"name":"ann"}', { 'x-signature': 'good' });
    expect(signed.json).toEqual({ hello: 'ann', signer: 'signer-1' });
  });

  it('answers 404 with its reason while it is unavailable, whatever the method', async () => {
    const res = await send('GET', '/off');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'Switched off here' });
  });

  it('compiles its schema when it is declared: a broken schema fails at once, not on a request', () => {
    expect(() => route({ methods: ['POST'], body: json({ type: 'no-such-type' }, 64) }, async () => ({ status: 200 }))).toThrow();
  });
});
