/**
 * Consent certificates: signed with Ed25519 over canonical JSON, so any changed byte fails; a
 * certificate signed before a lead-key rotation still verifies with the published keys; the
 * well-known keys document is what a buyer needs to verify one itself. Over HTTP (the real routes
 * on a Node server over SQLite): a lead gets a certificate, its page shows the consent as seen,
 * a signed buyer verifies it and claims it with the lead's phone hash and is refused with another,
 * an unknown id is a 404, and a stored certificate stays under 2 KB.
 */
import { createHash, createHmac, createPublicKey, verify } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { deflateRawSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyringOf, sealBytes } from '../../engine/keys/sealing';
import { canonicalJson } from '../../engine/leads/certificate/canonical';
import {
  buildCertificate,
  certificateProblem,
  newCertificateId,
  signatureHolds,
  signCertificate,
  type CertificateFacts,
} from '../../engine/leads/certificate/certificate';
import { keptUntil, readCertificate, retentionDays } from '../../engine/leads/certificate/issue';
import { certificateKeys, wellKnownKeys } from '../../engine/leads/certificate/keys';
import { consentText, CURRENT_CONSENT_VERSION } from '../../engine/site/consent';
import { pruneCertificates, sealCertificateJson } from '../../engine/store/certificates';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { leadRequest } from '../support/leadRequest';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';
import { startStandInBuyer, type StandInBuyer } from '../support/standInBuyer';

const OLD = keyringOf([Buffer.alloc(32, 1)]);
const ROTATED = keyringOf([Buffer.alloc(32, 2), Buffer.alloc(32, 1)]);
const NEW_ONLY = keyringOf([Buffer.alloc(32, 2)]);

const facts = (extra: Partial<CertificateFacts> = {}): CertificateFacts => ({
  id: newCertificateId(),
  leadId: 'ld_test',
  test: false,
  brand: { id: 'ipaydayloans', name: 'iPaydayLoans', legalName: 'iPaydayLoans LLC' },
  consent: { version: CURRENT_CONSENT_VERSION, text: consentText(CURRENT_CONSENT_VERSION, 'iPaydayLoans') },
  pageUrl: 'https://ipaydayloans.com/apply',
  receivedAt: new Date('2026-11-28T12:00:00.000Z'),
  ip: '203.0.113.0',
  userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0',
  evidence: {
    steps: [
      { step: 1, shownMs: 100, doneMs: 9100, htmlSha256: 'a'.repeat(64) },
      { step: 2, shownMs: 9200, doneMs: 30200 },
    ],
    submitMs: 45_000,
    fields: { zip: { typed: 5, pasted: 0, autofilled: 0 }, email: { typed: 0, pasted: 1, autofilled: 0 } },
    consent: { fontSizePx: 14, contrast: 7.2 },
  },
  ...extra,
});

describe('canonical JSON', () => {
  it('sorts keys at every depth, keeps array order and writes no whitespace (the worked example of docs/lenders/protocol.md)', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'é "q"' } })).toBe('{"a":{"c":"é \\"q\\"","d":[3,{"y":null,"z":true}]},"b":1}');
  });
});

