/**
 * A stand-in ping-post / direct-post buyer for the sale's tests: a real HTTP server on loopback
 * (a port the kernel picks) that checks our signature, records every ping and post, and behaves as
 * told — bids a price (at once or slowly), refuses, never answers, answers 500, answers a post slowly, sends the
 * borrower to a host it did not declare, answers 503 once and then accepts, answers a post with
 * a body it is given, or sends a huge body. A post is idempotent on its
 * Idempotency-Key: the same lead posted again gets the first answer again.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** delayMs: the bid comes after that long (a slow buyer) */
export type PingBehaviour = { bid: number; delayMs?: number } | 'no-bid' | 'hang' | 'error' | 'huge' | 'bad-types';
/** 'error-once': 503 to the next post, then 'accept'; { answer }: that body, status 200. */
export type PostBehaviour = 'accept' | 'refuse' | 'hang' | 'error' | 'error-once' | 'wrong-redirect' | { slowMs: number } | { answer: Record<string, unknown> };

export interface StandInBuyer {
  id: string;
  origin: string;
  pings: Record<string, unknown>[];
  /** every post, in arrival order (repeats included) */
  posts: { leadId: string; body: Record<string, unknown> }[];
  /** leads this buyer answered "accepted" to (once each) */
  accepted: Set<string>;
  ping: PingBehaviour;
  post: PostBehaviour;
  /** keep no record of pings and posts (a benchmark's thousands of sales) */
  quiet: boolean;
  /** hold posts until released (to stop a sale mid-post) */
  holdPosts: boolean;
  /** posts that got past the hold (held ones count once released) */
  released: number;
  /** run on each ping before it is answered (a buyer that checks the lead's certificate before bidding) */
  beforeBid?: ((ping: Record<string, unknown>) => Promise<void>) | undefined;
  /** run on each post before it is answered, after the hold (a buyer slow to decide); 'error': that post is answered 503, whatever the buyer answered before */
  beforeAnswer?: ((post: { leadId: string; body: Record<string, unknown> }) => Promise<void | 'error'>) | undefined;
  document(extra?: Record<string, unknown>): Record<string, unknown>;
  /** the headers of a request this buyer signs to our buyer API (returns, certificates): its id and the HMAC of the raw body */
  signed(body: string): Record<string, string>;
  close(): Promise<void>;
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => resolve(text));
  });

export async function startStandInBuyer(
  id: string,
  secret: string,
  opts: { ping?: PingBehaviour; post?: PostBehaviour; mode?: 'ping-post' | 'direct-post' } = {},
): Promise<StandInBuyer> {
  const answers = new Map<string, string>();
  const buyer: StandInBuyer = {
    id,
    origin: '',
    pings: [],
    posts: [],
    accepted: new Set(),
    ping: opts.ping ?? { bid: 10 },
    post: opts.post ?? 'accept',
    holdPosts: false,
    released: 0,
    quiet: false,
    document: (extra = {}) => ({
      $schema: '../../schemas/buyer.schema.json',
      id,
      displayName: `Stand-in ${id}`,
      mode: opts.mode ?? 'ping-post',
      endpoints: opts.mode === 'direct-post' ? { post: `${buyer.origin}/post` } : { ping: `${buyer.origin}/ping`, post: `${buyer.origin}/post` },
      // The longest waits a buyer may ask for: a stand-in answers at once, but it runs in the test's
      // own process, which a loaded machine (CI beside other suites) can hold past a second, and an
      // answer that came late is a refusal the test did not mean. A test of a timeout sets its own.
      timeouts: { pingMs: 3000, postMs: 10_000 },
      secretEnv: `BUYER_${id.toUpperCase().replace(/-/g, '_')}_SECRET`,
      redirectHosts: [`${id}.lender.example`],
      ...extra,
    }),
    signed: (body) => ({ 'x-loansites-buyer': id, 'x-loansites-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
  const json = (res: ServerResponse, status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  const server: Server = createServer(async (req, res) => {
    const text = await read(req);
    const expected = `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
    if (req.headers['x-loansites-signature'] !== expected) return json(res, 401, '{"error":"bad signature"}');
    const body = JSON.parse(text) as Record<string, unknown>;
    if (req.url === '/ping') {
      if (!buyer.quiet) buyer.pings.push(body);
      await buyer.beforeBid?.(body);
      const b = buyer.ping;
      if (b === 'hang') return;
      if (b === 'error') return json(res, 500, 'oops');
      if (b === 'huge') return json(res, 200, JSON.stringify({ bid: true, price: 5, reason: 'x'.repeat(100_000) }));
      if (b === 'bad-types') return json(res, 200, '{"bid":"yes","price":"lots"}');
      if (b === 'no-bid') return json(res, 200, '{"bid":false,"reason":"not today"}');
      if (b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs));
      if (!res.destroyed) json(res, 200, JSON.stringify({ bid: true, price: b.bid, bidId: `${id}-bid` }));
      return;
    }
    const leadId = String(req.headers['idempotency-key']);
    if (!buyer.quiet) buyer.posts.push({ leadId, body });
    while (buyer.holdPosts) await new Promise((r) => setTimeout(r, 20));
    buyer.released += 1;
    if ((await buyer.beforeAnswer?.({ leadId, body })) === 'error') return json(res, 503, 'down');
    const known = answers.get(leadId);
    if (known) return json(res, 200, known);
    const p = buyer.post;
    if (p === 'hang') return;
    if (p === 'error') return json(res, 503, 'down');
    if (p === 'error-once') return ((buyer.post = 'accept'), json(res, 503, 'down'));
    if (typeof p === 'object' && 'slowMs' in p) await new Promise((r) => setTimeout(r, p.slowMs));
    const answer =
      typeof p === 'object' && 'answer' in p
        ? p.answer
        : p === 'refuse'
          ? { accepted: false, reason: 'not for us' }
          : {
              accepted: true,
              redirectUrl: p === 'wrong-redirect' ? 'https://elsewhere.example/x' : `https://${id}.lender.example/offer/${leadId}`,
              ...(opts.mode === 'direct-post' ? { price: 7 } : {}),
            };
    const text2 = JSON.stringify(answer);
    answers.set(leadId, text2);
    if (answer.accepted && p !== 'wrong-redirect' && !buyer.quiet) buyer.accepted.add(leadId);
    if (!res.destroyed) json(res, 200, text2);
  });
  // a port the kernel picks as it binds: a probed port could be taken before the listen
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  buyer.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return buyer;
}
