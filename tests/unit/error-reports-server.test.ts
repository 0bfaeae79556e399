/** Server errors reach a real envelope receiver: an API route's unexpected error (a 500) is one report. */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApi } from '../../engine/http/api';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../support/envelopeReceiver';

let receiver: EnvelopeReceiver;
let site: Server;
let port: number;

beforeAll(async () => {
  receiver = await startEnvelopeReceiver();
  process.env.SENTRY_DSN = receiver.dsn('k123', '7');
  site = createServer(
    (req, res) =>
      void handleApi(req, res, async () => {
        if (req.url === '/api/ok') return { status: 200, body: { ok: true } };
        throw new Error(`database went away on ${req.url}`);
      }),
  );
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  port = (site.address() as AddressInfo).port;
});

/** GET with a Host header (fetch does not send one it is given). */
const get = (path: string, host = 'localhost'): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });

afterAll(async () => {
  delete process.env.SENTRY_DSN;
  await new Promise<void>((r) => site.close(() => r()));
  await receiver.close();
});

describe('an API 5xx', () => {
  it('answers 500 without details and sends one envelope with the message, brand tag and release; the same error again within a minute is not sent twice', async () => {
    const res = await get('/api/broken', 'ipaydayloans.localhost');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('database');
    await expect.poll(() => receiver.events.length).toBe(1);
    const { project, key, event } = receiver.events[0]!;
    expect({ project, key }).toEqual({ project: '7', key: 'k123' });
    expect(event.exception.values[0].value).toBe('database went away on /api/broken');
    expect(event.tags).toEqual({ kind: 'api', brand: 'ipaydayloans' });
    expect(event.release).toEqual(expect.any(String));
    expect(event.request).toEqual({ url: '/api/broken', method: 'GET' });

    expect((await get('/api/broken', 'ipaydayloans.localhost')).status).toBe(500);
    expect((await get('/api/ok')).status).toBe(200);
    expect((await get('/api/other', 'nobrand.localhost')).status).toBe(500);
    await expect.poll(() => receiver.events.length).toBe(2);
    expect(receiver.events[1]!.event.tags).toEqual({ kind: 'api' });
    expect(receiver.events.map((e) => e.event.exception.values[0].value)).toEqual(['database went away on /api/broken', 'database went away on /api/other']);
  });
});