describe('signing and verifying a certificate', () => {
  const signed = signCertificate(buildCertificate(facts()), certificateKeys(OLD));
  const bytes = Buffer.from(canonicalJson(signed.certificate));

  it('verifies as issued, with times anchored on the server clock and counts only', () => {
    expect(certificateProblem(signed, certificateKeys(OLD))).toBeUndefined();
    expect(signed.certificate.times.pageLoadedAt).toBe('2026-11-28T11:59:15.000Z');
    expect(signed.certificate.times.steps[0]).toEqual({ step: 1, shownAt: '2026-11-28T11:59:15.100Z', doneAt: '2026-11-28T11:59:24.100Z', ms: 9000 });
    expect(signed.certificate.consent.display).toMatchObject({ meetsRules: true, problems: [] });
    expect(signed.certificate.consent.sha256).toBe(createHash('sha256').update(signed.certificate.consent.text).digest('hex'));
  });

  it('fails when any one byte of the signed JSON is changed', () => {
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes);
      altered[i] = altered[i]! ^ 0x01;
      expect(signatureHolds(altered, signed.signature.kid, signed.signature.value, certificateKeys(OLD)), `byte ${i}`).toBe(false);
    }
    expect(signatureHolds(bytes, signed.signature.kid, signed.signature.value, certificateKeys(OLD))).toBe(true);
  });

  it('fails when a field is changed, or the signature is', () => {
    const changedText = {
      ...signed,
      certificate: { ...signed.certificate, consent: { ...signed.certificate.consent, text: signed.certificate.consent.text + ' ' } },
    };
    expect(certificateProblem(changedText, certificateKeys(OLD))).toMatch(/altered/);
    const sig = Buffer.from(signed.signature.value, 'base64url');
    sig[10] = sig[10]! ^ 0x80;
    expect(certificateProblem({ ...signed, signature: { ...signed.signature, value: sig.toString('base64url') } }, certificateKeys(OLD))).toMatch(/altered/);
  });

  it('flags a consent rendered too small or too faint', () => {
    const faint = buildCertificate(facts({ evidence: { ...facts().evidence!, consent: { fontSizePx: 9, contrast: 2.1 } } }));
    expect(faint.consent.display.meetsRules).toBe(false);
    expect(faint.consent.display.problems).toEqual(['font size 9px is under 12px', 'contrast 2.1:1 is under 4.5:1']);
  });
});

describe('key rotation and the well-known keys', () => {
  const before = signCertificate(buildCertificate(facts()), certificateKeys(OLD));

  it('still verifies a certificate signed with the old key once the lead key rotated, and signs new ones with the new key', () => {
    expect(certificateProblem(before, certificateKeys(ROTATED))).toBeUndefined();
    const after = signCertificate(buildCertificate(facts()), certificateKeys(ROTATED));
    expect(after.signature.kid).not.toBe(before.signature.kid);
    expect(certificateProblem(after, certificateKeys(ROTATED))).toBeUndefined();
    // once the old lead key is dropped its certificate key is no longer published
    expect(certificateProblem(before, certificateKeys(NEW_ONLY))).toMatch(/not published/);
  });

  it('publishes every key as a JWK, current first, with a key id a buyer can recompute, and a buyer verifies with it alone', () => {
    const doc = wellKnownKeys(certificateKeys(ROTATED));
    expect(doc.keys.map((k) => k.status)).toEqual(['current', 'retired']);
    for (const k of doc.keys) {
      expect(k).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(k.kid).toBe(createHash('sha256').update(Buffer.from(k.x, 'base64url')).digest('hex').slice(0, 8));
    }
    const jwk = doc.keys.find((k) => k.kid === before.signature.kid)!;
    const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
    expect(verify(null, Buffer.from(canonicalJson(before.certificate)), key, Buffer.from(before.signature.value, 'base64url'))).toBe(true);
  });
});

describe('retention', () => {
  it('keeps 1,826 days by default, CERTIFICATE_RETENTION_DAYS otherwise, and a malformed value keeps the default', () => {
    expect(retentionDays({})).toBe(1826);
    expect(retentionDays({ CERTIFICATE_RETENTION_DAYS: '30' })).toBe(30);
    expect(retentionDays({ CERTIFICATE_RETENTION_DAYS: 'five years' })).toBe(1826);
    expect(keptUntil(new Date('2026-01-01T00:00:00Z'), { CERTIFICATE_RETENTION_DAYS: '2' }).toISOString()).toBe('2026-01-03T00:00:00.000Z');
  });
});

const get = (port: number, path: string, host = 'ipaydayloans.localhost'): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    })
      .on('error', reject)
      .end();
  });

