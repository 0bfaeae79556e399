/**
 * A tiny Sentry-compatible envelope receiver for the tests: POST /api/{project}/envelope/ with
 * an X-Sentry-Auth header (or ?sentry_key=), the body parsed as an envelope (header line, then
 * item header + payload pairs, payloads read by length when given). Each event is kept with the
 * project and key it came with, and with how it was sent (Origin, Content-Type: a browser's post
 * carries its page's origin, the server's none). Like Sentry's ingest it allows any origin
 * (Access-Control-Allow-Origin) and answers CORS preflights, which it counts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the tests read of an event (Sentry's event payload, loosely). */
export interface ReceivedSentryEvent {
  event_id: string;
  platform: string;
  release?: string;
  environment?: string;
  tags: Record<string, string>;
  exception: { values: [{ type: string; value: string }, ...{ type: string; value: string }[]] };
  request?: { url?: string; method?: string };
  [key: string]: unknown;
}

export interface ReceivedEvent {
  project: string;
  key: string | undefined;
  header: Record<string, unknown>;
  event: ReceivedSentryEvent;
  origin: string | undefined;
  contentType: string | undefined;
}

export interface EnvelopeReceiver {
  port: number;
  dsn: (key?: string, project?: string) => string;
  events: ReceivedEvent[];
  /** OPTIONS requests seen (a browser's post that needed a preflight) */
  preflights: number;
  close(): Promise<void>;
}

export function parseEnvelope(body: Buffer): { header: Record<string, unknown>; items: { header: Record<string, unknown>; payload: string }[] } {
  let at = body.indexOf(10);
  const header = JSON.parse(body.subarray(0, at < 0 ? body.length : at).toString('utf8')) as Record<string, unknown>;
  const items: { header: Record<string, unknown>; payload: string }[] = [];
  while (at >= 0 && at < body.length - 1) {
    const start = at + 1;
    const end = body.indexOf(10, start);
    const itemHeader = JSON.parse(body.subarray(start, end < 0 ? body.length : end).toString('utf8')) as Record<string, unknown>;
    const from = end + 1;
    const to = typeof itemHeader.length === 'number' ? from + itemHeader.length : body.indexOf(10, from) < 0 ? body.length : body.indexOf(10, from);
    items.push({ header: itemHeader, payload: body.subarray(from, to).toString('utf8') });
    at = to < body.length ? to : -1;
  }
  return { header, items };
}

export function startEnvelopeReceiver(port = 0): Promise<EnvelopeReceiver> {
  const events: ReceivedEvent[] = [];
  let preflights = 0;
  const server: Server = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-sentry-error, retry-after' };
    if (req.method === 'OPTIONS') {
      preflights++;
      return void res.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type, x-sentry-auth' }).end();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const m = /^\/api\/(\d+)\/envelope\/$/.exec(url.pathname);
      if (req.method !== 'POST' || !m) return void res.writeHead(404, cors).end();
      const key = /sentry_key=([^,\s]+)/.exec(String(req.headers['x-sentry-auth'] ?? ''))?.[1] ?? url.searchParams.get('sentry_key') ?? undefined;
      try {
        const { header, items } = parseEnvelope(Buffer.concat(chunks));
        const how = { origin: req.headers.origin, contentType: req.headers['content-type'] };
        for (const item of items) if (item.header.type === 'event') events.push({ project: m[1]!, key, header, event: JSON.parse(item.payload), ...how });
        res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ id: header.event_id }));
      } catch (err) {
        res.writeHead(400, cors).end(String(err));
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => {
      const actual = (server.address() as AddressInfo).port;
      resolve({
        port: actual,
        events,
        get preflights() {
          return preflights;
        },
        dsn: (key = 'publickey', project = '42') => `http://${key}@127.0.0.1:${actual}/${project}`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    }),
  );
}
