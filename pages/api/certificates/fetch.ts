/**
 * POST /api/certificates/fetch — a buyer fetches a consent certificate: the signed JSON as issued
 * (`certificate` and `signature`, verifiable with the brand's published keys), whether it verifies
 * now, and until when it is kept (engine/leads/certificate/buyerApi.ts). Declared by engine/sale/certificateRoute.ts. 200 the certificate; 401 unknown
 * buyer or bad signature; 404 no such certificate; 503 kept but not readable now.
 */
import { fetchForBuyer } from '../../../engine/leads/certificate/buyerApi';
import { certificateRoute } from '../../../engine/sale/certificateRoute';

export const config = { api: { bodyParser: false } };

export default certificateRoute((db, buyer, body, now) => fetchForBuyer(db, buyer.id, body.certificateId, now));
