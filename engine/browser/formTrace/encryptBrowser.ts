/**
 * Seals a form trace in the browser (wire format: ./format.ts).
 *
 * WebCrypto (`crypto.subtle`) when the page has it. Browsers hide `crypto.subtle` outside a
 * secure context (e.g. a plain-http `test123.` host), and then node-forge seals the same
 * bytes. forge (~32 KB gzip) sits behind a dynamic import, so only pages without WebCrypto
 * ever download it; the WebCrypto path costs about 2 KB gzip.
 */
import {
  FORM_TRACE_AES_KEY_BYTES,
  FORM_TRACE_IV_BYTES,
  FormTraceError,
  bytesToBase64,
  encodeFormTrace,
  fitFormTrace,
  joinData,
  publicKeyDer,
  type FormTrace,
  type FormTraceEnvelope,
} from './format';

/** The two steps of sealing, as either engine does them. */
export interface SealInput {
  /** DER SubjectPublicKeyInfo of the server's RSA key. */
  spki: Uint8Array<ArrayBuffer>;
  aesKey: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  plaintext: Uint8Array<ArrayBuffer>;
}
export interface Sealed {
  /** RSA-OAEP-SHA-256 of aesKey. */
  wrappedKey: Uint8Array;
  /** AES-256-GCM ciphertext followed by its 16-byte tag. */
  ciphertextAndTag: Uint8Array;
}

export interface EncryptFormTraceOptions {
  /**
   * The WebCrypto to seal with. Default: `globalThis.crypto.subtle` (undefined outside a secure
   * context). `null` forces the node-forge path, as a non-secure page would take.
   */
  subtle?: SubtleCrypto | null;
  /** Source of random bytes for the AES key and iv. Default: `crypto.getRandomValues`. Tests pin it. */
  randomBytes?: (length: number) => Uint8Array<ArrayBuffer>;
}

/** Which engine seals: WebCrypto when there is a `subtle` and a random source, else node-forge. */
export type FormTraceEngine = 'webcrypto' | 'forge';

export function formTraceEngine(options: EncryptFormTraceOptions = {}): FormTraceEngine {
  const subtle = options.subtle === undefined ? globalThis.crypto?.subtle : options.subtle;
  return subtle && (options.randomBytes || hasWebRandom()) ? 'webcrypto' : 'forge';
}

const hasWebRandom = (): boolean => typeof globalThis.crypto?.getRandomValues === 'function';
const webRandomBytes = (length: number): Uint8Array<ArrayBuffer> => globalThis.crypto.getRandomValues(new Uint8Array(length));

/** AES-256-GCM and RSA-OAEP-SHA-256 with WebCrypto. */
export async function sealWithWebCrypto(subtle: SubtleCrypto, { spki, aesKey, iv, plaintext }: SealInput): Promise<Sealed> {
  let rsaKey: CryptoKey;
  try {
    rsaKey = await subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  } catch (err) {
    throw new FormTraceError('public-key', `The form trace public key is not an RSA public key: ${(err as Error).message}`);
  }
  const gcmKey = await subtle.importKey('raw', aesKey, { name: 'AES-GCM' }, false, ['encrypt']);
  const [wrappedKey, ciphertextAndTag] = await Promise.all([
    subtle.encrypt({ name: 'RSA-OAEP' }, rsaKey, aesKey),
    subtle.encrypt({ name: 'AES-GCM', iv, tagLength: 128 }, gcmKey, plaintext),
  ]);
  return { wrappedKey: new Uint8Array(wrappedKey), ciphertextAndTag: new Uint8Array(ciphertextAndTag) };
}

/**
 * `{key, data}` for `POST /api/trace`: the trace (fitted to the size cap, see fitFormTrace)
 * sealed for the holder of `publicKeyPem`'s private key. Throws FormTraceError 'public-key'
 * for a bad key; the caller logs and drops failures (SPEC §8: trace errors are logged only).
 */
export async function encryptFormTrace(trace: FormTrace, publicKeyPem: string, options: EncryptFormTraceOptions = {}): Promise<FormTraceEnvelope> {
  const plaintext = encodeFormTrace(fitFormTrace(trace));
  const spki = publicKeyDer(publicKeyPem);
  if (formTraceEngine(options) === 'webcrypto') {
    const random = options.randomBytes ?? webRandomBytes;
    const subtle = (options.subtle ?? globalThis.crypto.subtle)!;
    const iv = random(FORM_TRACE_IV_BYTES);
    return envelope(iv, await sealWithWebCrypto(subtle, { spki, aesKey: random(FORM_TRACE_AES_KEY_BYTES), iv, plaintext }));
  }
  const forge = await import('./encryptForge');
  const random = options.randomBytes ?? (hasWebRandom() ? webRandomBytes : forge.forgeRandomBytes);
  const iv = random(FORM_TRACE_IV_BYTES);
  return envelope(iv, forge.sealWithForge({ spki, aesKey: random(FORM_TRACE_AES_KEY_BYTES), iv, plaintext }));
}

const envelope = (iv: Uint8Array, { wrappedKey, ciphertextAndTag }: Sealed): FormTraceEnvelope => ({
  key: bytesToBase64(wrappedKey),
  data: bytesToBase64(joinData(iv, ciphertextAndTag)),
});
