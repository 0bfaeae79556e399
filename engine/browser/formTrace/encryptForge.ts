/**
 * The node-forge sealer, for pages without `crypto.subtle` (non-secure contexts). Loaded only
 * by encryptBrowser's dynamic import, so it is its own chunk. It imports just the forge parts
 * it uses (≈32 KB gzip instead of ≈80 KB for all of node-forge): the shared forge object,
 * ASN.1 (to read the SPKI key), RSA with PKCS#1 OAEP, AES with GCM, SHA-256.
 */
import forge from 'node-forge/lib/forge.js';
import 'node-forge/lib/asn1.js';
import 'node-forge/lib/rsa.js';
import 'node-forge/lib/aes.js';
import 'node-forge/lib/sha256.js';
import { FormTraceError } from './format';
import type { SealInput, Sealed } from './encryptBrowser';

const toBinary = (bytes: Uint8Array): string => forge.util.binary.raw.encode(bytes);
const fromBinary = (binary: string): Uint8Array => forge.util.binary.raw.decode(binary);

/** Random bytes from forge's PRNG (seeded by the browser), for browsers without getRandomValues. */
export const forgeRandomBytes = (length: number): Uint8Array<ArrayBuffer> => new Uint8Array(fromBinary(forge.random.getBytesSync(length)));

function rsaPublicKey(spki: Uint8Array): forge.pki.rsa.PublicKey {
  try {
    return forge.pki.publicKeyFromAsn1(forge.asn1.fromDer(toBinary(spki)));
  } catch (err) {
    throw new FormTraceError('public-key', `The form trace public key is not an RSA public key: ${(err as Error).message}`);
  }
}

/** The same bytes as sealWithWebCrypto: RSA-OAEP (SHA-256, MGF1-SHA-256) and AES-256-GCM, 128-bit tag. */
export function sealWithForge({ spki, aesKey, iv, plaintext }: SealInput): Sealed {
  const publicKey = rsaPublicKey(spki);
  const wrappedKey = publicKey.encrypt(toBinary(aesKey), 'RSA-OAEP', { md: forge.md.sha256.create(), mgf1: { md: forge.md.sha256.create() } });
  const cipher = forge.cipher.createCipher('AES-GCM', toBinary(aesKey));
  cipher.start({ iv: toBinary(iv), tagLength: 128 });
  cipher.update(forge.util.createBuffer(toBinary(plaintext)));
  cipher.finish();
  return { wrappedKey: fromBinary(wrappedKey), ciphertextAndTag: fromBinary(cipher.output.getBytes() + cipher.mode.tag.getBytes()) };
}
