/**
 * A local HTTP server standing in for an alert webhook (Slack or the operator's own): keeps each
 * POST's body and headers, and answers the statuses it is told to, in turn (then 200), so a test
 * can make the first attempt fail and see the retry.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: { body: string; headers: Record<string, string | string[] | undefined> }[];
  /** statuses to answer next, in order; after them 200 */
  answers: number[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: WebhookReceiver['received'] = [];
  const answers: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(answers.shift() ?? 200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hook`,
    port: actual,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
