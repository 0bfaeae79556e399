/**
 * The demo lender's offer page, rendered for the front door's /demo-lender/offer on a brand's
 * host (engine/http/frontDoor.ts hands it here): the offer sealed in the link, or a 4xx page
 * saying why the link is not good (engine/sale/demoOfferPage.ts). 404 where there is no demo
 * lender (a deployment, or buyer documents in use).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openDemoOffer } from '../../../engine/sale/demoOffer';
import { demoOfferPage, noDemoLender } from '../../../engine/sale/demoOfferPage';
import { demoLenderAvailable, offerKeys } from '../../../engine/sale/demoRoutes';

export default function handler(req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('Use GET\n');
    return;
  }
  const token = new URL(req.url ?? '/', 'http://x').searchParams.get('o');
  const answer = demoLenderAvailable() ? demoOfferPage(openDemoOffer(token?.slice(0, 400), new Date(), offerKeys())) : noDemoLender();
  res.writeHead(answer.status, answer.headers).end(req.method === 'HEAD' ? undefined : answer.body);
}
