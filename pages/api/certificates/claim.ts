/**
 * POST /api/certificates/claim — a buyer records that it holds a consent certificate's lead
 * (engine/leads/certificate/buyerApi.ts): it must send the lead's phone or email hash; the
 * certificate is then kept at least CERTIFICATE_RETENTION_DAYS from the claim. Declared by engine/sale/certificateRoute.ts. 200 the claim (the
 * same claim again: the first claim's time); 401 unknown buyer or bad signature; 403 no hash, or a
 * hash that is not the lead's; 404 no such certificate; 503 kept but not readable now.
 */
import { claimForBuyer } from '../../../engine/leads/certificate/buyerApi';
import { certificateRoute } from '../../../engine/sale/certificateRoute';

export const config = { api: { bodyParser: false } };

export default certificateRoute((db, buyer, body, now) => claimForBuyer(db, buyer.id, body.certificateId, body, now));
