/** POST /api/demo-lender/post — the built-in demo lender's answer to the full lead (the same rules as its bid), with its sealed offer. */
import { route } from '../../../engine/http/route';
import { demoPostAnswer } from '../../../engine/sale/demoLender';
import { DEMO_BODY_LIMIT, demoRequestOf, demoSigned, noDemoLenderHere, sealOffer } from '../../../engine/sale/demoRoutes';

export const config = { api: { bodyParser: false } };

export default route({ unavailable: noDemoLenderHere, methods: ['POST'], body: { limit: DEMO_BODY_LIMIT, signedBy: demoSigned } }, async ({ raw }) => {
  const post = demoRequestOf(raw);
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
