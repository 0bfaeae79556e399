/**
 * The encrypted form trace: what the apply page sends to `POST /api/trace` after the lead
 * form has posted a lead (SPEC §4 "Form loading", §7 "Form trace").
 *
 * Wire format (the JSON body), version 1:
 *
 *   { "key": base64( RSA-OAEP(SHA-256, MGF1-SHA-256, no label)( aesKey ) ),
 *     "data": base64( iv ‖ ciphertext ‖ tag ) }
 *
 * - `aesKey`: 32 random bytes, used for this one trace only (AES-256).
 * - RSA key: the server's public key (SPKI PEM, RSA 3072 by default; 2048 to 4096 accepted),
 *   so `key` decodes to exactly the modulus length in bytes (384 for RSA 3072).
 * - `iv`: 12 random bytes; `ciphertext`: AES-256-GCM of the plaintext, no additional data,
 *   same length as the plaintext; `tag`: the 16-byte (128-bit) GCM tag.
 * - plaintext: UTF-8 JSON of a {@link FormTrace}, at most {@link FORM_TRACE_MAX_PLAINTEXT_BYTES}.
 * - base64: the standard alphabet (`+`, `/`) with `=` padding, no line breaks.
 *
 * WebCrypto's AES-GCM output is exactly `ciphertext ‖ tag`, so both browser paths (WebCrypto
 * and node-forge) and the Node decrypter agree byte for byte. Anyone holding the public key can
 * make a valid envelope: GCM proves the data was not altered after sealing, not who sealed it;
 * the server treats a decrypted trace as untrusted input (schema-checked, capped).
 *
 * Pure and dependency-free: imported by the browser bundle and by the server.
 */

/** Number of random bytes of the one-time AES-256 key. */
export const FORM_TRACE_AES_KEY_BYTES = 32;
/** Number of bytes of the AES-GCM initialisation vector at the start of `data`. */
export const FORM_TRACE_IV_BYTES = 12;
/** Number of bytes of the AES-GCM authentication tag at the end of `data`. */
export const FORM_TRACE_TAG_BYTES = 16;
/** Largest plaintext (UTF-8 JSON of a FormTrace) the server accepts: 64 KiB. */
export const FORM_TRACE_MAX_PLAINTEXT_BYTES = 64 * 1024;
/** Smallest and largest RSA modulus accepted, in bits; new pairs are RSA 3072. */
export const FORM_TRACE_MIN_RSA_BITS = 2048;
export const FORM_TRACE_MAX_RSA_BITS = 4096;

/** Characters of the base64 text of `bytes` bytes (with padding). */
export const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/** Longest `key` string: an RSA 4096 ciphertext (512 bytes) → 684 characters. */
export const FORM_TRACE_MAX_KEY_BASE64 = base64Length(FORM_TRACE_MAX_RSA_BITS / 8);
/** Longest `data` string: iv + 64 KiB ciphertext + tag → 87,420 characters. */
export const FORM_TRACE_MAX_DATA_BASE64 = base64Length(FORM_TRACE_IV_BYTES + FORM_TRACE_MAX_PLAINTEXT_BYTES + FORM_TRACE_TAG_BYTES);
/** A byte limit for the route's JSON body: both strings plus room for `{"key":"","data":""}` and spaces. */
export const FORM_TRACE_MAX_ENVELOPE_BYTES = FORM_TRACE_MAX_KEY_BASE64 + FORM_TRACE_MAX_DATA_BASE64 + 256;

/**
 * What the apply page captured of one lead post (schemas/api/form-trace.schema.json), and the
 * body of `POST /api/trace` that carries it sealed (schemas/api/form-trace-envelope.schema.json):
 * generated types, re-exported here beside the wire format.
 */
export type { FormTrace, FormTraceEnvelope, FormTraceRequest, FormTraceResponse } from '../../../schemas/api.types';
import type { FormTrace } from '../../../schemas/api.types';

/** What went wrong, one code per kind of failure, so a route or a log can tell them apart. */
export type FormTraceErrorCode =
  | 'public-key' // the PEM given to the encrypter is not an RSA public key
  | 'too-large' // the plaintext is over FORM_TRACE_MAX_PLAINTEXT_BYTES even after fitting
  | 'envelope' // the body is not {key, data} with base64 strings of allowed length
  | 'key-size' // `key` does not have the length of the server key's modulus
  | 'data-size' // `data` is shorter than iv + tag
  | 'key-unwrap' // RSA-OAEP decryption failed: `key` was altered, or sealed for another key pair
  | 'aes-key-size' // `key` decrypted, but not to a 32-byte AES key
  | 'auth' // the GCM tag did not verify: iv, ciphertext or tag was altered
  | 'json' // the plaintext is not UTF-8 JSON
  | 'trace'; // the plaintext is JSON but not a valid FormTrace

