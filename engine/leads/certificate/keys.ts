/**
 * The certificates' Ed25519 signing keys, one per lead key (engine/keys/sealing.ts): each is
 * derived from its lead key with HKDF, so a certificate key rotates exactly when the lead key
 * does (LEADS_ENCRYPTION_KEYS, current first) and every instance that shares the database signs
 * with the same key without another secret to distribute. The current lead key's certificate key
 * signs; the older ones stay published, so a certificate signed before a rotation still verifies.
 * A key id is 8 hex digits of the SHA-256 of the raw public key: a buyer can check it from the
 * published key itself.
 */
import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import { leadKeyring, type LeadKeyring } from '../../keys/sealing';

export interface CertificateKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** the raw 32-byte public key, base64url (a JWK's `x`) */
  x: string;
}

export interface CertificateKeys {
  current: CertificateKey;
  /** every published key, current first */
  all: readonly CertificateKey[];
  byKid: ReadonlyMap<string, CertificateKey>;
}

// PKCS #8 wrapping of a 32-byte Ed25519 seed (RFC 8410)
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export function certificateKeyOf(leadKey: Buffer): CertificateKey {
  const seed = Buffer.from(hkdfSync('sha256', leadKey, Buffer.alloc(0), 'loansites consent certificate signing key', 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { kid: createHash('sha256').update(raw).digest('hex').slice(0, 8), privateKey, publicKey, x: raw.toString('base64url') };
}

const cache = new WeakMap<LeadKeyring, CertificateKeys>();

export function certificateKeys(ring: LeadKeyring = leadKeyring()): CertificateKeys {
  const known = cache.get(ring);
  if (known) return known;
  const all = [ring.current.key, ...[...ring.byId.values()].filter((k) => k !== ring.current.key)].map(certificateKeyOf);
  const keys = { current: all[0]!, all, byKid: new Map(all.map((k) => [k.kid, k])) };
  cache.set(ring, keys);
  return keys;
}

/** The well-known keys document (a JSON Web Key Set, RFC 7517/8037): what a buyer verifies a certificate's signature with. */
export function wellKnownKeys(keys: CertificateKeys = certificateKeys()) {
  return {
    keys: keys.all.map((k, i) => ({
      kty: 'OKP',
      crv: 'Ed25519',
      alg: 'EdDSA',
      use: 'sig',
      kid: k.kid,
      x: k.x,
      status: i === 0 ? 'current' : 'retired',
    })),
  };
}
