/**
 * The public intakes on PostgreSQL (the routes' own code over a real server) refuse a string with
 * a NUL or a lone surrogate (`"\ud800"` in JSON, which JSON.parse accepts) with a 400 that names
 * the field: PostgreSQL refuses a NUL in text (the request failed with a 500, a borrower's lead
 * with it) and stores a lone surrogate as U+FFFD. Other visitors' traces, leads and events are
 * stored as ever.
 */
import { generateKeyPairSync, randomBytes, webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealWithWebCrypto } from '../../engine/browser/formTrace/encryptBrowser';
import { bytesToBase64, publicKeyDer } from '../../engine/browser/formTrace/format';
import { openStore, type Store } from '../../engine/store/db';
import { sharedTrafficWriter } from '../../engine/traffic/writer';
import { leadRequest } from '../support/leadRequest';
import { startPostgres, type RunningPostgres } from '../support/postgres';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
let pg: RunningPostgres;
let server: TraceServer;
let db: Store;
beforeAll(async () => {
  pg = await startPostgres();
  server = await startTraceServer(
    {
      DATABASE_URL: pg.url,
      LEADS_ENCRYPTION_KEY: 'f'.repeat(64),
      FORM_TRACE_PRIVATE_KEY: keys.privateKey,
      RATE_LIMIT_FORM_TRACE: '1000',
      RATE_LIMIT_EVENTS: '1000',
      RATE_LIMIT_SESSION_TRACE: '1000',
      RATE_LIMIT_LEADS: '1000',
      RATE_LIMIT_OPT_OUT: '1000',
    },
    ['/api/trace/session', '/api/events', '/api/leads', '/api/opt-out', '/api/trace'],
  );
  db = openStore({ url: pg.url });
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await server?.close();
  await pg?.stop();
});

const UNTEXTUAL = [
  ['a NUL', 'a\u0000b', /contains a NUL character/],
  ['a lone high surrogate', 'a\ud800b', /contains half of a surrogate pair alone/],
  ['a lone low surrogate', '\udc00', /contains half of a surrogate pair alone/],
] as const;

let n = 0;
const traceBody = (extra: Record<string, string> = {}) => ({
  source1: 'spring',
  source2: '/payday-loans',
  clickId: 'ggabc',
  uuid: `cc${(++n).toString(16).padStart(32, '0')}`,
  ggClientId: '11.22',
  ...extra,
});

/** A form trace sealed for the server's key as a browser would. */
async function sendTrace(trace: object) {
  const iv = new Uint8Array(randomBytes(12));
  const sealed = await sealWithWebCrypto(webcrypto.subtle as SubtleCrypto, {
    spki: publicKeyDer(keys.publicKey),
    aesKey: new Uint8Array(randomBytes(32)),
    iv,
    plaintext: new TextEncoder().encode(JSON.stringify(trace)),
  });
  const envelope = { key: bytesToBase64(sealed.wrappedKey), data: bytesToBase64(new Uint8Array([...iv, ...sealed.ciphertextAndTag])) };
  return post(server.port, JSON.stringify(envelope), { path: '/api/trace' });
}
const formTrace = (clientId: string, value = 'x') => ({
  clientId,
  type: 'installment',
  request: { url: 'https://x.example/apply', search: { v1: value }, body: { firstName: value } },
  response: { status: 400, body: { error: value } },
});

