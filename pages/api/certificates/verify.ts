/**
 * POST /api/certificates/verify — a buyer checks a consent certificate (engine/leads/certificate/buyerApi.ts):
 * whether its signature holds (nothing altered) and whether the phone or email hash it sends is the
 * lead's. Declared by engine/sale/certificateRoute.ts (signed like a return, JSON of at most 1 KB). 200 the answer; 401 unknown buyer
 * or bad signature; 404 no such certificate (never issued, or past its retention); 503 kept but not readable now (its lead key is not configured).
 */
import { verifyForBuyer } from '../../../engine/leads/certificate/buyerApi';
import { certificateRoute } from '../../../engine/sale/certificateRoute';

export const config = { api: { bodyParser: false } };

export default certificateRoute((db, buyer, body, now) => verifyForBuyer(db, buyer.id, body.certificateId, body, now));
