/** POST /api/demo-lender/post — the built-in demo lender's answer to the full lead (the same rules as its bid). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleApi } from '../../../engine/http/api';
import { demoPostAnswer } from '../../../engine/sale/demoLender';
import { readDemoRequest } from '../../../engine/sale/demoRoutes';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse) {
  return handleApi(req, res, async () => {
    const post = await readDemoRequest(req);
    return { status: 200, body: demoPostAnswer({ amount: Number(post.amount), state: String(post.state), loanKind: String(post.loanKind) }) };
  });
}
