/** POST /api/demo-lender/ping — the built-in demo lender's bid (rules in engine/sale/demoLender.ts and the README). */
import { route } from '../../../engine/http/route';
import { demoBid } from '../../../engine/sale/demoLender';
import { DEMO_BODY_LIMIT, demoRequestOf, demoSigned, noDemoLenderHere } from '../../../engine/sale/demoRoutes';

export const config = { api: { bodyParser: false } };

export default route({ unavailable: noDemoLenderHere, methods: ['POST'], body: { limit: DEMO_BODY_LIMIT, signedBy: demoSigned } }, async ({ raw }) => {
  const ping = demoRequestOf(raw);
  return {
    status: 200,
    body: demoBid({ amount: Number(ping.amount), state: String(ping.state), loanKind: ping.loanKind === 'title' ? 'title' : 'general' }),
  };
});
