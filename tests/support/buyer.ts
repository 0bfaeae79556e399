/**
 * A lead buyer's webhook for the tests: a real HTTP server on loopback that records every lead
 * it accepts (checking the HMAC signature), and can be switched to answer 503 ("down"), to hang
 * ("slow"), to refuse the lead with 409 and `refusal` as its body ("refuse"), to answer 429
 * ("busy"), or to be closed and reopened on the same port.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Buyer {
  url: string;
  port: number;
  /** leads accepted (2xx), in arrival order */
  received: { id: string; body: Record<string, unknown>; headers: Record<string, string | string[] | undefined> }[];
  /** every POST, accepted or not */
  attempts: number;
  mode: 'ok' | 'down' | 'slow' | 'refuse' | 'busy';
  /** the body of a refusal (mode 'refuse') */
  refusal: string;
  close(): Promise<void>;
  reopen(): Promise<void>;
}

export async function startBuyer(secret: string, port = 0): Promise<Buyer> {
  let server: Server;
  const buyer: Buyer = {
    url: '',
    port: 0,
    received: [],
    attempts: 0,
    mode: 'ok',
    refusal: '{"error":"duplicate lead"}',
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
    reopen: () => listen(buyer.port),
  };
  const listen = (p: number) =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        let text = '';
        req.on('data', (c) => (text += c));
        req.on('end', () => {
          buyer.attempts += 1;
          if (buyer.mode === 'slow') return; // never answers
          if (buyer.mode === 'down') return res.writeHead(503).end('down');
          if (buyer.mode === 'busy') return res.writeHead(429, { 'retry-after': '1' }).end('slow down');
          if (buyer.mode === 'refuse') return res.writeHead(409, { 'content-type': 'application/json' }).end(buyer.refusal);
          const expected = `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
          if (req.headers['x-loansites-signature'] !== expected) return res.writeHead(401).end('bad signature');
          const body = JSON.parse(text) as Record<string, unknown>;
          buyer.received.push({ id: String(body.id), body, headers: req.headers });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
        });
      });
      server.listen(p, '127.0.0.1', () => {
        buyer.port = (server.address() as AddressInfo).port;
        buyer.url = `http://127.0.0.1:${buyer.port}/leads`;
        resolve();
      });
    });
  await listen(port);
  return buyer;
}