describe('certificates over HTTP: the lead POST, the page, the keys and the buyer API', () => {
  const SECRET = 'certificate-buyer-secret-0001';
  const dir = mkdtempSync(join(tmpdir(), 'loansites-certificates-'));
  const saved = { ...process.env };
  let buyer: StandInBuyer;
  let server: TraceServer;
  let db: Store;
  beforeAll(async () => {
    buyer = await startStandInBuyer('certbuyer', SECRET);
    mkdirSync(join(dir, 'buyers'));
    writeFileSync(join(dir, 'buyers', 'certbuyer.json'), JSON.stringify(buyer.document({ acceptsTestLeads: true, acceptsDuplicates: true })));
    server = await startTraceServer(
      {
        LEADS_ENCRYPTION_KEY: 'c'.repeat(64),
        LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
        BUYER_CERTBUYER_SECRET: SECRET,
        LEADS_WORKER: 'off',
        SALE_WORKER: 'off',
        LEAD_DESTINATIONS: '',
        RATE_LIMIT_LEADS: '50',
      },
      ['/api/leads', '/api/certificates/verify', '/api/certificates/claim', '/api/certificates/fetch', '/api/certificates/page', '/api/certificates/keys'],
    );
    db = openStore({ url: '', file: server.dbFile });
    await migrateStore(db);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await server?.close();
    await buyer?.close();
    process.env = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  // the same email on every lead: the buyer's email hash below is of 'ana@example.org'
  const lead = (phone = '5125550123') => leadRequest({ email: 'Ana@Example.org', phone, evidence: { page: '/apply', ...facts().evidence } });
  const buyerPost = (path: string, body: object, secret = SECRET) => {
    const text = JSON.stringify(body);
    const headers = buyer.signed(text);
    if (secret !== SECRET) headers['x-loansites-signature'] = `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
    return post(server.port, text, { path, headers });
  };
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const idOf = (url: unknown) => String(url).replace('/certificate/', '');

  it('answers a new lead with its certificate page, the same one for a retry, and stores it sealed in under 2 KB', async () => {
    const body = lead();
    const first = await post(server.port, JSON.stringify(body), { path: '/api/leads' });
    expect(first.status).toBe(201);
    expect(first.json.certificateUrl).toMatch(/^\/certificate\/ct_[A-Za-z0-9_-]{22}$/);
    const again = await post(server.port, JSON.stringify({ ...body, evidence: { ...(body.evidence as object), submitMs: 99_000 } }), { path: '/api/leads' });
    expect(again.status).toBe(200);
    expect(again.json.certificateUrl).toBe(first.json.certificateUrl);
    const row = await db.selectFrom('lead_certificates').selectAll().where('id', '=', idOf(first.json.certificateUrl)).executeTakeFirstOrThrow();
    expect(row.lead_id).toBe(first.json.id);
    expect(row.sealed).not.toContain('Mozilla');
    expect(Buffer.byteLength(JSON.stringify(row))).toBeLessThanOrEqual(2048);
  });

  it('shows the consent as the borrower saw it, the steps and their times on the brand host; another brand and an unknown id get 404', async () => {
    const { json } = await post(server.port, JSON.stringify(lead()), { path: '/api/leads' });
    const id = idOf(json.certificateUrl);
    const page = await get(server.port, `/api/certificates/page?id=${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signature valid');
    expect(page.text).toContain('give my express written consent for iPaydayLoans');
    expect(page.text).toContain('Step 2');
    expect((await get(server.port, `/api/certificates/page?id=${id}`, 'usbadcreditloans.localhost')).status).toBe(404);
    expect((await get(server.port, `/api/certificates/page?id=ct_${'A'.repeat(22)}`)).status).toBe(404);
    expect((await get(server.port, `/api/certificates/page?id=nonsense`)).status).toBe(404);
  });

  it('lets a signed buyer verify and claim with the lead phone hash, refuses another hash, and 404s an unknown or guessed id', async () => {
    const { json } = await post(server.port, JSON.stringify(lead('5125550177')), { path: '/api/leads' });
    const certificateId = idOf(json.certificateUrl);
    // only a buyer the lead was offered to may ask: the lead POST's sale pings this one
    await expect.poll(() => buyer.pings.some((p) => p.certificateId === certificateId), { timeout: 20_000 }).toBe(true);
    const verified = await buyerPost('/api/certificates/verify', { certificateId, phoneSha256: sha('5125550177'), emailSha256: sha('ana@example.org') });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ certificateId, valid: true, phoneMatches: true, emailMatches: true });
    const other = await buyerPost('/api/certificates/verify', { certificateId, phoneSha256: sha('5125550188') });
    expect(other.json).toMatchObject({ valid: true, phoneMatches: false, emailMatches: null });

    const refused = await buyerPost('/api/certificates/claim', { certificateId, phoneSha256: sha('5125550188') });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatch(/phone hash does not match/);
    // every hash sent must be the lead's, as the protocol says: a right phone beside a wrong email is refused
    const mixed = await buyerPost('/api/certificates/claim', { certificateId, phoneSha256: sha('5125550177'), emailSha256: sha('someone@example.org') });
    expect(mixed.status).toBe(403);
    const before = await readCertificate(db, certificateId, new Date());
    const claimed = await buyerPost('/api/certificates/claim', { certificateId, phoneSha256: sha('5125550177') });
    expect(claimed.status).toBe(200);
    expect(claimed.json).toMatchObject({ certificateId, buyer: 'certbuyer' });
    expect(Date.parse(String(claimed.json.expiresAt))).toBeGreaterThan(Date.parse(before!.expiresAt));

    const fetched = await buyerPost('/api/certificates/fetch', { certificateId });
    expect(fetched.status).toBe(200);
    const signed = fetched.json as unknown as Parameters<typeof certificateProblem>[0];
    expect(certificateProblem(signed)).toBeUndefined();
    expect(signed.certificate.client.userAgent).toBe('test-agent/1.0');

    for (const path of ['/api/certificates/verify', '/api/certificates/claim', '/api/certificates/fetch']) {
      const unknown = await buyerPost(path, { certificateId: `ct_${'B'.repeat(22)}`, phoneSha256: sha('5125550177') });
      expect(unknown.status, path).toBe(404);
    }
    expect((await buyerPost('/api/certificates/verify', { certificateId }, 'wrong-secret-000000000000')).status).toBe(401);
    expect((await buyerPost('/api/certificates/verify', { certificateId: '../etc' })).status).toBe(400);
  });

  it('marks a test lead’s certificate as one — signed, in the buyer API and on its page — and a production lead’s as not', async () => {
    // a lead posted on a .localhost host is a test lead; on the brand's own domain, a production one
    const testLead = await post(server.port, JSON.stringify(lead('5125550144')), { path: '/api/leads' });
    const realLead = await post(server.port, JSON.stringify(lead('5125550145')), { path: '/api/leads', host: 'ipaydayloans.com' });
    expect([testLead.status, realLead.status]).toEqual([201, 201]);
    const testId = idOf(testLead.json.certificateUrl);
    const realId = idOf(realLead.json.certificateUrl);
    await expect.poll(() => [testId, realId].every((id) => buyer.pings.some((p) => p.certificateId === id)), { timeout: 20_000 }).toBe(true);

    const fetchedTest = await buyerPost('/api/certificates/fetch', { certificateId: testId });
    const signedTest = fetchedTest.json as unknown as Parameters<typeof certificateProblem>[0];
    expect(fetchedTest.json).toMatchObject({ valid: true, test: true });
    expect(signedTest.certificate.test).toBe(true);
    expect(certificateProblem(signedTest)).toBeUndefined();
    expect((await buyerPost('/api/certificates/verify', { certificateId: testId })).json).toMatchObject({ valid: true, test: true });
    const testPage = await get(server.port, `/api/certificates/page?id=${testId}`);
    expect(testPage.text).toContain('<title>Consent certificate (test lead)</title>');
    expect(testPage.text).toContain('Test lead: this certificate records a submission on a test or development site');

    const fetchedReal = await buyerPost('/api/certificates/fetch', { certificateId: realId });
    expect(fetchedReal.json).toMatchObject({ valid: true, test: false });
    expect((fetchedReal.json as unknown as Parameters<typeof certificateProblem>[0]).certificate.test).toBe(false);
    expect((await buyerPost('/api/certificates/verify', { certificateId: realId })).json).toMatchObject({ test: false });
    const realPage = await get(server.port, `/api/certificates/page?id=${realId}`, 'ipaydayloans.com');
    expect(realPage.status).toBe(200);
    expect(realPage.text).not.toContain('Test lead');

    // a certificate issued before certificates said so: the lead it belongs to tells
    const { test: _, ...older } = signedTest.certificate;
    await db
      .updateTable('lead_certificates')
      .set({ sealed: sealCertificateJson(canonicalJson(signCertificate(older))) })
      .where('id', '=', testId)
      .execute();
    const fetchedOlder = await buyerPost('/api/certificates/fetch', { certificateId: testId });
    expect(fetchedOlder.json).toMatchObject({ valid: true, test: true });
    expect(fetchedOlder.json.certificate).not.toHaveProperty('test');
    expect((await get(server.port, `/api/certificates/page?id=${testId}`)).text).toContain('Test lead:');
  });

  it('publishes the keys the certificates verify with', async () => {
    const keys = await get(server.port, '/api/certificates/keys');
    expect(keys.status).toBe(200);
    const doc = JSON.parse(keys.text) as ReturnType<typeof wellKnownKeys>;
    const { json } = await post(server.port, JSON.stringify(lead()), { path: '/api/leads' });
    const stored = await readCertificate(db, idOf(json.certificateUrl), new Date());
    expect(doc.keys[0]!.kid).toBe(stored!.signed.signature.kid);
  });

  it('answers 503, not an error, for a kept certificate sealed with a lead key the server no longer has, and 404 to a buyer it was not offered to', async () => {
    const { json } = await post(server.port, JSON.stringify(lead('5125550166')), { path: '/api/leads' });
    const certificateId = idOf(json.certificateUrl);
    await expect.poll(() => buyer.pings.some((p) => p.certificateId === certificateId), { timeout: 20_000 }).toBe(true);
    // as after a rotation whose old key was dropped before `npm run keys -- rotate` re-sealed it
    const foreign = sealBytes(deflateRawSync(Buffer.from('{"certificate":{}}')), keyringOf([Buffer.alloc(32, 9)]));
    await db.updateTable('lead_certificates').set({ sealed: foreign }).where('id', '=', certificateId).execute();
    for (const path of ['/api/certificates/verify', '/api/certificates/claim', '/api/certificates/fetch']) {
      const answer = await buyerPost(path, { certificateId, phoneSha256: sha('5125550166') });
      expect(answer.status, path).toBe(503);
      expect(answer.json.error, path).toMatch(/cannot be read right now/);
    }
    const page = await get(server.port, `/api/certificates/page?id=${certificateId}`);
    expect(page.status).toBe(503);
    expect(page.text).toContain('cannot be shown right now');
    // who may ask is decided before anything is opened: another brand's page is still the 404
    expect((await get(server.port, `/api/certificates/page?id=${certificateId}`, 'usbadcreditloans.localhost')).status).toBe(404);
    await db.deleteFrom('sale_events').where('lead_id', '=', String(json.id)).execute();
    expect((await buyerPost('/api/certificates/verify', { certificateId })).status).toBe(404);
  });

  it('forgets a certificate past its retention', async () => {
    const { json } = await post(server.port, JSON.stringify(lead()), { path: '/api/leads' });
    const id = idOf(json.certificateUrl);
    const later = new Date(Date.now() + 1827 * 24 * 3600_000);
    expect(await readCertificate(db, id, later)).toBeUndefined();
    expect(await pruneCertificates(db, later)).toBeGreaterThan(0);
    expect(await readCertificate(db, id, new Date())).toBeUndefined();
  });
});

