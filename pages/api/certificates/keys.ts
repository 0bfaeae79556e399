/**
 * The consent certificates' public keys (engine/leads/certificate/keys.ts), served for the front
 * door's /.well-known/loansites-certificate-keys.json on every brand's host: a JSON Web Key Set,
 * the current key first, the keys of earlier lead keys after it (so older certificates verify).
 */
import { route } from '../../../engine/http/route';
import { wellKnownKeys } from '../../../engine/leads/certificate/keys';

export default route({ methods: ['GET', 'HEAD'] }, async () => ({
  status: 200,
  body: wellKnownKeys(),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
