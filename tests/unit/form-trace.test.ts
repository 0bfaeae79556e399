import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import envelopeSchema from '../../schemas/api/form-trace-envelope.schema.json' with { type: 'json' };
import { decryptFormTrace } from '../../engine/leads/formTrace';
import { encryptFormTrace, formTraceEngine, sealWithWebCrypto } from '../../engine/browser/formTrace/encryptBrowser';
import { sealWithForge } from '../../engine/browser/formTrace/encryptForge';
import {
  FORM_TRACE_MAX_DATA_BASE64,
  FORM_TRACE_MAX_KEY_BASE64,
  FORM_TRACE_MAX_PLAINTEXT_BYTES,
  FormTraceError,
  base64Length,
  base64ToBytes,
  bytesToBase64,
  encodeFormTrace,
  fitFormTrace,
  publicKeyDer,
  splitData,
  type FormTrace,
  type FormTraceEnvelope,
} from '../../engine/browser/formTrace/format';

const subtle = webcrypto.subtle as SubtleCrypto;

const trace: FormTrace = {
  clientId: '1234567890.1712345678',
  type: 'installment',
  request: {
    url: 'https://leads.example/api/post?campaign=theme2&v1=landing-page',
    search: { campaign: 'theme2', v1: 'landing-page' },
    body: { first_name: 'Zoë', requested_amount: 1500, consent: true, nested: { list: [1, 'two', null] } },
  },
  response: { status: 201, body: { accepted: true, redirect: 'https://lender.example/offer/42' } },
};

const pair = (bits: number) =>
  generateKeyPairSync('rsa', { modulusLength: bits, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
let keys: { publicKey: string; privateKey: string };
let otherKeys: { publicKey: string; privateKey: string };

beforeAll(() => {
  keys = pair(3072);
  otherKeys = pair(2048);
});

/** Deterministic "random" bytes, so two engines can be compared byte for byte. */
const counterBytes = () => {
  let next = 0;
  return (n: number) => Uint8Array.from({ length: n }, () => next++ & 0xff);
};

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(FormTraceError);
    return (err as FormTraceError).code;
  }
  throw new Error('expected a FormTraceError, nothing was thrown');
};

const flipByte = (b64: string, index: number): string => {
  const bytes = base64ToBytes(b64);
  const at = index < 0 ? bytes.length + index : index;
  bytes[at] = bytes[at]! ^ 0x01;
  return bytesToBase64(bytes);
};

describe('form trace round trip (Node)', () => {
  it('WebCrypto path: encrypts with crypto.subtle and decrypts with node:crypto', async () => {
    expect(formTraceEngine({ subtle })).toBe('webcrypto');
    const envelope = await encryptFormTrace(trace, keys.publicKey, { subtle });
    expect(Object.keys(envelope).sort()).toEqual(['data', 'key']);
    expect(base64ToBytes(envelope.key)).toHaveLength(384);
    expect(decryptFormTrace(envelope, keys.privateKey)).toEqual(trace);
  });

  it('node-forge path (subtle: null, as in a non-secure page) decrypts the same way', async () => {
    expect(formTraceEngine({ subtle: null })).toBe('forge');
    const envelope = await encryptFormTrace(trace, keys.publicKey, { subtle: null });
    expect(decryptFormTrace(envelope, keys.privateKey)).toEqual(trace);
  });

  it('forge and WebCrypto produce the same data bytes for the same AES key and iv', async () => {
    const input = { spki: publicKeyDer(keys.publicKey), aesKey: counterBytes()(32), iv: counterBytes()(12), plaintext: encodeFormTrace(trace) };
    const [web, forge] = [await sealWithWebCrypto(subtle, input), sealWithForge(input)];
    expect(bytesToBase64(forge.ciphertextAndTag)).toBe(bytesToBase64(web.ciphertextAndTag));
    expect(forge.wrappedKey).toHaveLength(web.wrappedKey.length);
    const viaWeb = await encryptFormTrace(trace, keys.publicKey, { subtle, randomBytes: counterBytes() });
    const viaForge = await encryptFormTrace(trace, keys.publicKey, { subtle: null, randomBytes: counterBytes() });
    expect(viaForge.data).toBe(viaWeb.data);
    expect(viaForge.key).not.toBe(viaWeb.key); // OAEP is randomised: a fresh seed each time
  });

  it('accepts PEM keys written with \\n escapes (as in an env variable)', async () => {
    const escape = (pem: string) => pem.trim().replace(/\n/g, '\\n');
    const envelope = await encryptFormTrace(trace, escape(keys.publicKey), { subtle });
    expect(decryptFormTrace(envelope, escape(keys.privateKey))).toEqual(trace);
  });

  it('a fresh AES key and iv each time', async () => {
    const [a, b] = [await encryptFormTrace(trace, keys.publicKey), await encryptFormTrace(trace, keys.publicKey)];
    expect(a.data.slice(0, 16)).not.toBe(b.data.slice(0, 16));
  });
});

