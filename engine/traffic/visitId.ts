/**
 * Visit ids the server issues: "v" + 16 hex digits of randomness + 16 hex digits of an HMAC
 * over those and the brand. The browser gets one in the answer to its visit's first POST
 * /api/events (pages stay cacheable: nothing of the visit is in the HTML) and sends it back with
 * every later batch and with the lead; an id the server did not issue, or one issued for another
 * brand, does not verify. The same shape as before ("v" + 32 hex digits), so stored rows, the
 * lead's visit id and the schemas keep their format.
 *
 * The key is derived from the lead keyring (engine/keys/sealing.ts), like the contact hashes:
 * the embedded development key works with no configuration, and every instance of a cluster,
 * sharing LEADS_ENCRYPTION_KEYS, verifies the others' ids. An id stays valid while the key it
 * was made under is in the keyring, so a key rotation does not cut visits in progress.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { leadKeyring, type LeadKeyring } from '../keys/sealing';

export const VISIT_ID_PATTERN = /^v([0-9a-f]{16})([0-9a-f]{16})$/;

const visitKeyOf = (leadKey: Buffer): Buffer => createHmac('sha256', leadKey).update('loansites visit ids v1').digest();

const macOf = (key: Buffer, nonce: string, brand: string): string => createHmac('sha256', key).update(`visit:${nonce}:${brand}`).digest('hex').slice(0, 16);

/** A new visit id for `brand`. */
export function issueVisitId(brand: string, ring: LeadKeyring = leadKeyring()): string {
  const nonce = randomBytes(8).toString('hex');
  return `v${nonce}${macOf(visitKeyOf(ring.current.key), nonce, brand)}`;
}

/** Whether `id` was issued by this site (any key of the keyring) for `brand`. */
export function verifyVisitId(id: string, brand: string, ring: LeadKeyring = leadKeyring()): boolean {
  const m = VISIT_ID_PATTERN.exec(id);
  if (!m) return false;
  const given = Buffer.from(m[2]!);
  for (const key of ring.byId.values()) {
    if (timingSafeEqual(Buffer.from(macOf(visitKeyOf(key), m[1]!, brand)), given)) return true;
  }
  return false;
}