describe('the certificate in the ping and the post', () => {
  it('gives the ping only the certificate id and the post its id and page', async () => {
    process.env.LEADS_ENCRYPTION_KEY = 'd'.repeat(64);
    const { leadRow } = await import('../support/leadRow');
    const { saleLeadOf } = await import('../../engine/sale/lead');
    const { pingPayload } = await import('../../engine/sale/ping');
    const { leadPayload } = await import('../../engine/sale/wire');
    const row = { ...leadRow({ certificate_id: 'ct_4fJ2k9Qm0aB1cD2eF3gH4i', host: 'ipaydayloans.com' }), id: 'ld_1' };
    const ping = pingPayload(saleLeadOf(row), 'pg_abcdefghijklmnop');
    expect(ping.certificateId).toBe('ct_4fJ2k9Qm0aB1cD2eF3gH4i');
    expect(JSON.stringify(ping)).not.toContain('5125550123');
    expect(leadPayload(row).certificate).toEqual({ id: 'ct_4fJ2k9Qm0aB1cD2eF3gH4i', url: 'https://ipaydayloans.com/certificate/ct_4fJ2k9Qm0aB1cD2eF3gH4i' });
  });
});

describe('a lead-key rotation and stored certificates', () => {
  it('re-seals stored certificates with the new key, and they still open and verify while the old key is listed', async () => {
    const { resealAll } = await import('../../engine/leads/rotation');
    const { issueCertificate } = await import('../../engine/leads/certificate/issue');
    const dir = mkdtempSync(join(tmpdir(), 'loansites-cert-rotation-'));
    const db = openStore({ url: '', file: join(dir, 's.sqlite') });
    const saved = { ...process.env };
    try {
      await migrateStore(db);
      const [oldKey, newKey] = ['1'.repeat(64), '2'.repeat(64)];
      process.env.LEADS_ENCRYPTION_KEYS = oldKey;
      const f = facts();
      await issueCertificate(db, f);
      process.env.LEADS_ENCRYPTION_KEYS = `${newKey},${oldKey}`;
      const ring = keyringOf([Buffer.from(newKey, 'hex'), Buffer.from(oldKey, 'hex')]);
      expect(await resealAll(db, ring)).toMatchObject({ certificates: 1, unopened: [] });
      const row = await db.selectFrom('lead_certificates').select('sealed').where('id', '=', f.id).executeTakeFirstOrThrow();
      expect(row.sealed.startsWith(`v2.${ring.current.id}.`)).toBe(true);
      const stored = await readCertificate(db, f.id, new Date(f.receivedAt.getTime() + 1000));
      expect(stored?.problem).toBeUndefined();
      expect(stored?.signed.signature.kid).toBe(certificateKeys(keyringOf([Buffer.from(oldKey, 'hex')])).current.kid);

      // nothing is sealed with the old key now, but it signed a kept certificate: the rotation says to keep it listed
      const { certificatesSignedByOlderKeys, olderKeysAdvice } = await import('../../engine/leads/rotation');
      const oldId = keyringOf([Buffer.from(oldKey, 'hex')]).current.id;
      const older = await certificatesSignedByOlderKeys(db, ring, new Date(f.receivedAt.getTime() + 1000));
      expect(older).toEqual([{ leadKeyId: oldId, certificates: 1, keptUntil: keptUntil(f.receivedAt).toISOString() }]);
      expect(olderKeysAdvice(older)).toContain(
        `lead key ${oldId}: 1 consent certificate(s) signed with it, kept until ${keptUntil(f.receivedAt).toISOString().slice(0, 10)}`,
      );
      expect(olderKeysAdvice(older)).not.toMatch(/can be removed/);
      // past its retention it no longer holds the key back
      expect(await certificatesSignedByOlderKeys(db, ring, new Date(f.receivedAt.getTime() + 1827 * 24 * 3600_000))).toEqual([]);
      expect(olderKeysAdvice([])).toMatch(/can be removed/);
    } finally {
      process.env = saved;
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