describe('decryptFormTrace refuses, with a code per failure', () => {
  let good: FormTraceEnvelope;
  beforeAll(async () => {
    good = await encryptFormTrace(trace, keys.publicKey, { subtle });
  });

  it.each([
    ['ciphertext', 20],
    ['iv', 0],
    ['tag', -1],
  ])('tampered %s → auth', (_part, index) => {
    expect(codeOf(() => decryptFormTrace({ ...good, data: flipByte(good.data, index) }, keys.privateKey))).toBe('auth');
  });

  it('truncated data (tag cut off) → auth', () => {
    const bytes = base64ToBytes(good.data);
    expect(codeOf(() => decryptFormTrace({ ...good, data: bytesToBase64(bytes.subarray(0, bytes.length - 4)) }, keys.privateKey))).toBe('auth');
  });

  it('tampered key → key-unwrap', () => {
    expect(codeOf(() => decryptFormTrace({ ...good, key: flipByte(good.key, 100) }, keys.privateKey))).toBe('key-unwrap');
  });

  it('sealed for another key pair → key-unwrap (same modulus size) or key-size (different size)', async () => {
    const other3072 = pair(3072);
    expect(codeOf(() => decryptFormTrace(good, other3072.privateKey))).toBe('key-unwrap');
    expect(codeOf(() => decryptFormTrace(good, otherKeys.privateKey))).toBe('key-size');
  });

  it('a key that decrypts to something other than 32 bytes → aes-key-size', async () => {
    const rsa = await subtle.importKey('spki', publicKeyDer(keys.publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const wrapped16 = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, rsa, new Uint8Array(16)));
    expect(codeOf(() => decryptFormTrace({ ...good, key: bytesToBase64(wrapped16) }, keys.privateKey))).toBe('aes-key-size');
  });

  it.each([
    ['not base64', { data: 'not base64!'.repeat(8) }, /\/data: .* expected standard base64/],
    ['base64 with a space', { data: 'QUJD REVG'.repeat(8) }, /\/data: .* expected standard base64/],
    ['oversized data', { data: 'A'.repeat(FORM_TRACE_MAX_DATA_BASE64 + 4) }, /\/data: is too long: at most 87420/],
    ['oversized key', { key: 'A'.repeat(FORM_TRACE_MAX_KEY_BASE64 + 4) }, /\/key: is too long: at most 684/],
    ['an extra property', { engine: 'forge' }, /unknown property "engine"/],
    ['a number for data', { data: 42 }, /\/data: must be a string, not a number/],
  ])('%s → envelope', (_what, change, message) => {
    const err = (() => {
      try {
        decryptFormTrace({ ...good, ...change }, keys.privateKey);
      } catch (e) {
        return e as FormTraceError;
      }
    })();
    expect(err?.code).toBe('envelope');
    expect(err?.problems).toHaveLength(1);
    expect(err?.message).toMatch(message);
  });

  it('not an object, or missing data → envelope, naming what is missing', () => {
    expect(codeOf(() => decryptFormTrace('hello', keys.privateKey))).toBe('envelope');
    expect(() => decryptFormTrace({ key: good.key }, keys.privateKey)).toThrow(/missing required property "data"/);
  });

  it('a well-sealed plaintext that is not JSON → json', async () => {
    const input = {
      spki: publicKeyDer(keys.publicKey),
      aesKey: counterBytes()(32),
      iv: counterBytes()(12),
      plaintext: new TextEncoder().encode('{"clientId":'),
    };
    const sealed = await sealWithWebCrypto(subtle, input);
    const envelope = { key: bytesToBase64(sealed.wrappedKey), data: bytesToBase64(new Uint8Array([...input.iv, ...sealed.ciphertextAndTag])) };
    expect(codeOf(() => decryptFormTrace(envelope, keys.privateKey))).toBe('json');
  });

  it.each([
    ['an unknown field', { ...trace, extra: 1 }],
    ['a bad type', { ...trace, type: 'Installment Loans' }],
    ['a status out of range', { ...trace, response: { ...trace.response, status: 600 } }],
    ['search with a number', { ...trace, request: { ...trace.request, search: { a: 1 } } }],
    ['no response', { clientId: '', type: 'title', request: trace.request }],
  ])('a well-sealed plaintext with %s → trace, with the pointer', async (_what, value) => {
    const envelope = await encryptFormTrace(value as FormTrace, keys.publicKey, { subtle });
    let err: FormTraceError | undefined;
    try {
      decryptFormTrace(envelope, keys.privateKey);
    } catch (e) {
      err = e as FormTraceError;
    }
    expect(err?.code).toBe('trace');
    expect(err?.message).toMatch(/not valid: \/[a-z]*/);
  });
});

