/**
 * The built-in demo lender: a pretend buyer served by this server (/api/demo-lender/ping and
 * /post), used only when there are no buyer documents and the process is not a deployment, so
 * a fresh checkout shows the whole loop. Its rules are simple and written in docs/operators/buyers-and-the-sale.md so a
 * tester can predict both outcomes:
 * - it bids on every request of $3,000 or less: $12.00 for a general loan, $20.00 for a title loan;
 * - it refuses amounts above $3,000, and (to show a refusal by state) requests from New York;
 * - a post of a lead it bid on is accepted, answered with its sealed offer as its reference for
 *   the lead (engine/sale/demoOffer.ts); the borrower continues to /demo-lender/offer on the
 *   brand's own host, which shows that offer (no redirect URL leaves the site).
 */
import type { BuyerBid, BuyerPing, BuyerPostAnswer } from '../../schemas/api.types';
import type { Buyer } from '../../schemas/buyer.types';

export const DEMO_LENDER_ID = 'demo-lender';
/** Not a secret: the demo lender is this same server, and never runs in a deployment. */
export const DEMO_SECRET = 'demo-lender-not-a-secret';
export const DEMO_MAX_AMOUNT = 3000;

export function demoBuyer(origin: string): Buyer {
  return {
    $schema: '../schemas/buyer.schema.json',
    id: DEMO_LENDER_ID,
    displayName: 'Demo Lender (not a real lender)',
    mode: 'ping-post',
    endpoints: { ping: `${origin}/api/demo-lender/ping`, post: `${origin}/api/demo-lender/post` },
    timeouts: { pingMs: 2000, postMs: 5000 },
    secretEnv: 'DEMO_LENDER_SECRET',
    acceptsDuplicates: true,
    acceptsTestLeads: true,
    redirectHosts: [],
  };
}

export function demoBid(ping: Pick<BuyerPing, 'amount' | 'state' | 'loanKind'>): BuyerBid {
  if (ping.amount > DEMO_MAX_AMOUNT) return { bid: false, reason: `the demo lender refuses amounts above $${DEMO_MAX_AMOUNT.toLocaleString('en-US')}` };
  if (ping.state === 'NY') return { bid: false, reason: 'the demo lender does not lend in New York' };
  return { bid: true, price: ping.loanKind === 'title' ? 20 : 12, bidId: 'demo' };
}

/** The answer to a post; `offer` seals the offer the borrower will see (called only when it accepts). */
export function demoPostAnswer(post: { amount: number; state: string; loanKind: string }, offer: () => string = () => 'demo'): BuyerPostAnswer {
  const bid = demoBid({ amount: post.amount, state: post.state, loanKind: post.loanKind === 'title' ? 'title' : 'general' });
  return bid.bid ? { accepted: true, buyerLeadId: offer() } : { accepted: false, reason: bid.reason ?? 'refused' };
}
