/** POST /api/demo-lender/ping — the built-in demo lender's bid (rules in engine/sale/demoLender.ts and the README). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleApi } from '../../../engine/http/api';
import { demoBid } from '../../../engine/sale/demoLender';
import { readDemoRequest } from '../../../engine/sale/demoRoutes';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse) {
  return handleApi(req, res, async () => {
    const ping = await readDemoRequest(req);
    return {
      status: 200,
      body: demoBid({ amount: Number(ping.amount), state: String(ping.state), loanKind: ping.loanKind === 'title' ? 'title' : 'general' }),
    };
  });
}
