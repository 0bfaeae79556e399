/**
 * The certificate as the console's lead page shows it: a stored certificate verifies and points to
 * its page on the host the lead came from, with its claims; a changed byte shows as a signature
 * that does not verify; a certificate sealed with a key this server no longer holds is shown as
 * unreadable rather than failing the page; a lead without one shows none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadCertificate } from '../../engine/console/certificateQueries';
import { canonicalJson } from '../../engine/leads/certificate/canonical';
import { newCertificateId, type SignedCertificate } from '../../engine/leads/certificate/certificate';
import { issueCertificate } from '../../engine/leads/certificate/issue';
import { consentText, CURRENT_CONSENT_VERSION } from '../../engine/site/consent';
import { claimCertificate, openCertificateJson, sealCertificateJson } from '../../engine/store/certificates';
import { migrateStore, openStore, type Store } from '../../engine/store/db';

const dir = mkdtempSync(join(tmpdir(), 'loansites-console-certificate-'));
const saved = process.env.LEADS_ENCRYPTION_KEYS;
let db: Store;
beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEYS = '3'.repeat(64);
  db = openStore({ url: '', file: join(dir, 's.sqlite') });
  await migrateStore(db);
});
afterAll(async () => {
  await db.destroy();
  if (saved === undefined) delete process.env.LEADS_ENCRYPTION_KEYS;
  else process.env.LEADS_ENCRYPTION_KEYS = saved;
  rmSync(dir, { recursive: true, force: true });
});

const receivedAt = new Date('2026-11-28T12:00:00.000Z');
const later = new Date(receivedAt.getTime() + 60_000);
async function issued(leadId: string): Promise<string> {
  const id = newCertificateId();
  await issueCertificate(db, {
    id,
    leadId,
    test: false,
    brand: { id: 'ipaydayloans', name: 'iPaydayLoans', legalName: 'iPaydayLoans LLC' },
    consent: { version: CURRENT_CONSENT_VERSION, text: consentText(CURRENT_CONSENT_VERSION, 'iPaydayLoans') },
    pageUrl: 'https://ipaydayloans.com/apply',
    receivedAt,
    ip: '203.0.113.0',
    userAgent: 'Mozilla/5.0',
    served: { sha256: 'b'.repeat(64), cachedAt: receivedAt.toISOString() },
  });
  return id;
}

describe("a lead's certificate on the console's lead page", () => {
  it('verifies, names its page on the lead’s host, the page’s hash as served and who claimed it', async () => {
    const id = await issued('ld_console_1');
    expect(await leadCertificate(db, id, later)).toMatchObject({ id, problem: undefined, claims: [], htmlSha256: 'b'.repeat(64) });
    await claimCertificate(db, id, 'lender-one', later, new Date(later.getTime() + 86_400_000));
    const shown = await leadCertificate(db, id, later);
    expect(shown).toMatchObject({ pageAddress: `https://ipaydayloans.com/certificate/${id}`, claims: [{ buyer: 'lender-one' }] });
  });

  it('shows a certificate whose text was changed after signing as not verifying', async () => {
    const id = await issued('ld_console_2');
    const row = await db.selectFrom('lead_certificates').select('sealed').where('id', '=', id).executeTakeFirstOrThrow();
    const signed = JSON.parse(openCertificateJson(row.sealed)) as SignedCertificate;
    signed.certificate.client.ip = '198.51.100.7';
    await db
      .updateTable('lead_certificates')
      .set({ sealed: sealCertificateJson(canonicalJson(signed)) })
      .where('id', '=', id)
      .execute();
    const shown = await leadCertificate(db, id, later);
    expect(shown && 'problem' in shown ? shown.problem : undefined).toBeTruthy();
  });

  it('says a certificate sealed with a key this server lacks cannot be opened, instead of failing the page', async () => {
    const id = await issued('ld_console_3');
    process.env.LEADS_ENCRYPTION_KEYS = '4'.repeat(64);
    try {
      expect(await leadCertificate(db, id, later)).toMatchObject({ unreadable: expect.any(String) });
    } finally {
      process.env.LEADS_ENCRYPTION_KEYS = '3'.repeat(64);
    }
  });

  it('has nothing to show for a lead without a certificate, or one past its retention', async () => {
    expect(await leadCertificate(db, undefined, later)).toBeNull();
    const id = await issued('ld_console_4');
    expect(await leadCertificate(db, id, new Date(receivedAt.getTime() + 10 * 366 * 86_400_000))).toBeNull();
  });
});
