/**
 * A stand-in for an outside scrub service (DNC registry, known-litigator list) on loopback: it
 * answers engine/leads/screening/httpScrub.ts's POST with the codes listed for the phone, and
 * records each request (with its Authorization header). `delayMs` makes it slow; `status`
 * answers that status instead; close() takes it down.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScrubService {
  url: string;
  /** codes to answer per phone (anything else: clear) */
  listed: Map<string, string[]>;
  requests: { body: Record<string, unknown>; authorization: string | undefined }[];
  delayMs: number;
  status: number;
  close(): Promise<void>;
}

export async function startScrubService(): Promise<ScrubService> {
  const service: ScrubService = { url: '', listed: new Map(), requests: [], delayMs: 0, status: 200, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      service.requests.push({ body, authorization: req.headers.authorization });
      const answer = () => {
        if (res.destroyed) return;
        if (service.status !== 200) return res.writeHead(service.status).end('unavailable');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ codes: service.listed.get(String(body.phone)) ?? [] }));
      };
      if (service.delayMs) setTimeout(answer, service.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scrub`;
  service.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return service;
}
