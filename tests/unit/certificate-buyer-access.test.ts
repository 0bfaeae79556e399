/**
 * Who may read a consent certificate, on SQLite and on PostgreSQL: the real lead and certificate
 * routes on a Node server over each store, and the sale the lead POST starts, which pings one stand-in buyer. The
 * buyer the lead was offered to verifies, claims and fetches its certificate; another signed
 * buyer gets the same 404 as for an id never issued (it learns nothing of the lead); an unsigned
 * request is a 401. The certificate and screening rows land in the store the server runs on.
 * Every answer — each success, each refusal — is one its published schema
 * (schemas/api/buyer-certificate-*-answer, buyer-api-refusal) allows; the certificate URL a
 * buyer is posted opens the certificate's page on the server the lead was posted to.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import Ajv2020 from 'ajv/dist/2020.js';
import { SCHEMA_FORMATS } from '../support/schemaFormats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealBytes } from '../../engine/keys/sealing';
import { openCertificateJson, sealCertificateJson } from '../../engine/store/certificates';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { saleOf } from '../../engine/store/sales';
import { screeningOf } from '../../engine/store/screening';
import { bothStores } from '../support/bothStores';
import { leadRequest } from '../support/leadRequest';
import { standIns } from '../support/saleKit';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';
import type { StandInBuyer } from '../support/standInBuyer';

const SECRET = 'certificate-access-buyer-secret-01';
const stores = bothStores('loansites-certificate-access-');
const buyers = standIns(SECRET);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const schemaOf = (name: string) => JSON.parse(readFileSync(join(process.cwd(), 'schemas/api', `${name}.schema.json`), 'utf8')) as object;
const validators = {
  verify: new Ajv2020({ strict: false, allErrors: true, formats: SCHEMA_FORMATS }).compile(schemaOf('buyer-certificate-verify-answer')),
  claim: new Ajv2020({ strict: false, allErrors: true, formats: SCHEMA_FORMATS }).compile(schemaOf('buyer-certificate-claim-answer')),
  fetch: new Ajv2020({ strict: false, allErrors: true, formats: SCHEMA_FORMATS }).compile(schemaOf('buyer-certificate-fetch-answer')),
  refusal: new Ajv2020({ strict: false, allErrors: true, formats: SCHEMA_FORMATS }).compile(schemaOf('buyer-api-refusal')),
};

let offered: StandInBuyer;
let stranger: StandInBuyer;
beforeAll(async () => {
  offered = await buyers.start('offeredbuyer', { ping: { bid: 20 }, post: 'refuse' });
  stranger = await buyers.start('strangerbuyer');
  mkdirSync(join(stores.tmp, 'buyers'));
  // leads from a localhost host are test leads: the stranger, taking none, is never offered one
  writeFileSync(join(stores.tmp, 'buyers', 'offeredbuyer.json'), JSON.stringify(offered.document({ acceptsTestLeads: true, acceptsDuplicates: true })));
  writeFileSync(join(stores.tmp, 'buyers', 'strangerbuyer.json'), JSON.stringify(stranger.document()));
});
afterAll(() => buyers.closeAll());

/** GET a URL on this machine as a browser does: *.localhost resolves to loopback, the URL's host is the Host. */
function open(address: string): Promise<{ status: number; text: string }> {
  const url = new URL(address);
  expect(url.protocol).toBe('http:');
  expect(url.hostname.endsWith('.localhost')).toBe(true);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(url.port || 80), path: url.pathname + url.search, headers: { host: url.host } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const lead = (phone: string) =>
  leadRequest({ phone, evidence: { page: '/apply', steps: [{ step: 1, shownMs: 100, doneMs: 20_000 }], submitMs: 30_000, fields: {} } });

describe.each(stores.kinds('access.sqlite'))('certificates for the buyers offered the lead, on %s', (kind, options) => {
  let server: TraceServer;
  let db: Store;
  beforeAll(async () => {
    const o = options();
    server = await startTraceServer(
      {
        LEADS_ENCRYPTION_KEY: 'e'.repeat(64),
        LOANSITES_BUYERS_DIR: join(stores.tmp, 'buyers'),
        BUYER_OFFEREDBUYER_SECRET: SECRET,
        BUYER_STRANGERBUYER_SECRET: SECRET,
        LEADS_WORKER: 'off',
        SALE_WORKER: 'off',
        LEAD_DESTINATIONS: '',
        RATE_LIMIT_LEADS: '50',
        ...(o.url ? { DATABASE_URL: o.url } : {}),
      },
      ['/api/leads', '/api/certificates/verify', '/api/certificates/claim', '/api/certificates/fetch', '/api/certificates/page'],
    );
    db = openStore(o.url ? { url: o.url } : { url: '', file: server.dbFile });
    await migrateStore(db);
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
    await server?.close();
  });

  const ask = (buyer: StandInBuyer, op: 'verify' | 'claim' | 'fetch', body: object) => {
    const text = JSON.stringify(body);
    return post(server.port, text, { path: `/api/certificates/${op}`, headers: buyer.signed(text) });
  };

  /** A lead stored over HTTP and sold to `offered` only (pinged; its post refused). */
  async function offeredLead(phone: string, host?: string) {
    const created = await post(server.port, JSON.stringify(lead(phone)), { path: '/api/leads', ...(host ? { host } : {}) });
    expect(created.status).toBe(201);
    const leadId = String(created.json.id);
    const certificateId = String(created.json.certificateUrl).replace('/certificate/', '');
    // the lead POST starts its sale: the offered buyer is pinged (its post refused), the stranger skipped
    await expect.poll(() => offered.pings.some((p) => p.certificateId === certificateId), { timeout: 20_000 }).toBe(true);
    await expect.poll(async () => (await saleOf(db, leadId))?.status, { timeout: 20_000 }).not.toBe('pending');
    return { leadId, certificateId };
  }

  it('lets the buyer the lead was offered to verify, claim and fetch its certificate', async () => {
    const { certificateId } = await offeredLead('5125550141');
    const verified = await ask(offered, 'verify', { certificateId, phoneSha256: sha('5125550141') });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ certificateId, valid: true, phoneMatches: true });
    const claimed = await ask(offered, 'claim', { certificateId, phoneSha256: sha('5125550141') });
    expect(claimed.status).toBe(200);
    expect(claimed.json).toMatchObject({ certificateId, buyer: 'offeredbuyer' });
    const fetched = await ask(offered, 'fetch', { certificateId });
    expect(fetched.status).toBe(200);
    expect((fetched.json.certificate as { id: string }).id).toBe(certificateId);
  }, 60_000);

  it("gives the buyer a certificate URL that opens the certificate's page on the local server the lead was posted to", async () => {
    const host = `ipaydayloans.localhost:${server.port}`;
    const { leadId, certificateId } = await offeredLead('5125550145', host);
    await expect.poll(() => offered.posts.some((p) => p.leadId === leadId), { timeout: 20_000 }).toBe(true);
    const url = (offered.posts.find((p) => p.leadId === leadId)!.body.certificate as { url: string }).url;
    expect(url).toBe(`http://${host}/certificate/${certificateId}`);
    // opened as a browser opens it: *.localhost is this machine
    const page = await open(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain(certificateId);
    // the page the borrower applied on, as the certificate records it, opens on the same server
    const fetched = await ask(offered, 'fetch', { certificateId });
    expect((fetched.json.certificate as { page: { url: string } }).page.url).toBe(`http://${host}/apply`);
  }, 60_000);

  it('gives answers, each success and each refusal, that its published schemas describe', async () => {
    const { certificateId } = await offeredLead('5125550146');
    const madeUp = `ct_${'Q'.repeat(22)}`;
    const hash = { phoneSha256: sha('5125550146') };
    const answers: { what: string; schema: 'verify' | 'claim' | 'fetch' | 'refusal'; answer: Awaited<ReturnType<typeof post>> }[] = [];
    const keep = async (what: string, schema: (typeof answers)[number]['schema'], answer: Promise<Awaited<ReturnType<typeof post>>>) =>
      answers.push({ what, schema, answer: await answer });
    const unsigned = (text: string, opts: Parameters<typeof post>[2] = {}) =>
      post(server.port, text, { path: '/api/certificates/verify', ...opts, headers: { ...offered.signed(text), ...opts.headers } });

    await keep('verify, a matching phone', 'verify', ask(offered, 'verify', { certificateId, ...hash }));
    await keep('verify, an email that is not the lead’s', 'verify', ask(offered, 'verify', { certificateId, emailSha256: sha('x@example.org') }));
    await keep('claim, no hash', 'refusal', ask(offered, 'claim', { certificateId }));
    await keep('claim, a phone that is not the lead’s', 'refusal', ask(offered, 'claim', { certificateId, phoneSha256: sha('5125550000') }));
    await keep('claim', 'claim', ask(offered, 'claim', { certificateId, ...hash }));
    await keep('claim again', 'claim', ask(offered, 'claim', { certificateId, ...hash }));
    await keep('fetch', 'fetch', ask(offered, 'fetch', { certificateId }));
    for (const op of ['verify', 'claim', 'fetch'] as const) {
      await keep(`${op}, an id never issued`, 'refusal', ask(offered, op, { certificateId: madeUp, ...hash }));
      await keep(`${op}, a lead never offered`, 'refusal', ask(stranger, op, { certificateId, ...hash }));
    }
    await keep('unsigned', 'refusal', post(server.port, JSON.stringify({ certificateId }), { path: '/api/certificates/verify' }));
    await keep('an invalid body', 'refusal', unsigned(JSON.stringify({ certificateId: 'ct_short' })));
    await keep('not JSON', 'refusal', unsigned('{"certificateId":'));
    await keep('not application/json', 'refusal', unsigned(JSON.stringify({ certificateId }), { type: 'text/plain' }));
    await keep('over 1 KB', 'refusal', unsigned(JSON.stringify({ certificateId, note: 'x'.repeat(1100) })));
    await keep('a GET', 'refusal', unsigned('', { method: 'GET' }));

    // altered after it was signed: still answered, as not valid
    const row = await db.selectFrom('lead_certificates').select('sealed').where('id', '=', certificateId).executeTakeFirstOrThrow();
    const signed = JSON.parse(openCertificateJson(row.sealed)) as { certificate: { consent: { text: string } } };
    signed.certificate.consent.text += ' (changed)';
    await db
      .updateTable('lead_certificates')
      .set({ sealed: sealCertificateJson(JSON.stringify(signed)) })
      .where('id', '=', certificateId)
      .execute();
    await keep('verify, altered', 'verify', ask(offered, 'verify', { certificateId, ...hash }));
    await keep('fetch, altered', 'fetch', ask(offered, 'fetch', { certificateId }));
    // sealed with a lead key this server does not have: kept, not readable now
    const elsewhere = sealBytes(deflateRawSync(Buffer.from(JSON.stringify(signed))), Buffer.alloc(32, 9));
    await db.updateTable('lead_certificates').set({ sealed: elsewhere }).where('id', '=', certificateId).execute();
    for (const op of ['verify', 'claim', 'fetch'] as const) await keep(`${op}, unreadable`, 'refusal', ask(offered, op, { certificateId, ...hash }));

    const statuses = answers.map((a) => a.answer.status);
    expect(new Set(statuses)).toEqual(new Set([200, 400, 401, 403, 404, 405, 413, 415, 503]));
    expect(answers.find((a) => a.what === 'verify, altered')!.answer.json).toMatchObject({ valid: false, problem: expect.any(String) });
    for (const { what, schema, answer } of answers) {
      expect(answer.status === 200, `${what}: ${answer.status}`).toBe(schema !== 'refusal');
      const validate = validators[schema];
      expect(validate(answer.json), `${what}: ${JSON.stringify(answer.json)} ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  }, 60_000);

  it('lets a pinged buyer verify the certificate before it bids, as the protocol asks', async () => {
    const during: { status: number; json: Record<string, unknown> }[] = [];
    offered.beforeBid = async (ping) => {
      const { status, json } = await ask(offered, 'verify', { certificateId: ping.certificateId, phoneSha256: sha('5125550143') });
      during.push({ status, json });
    };
    try {
      const { certificateId } = await offeredLead('5125550143');
      expect(during).toEqual([{ status: 200, json: expect.objectContaining({ certificateId, valid: true, phoneMatches: true }) as unknown }]);
    } finally {
      offered.beforeBid = undefined;
    }
  }, 60_000);

  it('answers a buyer the lead was never offered to exactly as for an id never issued, and stores no claim for it', async () => {
    const { certificateId } = await offeredLead('5125550142');
    const madeUp = `ct_${'Q'.repeat(22)}`;
    for (const op of ['verify', 'claim', 'fetch'] as const) {
      const theirs = await ask(stranger, op, { certificateId, phoneSha256: sha('5125550142') });
      const none = await ask(stranger, op, { certificateId: madeUp, phoneSha256: sha('5125550142') });
      expect(theirs.status, op).toBe(404);
      expect(none.status, op).toBe(404);
      // the same words for both, but for the id the buyer itself sent
      expect(String(theirs.json.error).replace(certificateId, 'ID'), op).toBe(String(none.json.error).replace(madeUp, 'ID'));
      expect(String(theirs.json.error)).toContain('offered to strangerbuyer');
    }
    const claims = await db.selectFrom('lead_certificate_claims').selectAll().where('certificate_id', '=', certificateId).execute();
    expect(claims).toEqual([]);
  }, 60_000);

  it('refuses an unsigned request before reading anything', async () => {
    const { certificateId } = await offeredLead('5125550143');
    const text = JSON.stringify({ certificateId });
    const unsigned = await post(server.port, text, { path: '/api/certificates/fetch', headers: { 'x-loansites-buyer': 'offeredbuyer' } });
    expect(unsigned.status).toBe(401);
  }, 60_000);

  it(`keeps the lead's certificate and screening in ${kind}`, async () => {
    const { leadId, certificateId } = await offeredLead('5125550144');
    const cert = await db.selectFrom('lead_certificates').select(['id', 'lead_id']).where('id', '=', certificateId).executeTakeFirst();
    expect(cert).toEqual({ id: certificateId, lead_id: leadId });
    expect(await screeningOf(db, leadId)).toMatchObject({ lead_id: leadId, band: expect.stringMatching(/^(high|medium|low)$/) });
  }, 60_000);
});
