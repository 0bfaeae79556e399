/**
 * The demo lender's offer page, rendered for the front door's /demo-lender/offer on a brand's
 * host (engine/frontDoor/frontDoor.ts hands it here; asked for directly, this path is a 404 there): the
 * offer sealed in the link, opened only on the brand it was made on, or a 4xx page saying why the
 * link is not good (engine/sale/demoOfferPage.ts). 404 where there is no demo lender (a
 * deployment, or buyer documents in use).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brandOfRequest, handleApi, requireMethod } from '../../../engine/http/api';
import { openDemoOffer } from '../../../engine/sale/demoOffer';
import { demoOfferPage, noDemoLender } from '../../../engine/sale/demoOfferPage';
import { demoLenderAvailable, offerKeys } from '../../../engine/sale/demoRoutes';

export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => {
    requireMethod(req, ['GET', 'HEAD']);
    const token = new URL(req.url ?? '/', 'http://x').searchParams.get('o');
    const brand = demoLenderAvailable() ? brandOfRequest(req).brand : undefined;
    const answer = brand ? demoOfferPage(openDemoOffer(token?.slice(0, 400), new Date(), offerKeys(), brand.id), brand.product) : noDemoLender();
    return { status: answer.status, bytes: Buffer.from(answer.body, 'utf8'), headers: answer.headers };
  });
}