describe('format helpers', () => {
  it('the envelope schema allows exactly the sizes format.ts computes', () => {
    expect(envelopeSchema.properties.key.maxLength).toBe(FORM_TRACE_MAX_KEY_BASE64);
    expect(envelopeSchema.properties.key.minLength).toBe(base64Length(2048 / 8));
    expect(envelopeSchema.properties.data.maxLength).toBe(FORM_TRACE_MAX_DATA_BASE64);
    expect(envelopeSchema.properties.data.minLength).toBe(base64Length(12 + 16));
  });

  it('fitFormTrace leaves small traces alone and truncates big bodies to fit the cap', async () => {
    expect(fitFormTrace(trace)).toBe(trace);
    const big: FormTrace = { ...trace, response: { status: 200, body: { html: 'é'.repeat(FORM_TRACE_MAX_PLAINTEXT_BYTES) } } };
    const fitted = fitFormTrace(big);
    expect(new TextEncoder().encode(JSON.stringify(fitted)).length).toBeLessThanOrEqual(FORM_TRACE_MAX_PLAINTEXT_BYTES);
    expect(fitted.response.body).toMatchObject({ truncated: true, start: expect.stringMatching(/^\{"html":"éé/) });
    expect(fitted.request).toMatchObject({ url: trace.request.url, search: trace.request.search });
    const envelope = await encryptFormTrace(big, keys.publicKey, { subtle });
    expect(decryptFormTrace(envelope, keys.privateKey)).toEqual(fitted);
  });

  it('encodeFormTrace refuses a plaintext over the cap', () => {
    expect(codeOf(() => encodeFormTrace({ ...trace, clientId: 'x'.repeat(FORM_TRACE_MAX_PLAINTEXT_BYTES) }))).toBe('too-large');
  });

  it('splitData refuses data shorter than iv + tag', () => {
    expect(codeOf(() => splitData(new Uint8Array(27)))).toBe('data-size');
    expect(splitData(new Uint8Array(28)).ciphertext).toHaveLength(0);
  });

  it('a PEM that is not a public key → public-key, on both paths', async () => {
    expect(codeOf(() => publicKeyDer(keys.privateKey))).toBe('public-key');
    const notRsa = '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----';
    await expect(encryptFormTrace(trace, notRsa, { subtle })).rejects.toMatchObject({ code: 'public-key' });
    await expect(encryptFormTrace(trace, notRsa, { subtle: null })).rejects.toMatchObject({ code: 'public-key' });
  });

  it('base64 helpers round-trip every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(base64ToBytes(bytesToBase64(all))).toEqual(all);
    expect(bytesToBase64(all)).toBe(Buffer.from(all).toString('base64'));
  });
});