describe.each(UNTEXTUAL)('%s', (_name, bad, says) => {
  it('in a form trace’s client id, stored beside the sealed trace, is refused (400, naming it); elsewhere in the trace it is sealed and stored', async () => {
    const refused = await sendTrace(formTrace(`1.${bad}`));
    expect(refused.status).toBe(400);
    expect(refused.json.problems).toEqual([expect.stringMatching(/^\/clientId: /)]);
    expect((await sendTrace(formTrace('1.2', bad))).status).toBe(201);
  });

  it.each(['source1', 'source2', 'clickId', 'ggClientId'])(
    'in a session trace’s %s is refused (400, naming it); the next visitor’s trace is stored',
    async (field) => {
      const refused = traceBody({ [field]: field === 'clickId' ? `gg${bad}` : bad });
      const res = await post(server.port, JSON.stringify(refused), { path: '/api/trace/session' });
      expect(res.status).toBe(400);
      expect(res.json.problems).toEqual([expect.stringMatching(new RegExp(`^/${field}: ${says.source}`))]);
      const next = traceBody();
      expect((await post(server.port, JSON.stringify(next), { path: '/api/trace/session' })).status).toBe(201);
      const stored = await db.selectFrom('session_traces').select('uuid').where('uuid', 'in', [refused.uuid, next.uuid]).execute();
      expect(stored).toEqual([{ uuid: next.uuid }]);
    },
  );

  it.each([
    ['/tracking/source', { tracking: { source: bad } }],
    ['/tracking/source2', { tracking: { source: 'spring', source2: bad } }],
    ['/tracking/clickId', { tracking: { source: 'spring', clickId: `gg${bad}` } }],
    ['/email', { email: `ana${bad}@example.org` }],
    ['/firstName', { firstName: `An${bad}a` }],
  ])('in a lead’s %s is refused (400, naming it), not a 500; the next borrower’s lead is stored', async (pointer, over) => {
    const res = await post(server.port, JSON.stringify(leadRequest(over)), { path: '/api/leads' });
    expect(res.status).toBe(400);
    expect(res.json.problems).toEqual([expect.stringMatching(new RegExp(`^${pointer}: ${says.source}`))]);
    expect((await post(server.port, JSON.stringify(leadRequest()), { path: '/api/leads' })).status).toBe(201);
  });

  it('in an opt-out’s email is refused (400, naming it)', async () => {
    const res = await post(server.port, JSON.stringify({ email: `ana${bad}@example.org` }), { path: '/api/opt-out' });
    expect(res.status).toBe(400);
    expect(res.json.problems).toEqual([expect.stringMatching(new RegExp(`^/email: ${says.source}`))]);
  });

  it('in a key of an event batch is refused (400, naming it)', async () => {
    const res = await post(server.port, `{"landing":{"path":"/","params":{"utm_${JSON.stringify(bad).slice(1, -1)}":"x"}},"events":[]}`, {
      path: '/api/events',
    });
    expect(res.status).toBe(400);
    expect(res.json.problems).toEqual([expect.stringMatching(new RegExp(`^/landing/params/utm_.* \\(its name\\): ${says.source}`))]);
  });
});

it('campaigns with lone surrogates are refused (400, naming the parameter); the visitors landing beside them are all counted', async () => {
  const land = (source1: string) =>
    post(server.port, JSON.stringify({ landing: { path: '/payday-loans', params: { source1 } }, events: [{ type: 'page_view', path: '/payday-loans' }] }), {
      path: '/api/events',
    });
  const answers = [];
  // as pg stores them, the first two are one campaign ("c\ufffd"), and so are the last two
  for (const source1 of ['c\ud800', 'c\ufffd', 'fair', 'c\udbff', 'c\ufffd', 'fair']) answers.push(await land(source1));
  expect(answers.map((a) => a.status)).toEqual([400, 202, 202, 400, 202, 202]);
  expect(answers[0]!.json.problems).toEqual([expect.stringMatching(/^\/landing\/params\/source1: contains half of a surrogate pair alone/)]);
  await sharedTrafficWriter().flush();
  const ids = answers.filter((a) => a.status === 202).map((a) => String(a.json.visitId));
  const stored = await db.selectFrom('traffic_events').select('visit_id').where('visit_id', 'in', ids).execute();
  expect(new Set(stored.map((r) => r.visit_id))).toEqual(new Set(ids));
});

describe.each([
  ['a terminal escape', '\u001b[31m'],
  ['a line break', '\r\n[traffic] forged line'],
  ['a C1 control', '\u009b'],
])('%s, which the browser drops', (_name, control) => {
  it.each(['source1', 'source2', 'clickId', 'ggClientId'])('in a session trace’s %s is refused (400, naming it)', async (field) => {
    const res = await post(server.port, JSON.stringify(traceBody({ [field]: `gg1${control}` })), { path: '/api/trace/session' });
    expect(res.status).toBe(400);
    expect(res.json.problems).toEqual([expect.stringMatching(new RegExp(`^/${field}: `))]);
  });

  it.each(['source', 'source2', 'clickId'])('in a lead’s tracking %s is refused (400, naming it)', async (field) => {
    const res = await post(server.port, JSON.stringify(leadRequest({ tracking: { source: 'spring', [field]: `gg1${control}` } })), { path: '/api/leads' });
    expect(res.status).toBe(400);
    expect(res.json.problems).toEqual([expect.stringMatching(new RegExp(`^/tracking/${field}: `))]);
  });
});
