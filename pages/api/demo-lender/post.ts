/** POST /api/demo-lender/post — the built-in demo lender's answer to the full lead (the same rules as its bid), with its sealed offer. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleApi } from '../../../engine/http/api';
import { demoPostAnswer } from '../../../engine/sale/demoLender';
import { readDemoRequest, sealOffer } from '../../../engine/sale/demoRoutes';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse) {
  return handleApi(req, res, async () => {
    const post = await readDemoRequest(req);
    const amount = Number(post.amount);
    const loanKind = post.loanKind === 'title' ? 'title' : 'general';
    const region = String(post.region ?? post.state ?? '').toUpperCase();
    // bound to the brand the borrower applied on: its link opens on that brand's host only
    const offer = () =>
      sealOffer(
        {
          amount: Math.max(0, Math.min(9_999_999, Math.round(amount) || 0)),
          loanKind,
          currency: /^[A-Z]{3}$/.test(String(post.currency)) ? String(post.currency) : 'USD',
          priceCents: Math.max(0, Math.min(100_000, Math.round(Number(post.price ?? 0) * 100) || 0)),
          country: /^[A-Z]{2}$/.test(String(post.country)) ? String(post.country) : 'US',
          region: /^[A-Z]{2,3}$/.test(region) ? region : '',
        },
        String(post.brand ?? ''),
      );
    return { status: 200, body: demoPostAnswer({ amount, state: String(post.state), loanKind: String(post.loanKind) }, offer) };
  });
}