export class FormTraceError extends Error {
  constructor(
    readonly code: FormTraceErrorCode,
    message: string,
    readonly problems: string[] = [],
  ) {
    super(problems.length ? `${message}: ${problems.join('; ')}` : message);
    this.name = 'FormTraceError';
  }
}

const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

/** A body cut down to its first `chars` characters of JSON text, marked as truncated. */
export const truncatedBody = (body: unknown, chars: number): { truncated: true; length: number; start: string } => {
  const text = JSON.stringify(body) ?? '';
  return { truncated: true, length: text.length, start: text.slice(0, chars) };
};

/**
 * The trace as it will be sent: unchanged when its JSON fits the server's cap, otherwise with
 * the request and response bodies replaced by {@link truncatedBody} (each given half of what
 * is left, halved again until the whole fits). The other fields are small and kept.
 */
export function fitFormTrace(trace: FormTrace, maxBytes = FORM_TRACE_MAX_PLAINTEXT_BYTES): FormTrace {
  if (utf8Length(JSON.stringify(trace)) <= maxBytes) return trace;
  const withBodies = (request: unknown, response: unknown): FormTrace => ({
    ...trace,
    request: { ...trace.request, body: request },
    response: { ...trace.response, body: response },
  });
  let chars = Math.floor((maxBytes - utf8Length(JSON.stringify(withBodies(null, null)))) / 2);
  while (chars > 0) {
    const fitted = withBodies(truncatedBody(trace.request.body, chars), truncatedBody(trace.response.body, chars));
    if (utf8Length(JSON.stringify(fitted)) <= maxBytes) return fitted;
    chars = Math.floor(chars / 2);
  }
  return withBodies(null, null);
}

/** The plaintext bytes of a trace: UTF-8 JSON, refused above the cap. */
export function encodeFormTrace(trace: FormTrace): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(JSON.stringify(trace));
  if (bytes.length > FORM_TRACE_MAX_PLAINTEXT_BYTES) {
    throw new FormTraceError('too-large', `The form trace is ${bytes.length} bytes of JSON; at most ${FORM_TRACE_MAX_PLAINTEXT_BYTES} are accepted`);
  }
  return bytes;
}

/** Standard base64 of bytes (btoa exists in browsers and in Node ≥ 16). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes of standard base64 text; throws on anything else (atob's own check). */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The DER bytes (SubjectPublicKeyInfo) of a `-----BEGIN PUBLIC KEY-----` PEM. */
export function publicKeyDer(pem: string): Uint8Array<ArrayBuffer> {
  const match = /-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----/.exec(pem.replace(/\\n/g, '\n'));
  if (!match) throw new FormTraceError('public-key', 'The form trace public key is not a PEM "BEGIN PUBLIC KEY" block');
  return base64ToBytes(match[1]!.replace(/\s+/g, ''));
}

/** `data`'s bytes: iv ‖ ciphertext-and-tag (WebCrypto's and forge's output, tag last). */
export function joinData(iv: Uint8Array, ciphertextAndTag: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(iv.length + ciphertextAndTag.length);
  out.set(iv, 0);
  out.set(ciphertextAndTag, iv.length);
  return out;
}

/** `data`'s bytes split into iv, ciphertext and tag; refuses data too short to hold iv and tag. */
export function splitData(data: Uint8Array): { iv: Uint8Array; ciphertext: Uint8Array; tag: Uint8Array } {
  if (data.length < FORM_TRACE_IV_BYTES + FORM_TRACE_TAG_BYTES) {
    throw new FormTraceError(
      'data-size',
      `The trace data is ${data.length} bytes; it must hold at least a ${FORM_TRACE_IV_BYTES}-byte iv and a ${FORM_TRACE_TAG_BYTES}-byte tag`,
    );
  }
  return {
    iv: data.subarray(0, FORM_TRACE_IV_BYTES),
    ciphertext: data.subarray(FORM_TRACE_IV_BYTES, data.length - FORM_TRACE_TAG_BYTES),
    tag: data.subarray(data.length - FORM_TRACE_TAG_BYTES),
  };
}
