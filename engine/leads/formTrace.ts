/**
 * Opens a form trace on the server (wire format: ./format.ts) with Node's crypto: checks the
 * envelope, unwraps the one-time key with the RSA private key (OAEP, SHA-256), decrypts and
 * authenticates the data (AES-256-GCM), and checks the plaintext as any request body is checked
 * (no key twice in one object, a depth cap, its schema). Every failure is a FormTraceError whose
 * `code` says which step refused it.
 */
import { constants, createDecipheriv, createPrivateKey, privateDecrypt, type KeyObject } from 'node:crypto';
import envelopeSchema from '../../schemas/api/form-trace-envelope.schema.json' with { type: 'json' };
import traceSchema from '../../schemas/api/form-trace.schema.json' with { type: 'json' };
import { validatorFor } from '../http/api';
import { jsonShapeProblem } from '../http/jsonKeys';
import { toProblems } from '../validate/problems';
import { FORM_TRACE_AES_KEY_BYTES, FORM_TRACE_TAG_BYTES, FormTraceError, splitData, type FormTrace, type FormTraceEnvelope } from '../browser/formTrace/format';

const problemsOf = (errors: Parameters<typeof toProblems>[0]): string[] => toProblems(errors).map((p) => `${p.pointer || '/'}: ${p.message}`);

/** The envelope, checked against schemas/api/form-trace-envelope.schema.json. */
export function checkEnvelope(body: unknown): FormTraceEnvelope {
  const validate = validatorFor<FormTraceEnvelope>(envelopeSchema);
  if (!validate(body)) throw new FormTraceError('envelope', 'The form trace envelope is not valid', problemsOf(validate.errors));
  return body;
}

/**
 * How deep a trace may nest objects and arrays, its own two levels (the trace, its request or
 * response) included. The posted body and the answer it records have no schema: a lead post is a
 * flat form with a nested record or two, and a lender's answer rarely passes ten levels, so 64
 * leaves room for any real one. JSON.parse takes nesting as deep as 64 KB can hold, but whatever
 * reads the trace afterwards recurses (JSON.stringify when it is stored, the console's view):
 * a few thousand levels run it out of stack.
 */
export const FORM_TRACE_MAX_DEPTH = 64;

/** A decrypted plaintext, parsed and checked against schemas/api/form-trace.schema.json. */
export function parseFormTrace(plaintext: Uint8Array): FormTrace {
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
    value = JSON.parse(text);
  } catch (err) {
    throw new FormTraceError('json', `The decrypted form trace is not UTF-8 JSON: ${(err as Error).message}`);
  }
  // Anyone with the public key can seal a trace: it is refused where a request body would be.
  const shape = jsonShapeProblem(text, FORM_TRACE_MAX_DEPTH);
  if (shape?.problem === 'repeated') throw new FormTraceError('trace', 'The decrypted form trace is not valid', [`${shape.at}: the key is given twice`]);
  if (shape?.problem === 'deep')
    throw new FormTraceError('trace', 'The decrypted form trace is not valid', [`${shape.at || '/'}: nested more than ${FORM_TRACE_MAX_DEPTH} levels deep`]);
  const validate = validatorFor<FormTrace>(traceSchema);
  if (!validate(value)) throw new FormTraceError('trace', 'The decrypted form trace is not valid', problemsOf(validate.errors));
  return value;
}

const privateKeys = new Map<string, KeyObject>();

/** A private key object, parsed once per PEM. */
function privateKeyObject(key: string | KeyObject): KeyObject {
  if (typeof key !== 'string') return key;
  let object = privateKeys.get(key);
  if (!object) privateKeys.set(key, (object = createPrivateKey(key.replace(/\\n/g, '\n'))));
  return object;
}

/** The one-time AES key: RSA-OAEP-SHA-256 decryption of `wrapped`, which must be one modulus long. */
export function unwrapAesKey(wrapped: Buffer, privateKey: KeyObject): Buffer {
  const modulusBytes = (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) / 8;
  if (wrapped.length !== modulusBytes) {
    throw new FormTraceError('key-size', `The trace key is ${wrapped.length} bytes; this server's RSA key needs exactly ${modulusBytes}`);
  }
  let aesKey: Buffer;
  try {
    aesKey = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, wrapped);
  } catch {
    throw new FormTraceError(
      'key-unwrap',
      "The trace key could not be decrypted with this server's private key: it was altered, or sealed with another public key",
    );
  }
  if (aesKey.length !== FORM_TRACE_AES_KEY_BYTES) {
    throw new FormTraceError('aes-key-size', `The trace key decrypted to ${aesKey.length} bytes; an AES-256 key is ${FORM_TRACE_AES_KEY_BYTES}`);
  }
  return aesKey;
}

/** AES-256-GCM decryption of `data` (iv ‖ ciphertext ‖ tag); throws 'auth' unless the tag verifies. */
export function openData(data: Buffer, aesKey: Buffer): Buffer {
  const { iv, ciphertext, tag } = splitData(data);
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey, iv, { authTagLength: FORM_TRACE_TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new FormTraceError('auth', 'The trace data failed its integrity check (AES-GCM tag): it was altered or truncated');
  }
}

/**
 * The trace inside `body` (the parsed JSON of `POST /api/trace`), opened with the server's
 * private key (PEM, `\n` escapes allowed, or a KeyObject). Throws FormTraceError on anything
 * that is not an intact, valid trace sealed for this key.
 */
export function decryptFormTrace(body: unknown, privateKey: string | KeyObject): FormTrace {
  const { key, data } = checkEnvelope(body);
  const aesKey = unwrapAesKey(Buffer.from(key, 'base64'), privateKeyObject(privateKey));
  return parseFormTrace(openData(Buffer.from(data, 'base64'), aesKey));
}
