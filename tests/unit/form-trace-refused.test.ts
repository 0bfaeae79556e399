/**
 * POST /api/trace (the real route, over a real SQLite file) refuses a well-sealed trace whose
 * plaintext is hostile JSON with a 400 that says why, and stores nothing: bodies nested past the
 * depth cap (which used to stop the server's JSON.stringify with a 500, or be stored as they
 * were), and a key given twice in one object, which the outer bodies of every route refuse too.
 * A trace nested up to the cap is stored.
 */
import { generateKeyPairSync, randomBytes, webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TRACE_MAX_DEPTH } from '../../engine/leads/formTrace';
import { sealWithWebCrypto } from '../../engine/browser/formTrace/encryptBrowser';
import { bytesToBase64, publicKeyDer } from '../../engine/browser/formTrace/format';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer(
    { LEADS_ENCRYPTION_KEY: 'f'.repeat(64), FORM_TRACE_PRIVATE_KEY: keys.privateKey, RATE_LIMIT_FORM_TRACE: '100' },
    '/api/trace',
  );
  db = openStore({ url: '', file: server.dbFile });
  await migrateStore(db);
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

/** Any plaintext, sealed for the server's key as a browser would (the JSON is not checked here). */
async function sendPlaintext(plaintext: string) {
  const iv = new Uint8Array(randomBytes(12));
  const sealed = await sealWithWebCrypto(webcrypto.subtle as SubtleCrypto, {
    spki: publicKeyDer(keys.publicKey),
    aesKey: new Uint8Array(randomBytes(32)),
    iv,
    plaintext: new TextEncoder().encode(plaintext),
  });
  const envelope = { key: bytesToBase64(sealed.wrappedKey), data: bytesToBase64(new Uint8Array([...iv, ...sealed.ciphertextAndTag])) };
  return post(server.port, JSON.stringify(envelope), { path: '/api/trace' });
}

const stored = async () =>
  Number(
    (
      await db
        .selectFrom('form_traces')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A trace whose request body is `levels` arrays, one inside the other: the plaintext nests `levels + 2` deep. */
const nestedBody = (levels: number) =>
  `{"clientId":"c","type":"installment","request":{"url":"https://x.example/y","search":{},"body":${'['.repeat(levels)}${']'.repeat(levels)}},"response":{"status":200,"body":null}}`;

describe('bodies nested past the cap', () => {
  it.each([20_000, 3_000, FORM_TRACE_MAX_DEPTH - 1])('a request body %i arrays deep: 400 with the reason and where, nothing stored', async (levels) => {
    const plaintext = nestedBody(levels);
    expect(Buffer.byteLength(plaintext)).toBeLessThan(64 * 1024);
    const before = await stored();
    const res = await sendPlaintext(plaintext);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The form trace could not be opened (trace)');
    expect(res.json.problems).toEqual([expect.stringMatching(new RegExp(`^/request/body(/0)*: nested more than ${FORM_TRACE_MAX_DEPTH} levels deep`))]);
    expect(await stored()).toBe(before);
  });

  it('a trace nested exactly to the cap is stored', async () => {
    const before = await stored();
    const res = await sendPlaintext(nestedBody(FORM_TRACE_MAX_DEPTH - 2));
    expect(res.status).toBe(201);
    expect(res.json.id).toMatch(/^ft/);
    expect(await stored()).toBe(before + 1);
  });
});

describe('a key given twice in one object', () => {
  it.each([
    [
      'the client id',
      '{"clientId":"c","clientId":"d","type":"installment","request":{"url":"https://x.example/y","search":{},"body":null},"response":{"status":200,"body":null}}',
      '/clientId',
    ],
    [
      'a field of the posted body, once escaped',
      '{"clientId":"c","type":"installment","request":{"url":"https://x.example/y","search":{},"body":{"amount":500,"\\u0061mount":5000}},"response":{"status":200,"body":null}}',
      '/request/body/amount',
    ],
    [
      'a query parameter',
      '{"clientId":"c","type":"installment","request":{"url":"https://x.example/y","search":{"v1":"a","v1":"b"},"body":null},"response":{"status":200,"body":null}}',
      '/request/search/v1',
    ],
  ])('%s: 400 with where it is, nothing stored', async (_what, plaintext, pointer) => {
    const before = await stored();
    const res = await sendPlaintext(plaintext);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The form trace could not be opened (trace)');
    expect(res.json.problems).toEqual([`${pointer}: the key is given twice`]);
    expect(await stored()).toBe(before);
  });
});
