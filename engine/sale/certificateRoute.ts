/**
 * The buyer certificate routes (pages/api/certificates/{verify,claim,fetch}.ts) declared once:
 * POST, rate-limited like the other buyer APIs, signed by a known buyer (./buyerSignature.ts,
 * checked before the body is parsed), JSON of at most 1 KB against
 * schemas/api/buyer-certificate.schema.json; 200 the answer (schemas/api/buyer-certificate-{verify,claim,fetch}-answer.schema.json),
 * or the refusal's status and reason as a BuyerApiRefusal (404 for a certificate that is not kept, the same for one never issued).
 */
import schema from '../../schemas/api/buyer-certificate.schema.json' with { type: 'json' };
import type { BuyerCertificateRequest } from '../../schemas/api.types';
import type { BuyerAnswer } from '../leads/certificate/buyerApi';
import type { Buyer } from '../../schemas/buyer.types';
import { ApiError } from '../http/api';
import { json, route } from '../http/route';
import { RATE_RULES } from '../http/rateLimit';
import type { Store } from '../store/db';
import { signingBuyer } from './buyerSignature';

export const certificateRoute = <A extends object>(work: (db: Store, buyer: Buyer, body: BuyerCertificateRequest, now: Date) => Promise<BuyerAnswer<A>>) =>
  route(
    { methods: ['POST'], rate: RATE_RULES.buyerApi, body: { ...json<BuyerCertificateRequest>(schema, 1024), signedBy: signingBuyer } },
    async ({ body, signer, store }) => {
      const r = await work(await store(), signer, body, new Date());
      if (!r.ok) throw new ApiError(r.status, r.reason);
      return { status: 200, body: r.answer };
    },
  );
