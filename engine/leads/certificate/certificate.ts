/**
 * A consent certificate: what the borrower was shown and did, written when the lead is stored
 * and signed with the current certificate key (./keys.ts), so a buyer can prove — to a regulator,
 * in a dispute — which consent the borrower gave, where and how. Counts and durations of how the
 * form was filled, never the values. The signature covers the canonical JSON (./canonical.ts) of
 * `certificate`; any changed byte fails verification.
 */
import { createHash, randomBytes, sign, verify } from 'node:crypto';
import type { CertificateSignature, ConsentCertificate } from '../../../schemas/api.types';
import { canonicalJson } from './canonical';
import { certificateKeys, type CertificateKeys } from './keys';
import { CONSENT_DISPLAY_RULES, displayProblems, type ConsentDisplay, type ConsentDisplayRules } from '../../site/consentRules';

export const CERTIFICATE_VERSION = 1;

/** How one field was filled: how many times each way. */
export interface FieldFill {
  typed: number;
  pasted: number;
  autofilled: number;
}

/** What the browser measured (the lead body's `evidence`): times in ms since the page loaded. */
export interface Evidence {
  steps: { step: number; shownMs: number; doneMs: number; htmlSha256?: string }[];
  submitMs: number;
  fields: Record<string, FieldFill>;
  consent?: ConsentDisplay;
  pageHtmlSha256?: string;
}

/**
 * The certificate and its signature as buyers get them from fetch: declared once, in
 * schemas/api/buyer-certificate-fetch-answer.schema.json, and generated (schemas/api.types.ts).
 * `test` is absent only from certificates issued before it was written (the buyer API and the
 * page then read the lead: testOf).
 */
export type Certificate = ConsentCertificate;

export interface SignedCertificate {
  certificate: Certificate;
  signature: CertificateSignature;
}

/** An unguessable certificate id: 128 random bits. */
export const newCertificateId = (): string => `ct_${randomBytes(16).toString('base64url')}`;
export const isCertificateId = (s: string): boolean => /^ct_[A-Za-z0-9_-]{22}$/.test(s);

export const sha256Hex = (s: string): string => createHash('sha256').update(s).digest('hex');

export interface CertificateFacts {
  id: string;
  leadId: string;
  /** a test lead's (engine/leads/environment.ts isTestLead) */
  test: boolean;
  brand: { id: string; name: string; legalName?: string };
  /** the brand's rules for the consent's size and contrast (engine/site/consentLook.ts); the defaults when not given */
  consentRules?: ConsentDisplayRules | undefined;
  consent: { version: string; text: string };
  /** the page the form was on, as the borrower's browser had it (no query: it may carry tracking ids) */
  pageUrl: string;
  receivedAt: Date;
  ip: string;
  userAgent: string;
  evidence?: Evidence | undefined;
  /** the form page's HTML as served, read on our side (./servedPage.ts); the browser's own claim is not taken */
  served?: { sha256: string; cachedAt: string } | undefined;
}

const at = (ms: number) => new Date(ms).toISOString();

/** When the borrower's page loaded, on the server's clock: the browser sends only offsets from it. */
export const pageLoadedAt = (receivedAt: Date, evidence: Pick<Evidence, 'submitMs'> | undefined): Date =>
  new Date(receivedAt.getTime() - Math.max(0, Math.round(evidence?.submitMs ?? 0)));

/** The certificate of one submit. Times are anchored on the server's clock: the browser's are only offsets from its page load. */
export function buildCertificate(f: CertificateFacts): Certificate {
  const ev = f.evidence;
  const loaded = pageLoadedAt(f.receivedAt, ev).getTime();
  const rules = f.consentRules ?? CONSENT_DISPLAY_RULES;
  const problems = displayProblems(ev?.consent, rules);
  return {
    version: CERTIFICATE_VERSION,
    id: f.id,
    leadId: f.leadId,
    brand: f.brand.id,
    test: f.test,
    issuedAt: f.receivedAt.toISOString(),
    // the consent names the brand and "the lenders and partners in its network"
    seller: { legalName: f.brand.legalName ?? f.brand.name, brandName: f.brand.name, sellers: [f.brand.name, 'the lenders and partners in its network'] },
    consent: {
      version: f.consent.version,
      text: f.consent.text,
      sha256: sha256Hex(f.consent.text),
      display: {
        fontSizePx: ev?.consent?.fontSizePx ?? null,
        contrast: ev?.consent?.contrast ?? null,
        minFontPx: rules.minFontPx,
        minContrast: rules.minContrast,
        meetsRules: problems.length === 0,
        problems,
      },
    },
    page: {
      url: f.pageUrl,
      htmlSha256: f.served?.sha256 ?? null,
      htmlCachedAt: f.served?.cachedAt ?? null,
      steps: (ev?.steps ?? []).map((s) => ({ step: s.step, htmlSha256: s.htmlSha256 ?? null })),
    },
    times: {
      pageLoadedAt: at(loaded),
      steps: (ev?.steps ?? []).map((s) => ({
        step: s.step,
        shownAt: at(loaded + s.shownMs),
        doneAt: at(loaded + s.doneMs),
        ms: Math.max(0, Math.round(s.doneMs - s.shownMs)),
      })),
      submittedAt: at(loaded + (ev?.submitMs ?? 0)),
      receivedAt: f.receivedAt.toISOString(),
    },
    fields: ev?.fields ?? {},
    client: { ip: f.ip, userAgent: f.userAgent },
  };
}

export function signCertificate(certificate: Certificate, keys: CertificateKeys = certificateKeys()): SignedCertificate {
  const value = sign(null, Buffer.from(canonicalJson(certificate)), keys.current.privateKey).toString('base64url');
  return { certificate, signature: { alg: 'Ed25519', kid: keys.current.kid, value } };
}

/** Whether `signature` (base64url) is `kid`'s signature of exactly these bytes: a buyer's check, byte for byte. */
export function signatureHolds(bytes: Buffer, kid: string, signature: string, keys: CertificateKeys = certificateKeys()): boolean {
  const key = keys.byKid.get(kid);
  return key !== undefined && verify(null, bytes, key.publicKey, Buffer.from(signature, 'base64url'));
}

/** Why a signed certificate does not verify, or undefined when it does (any published key, old ones too). */
export function certificateProblem(signed: SignedCertificate, keys: CertificateKeys = certificateKeys()): string | undefined {
  if (!keys.byKid.has(signed.signature?.kid)) return `signed with key ${String(signed.signature?.kid)}, which is not published`;
  if (signed.signature.alg !== 'Ed25519') return `unknown signature algorithm ${String(signed.signature.alg)}`;
  return signatureHolds(Buffer.from(canonicalJson(signed.certificate)), signed.signature.kid, signed.signature.value, keys)
    ? undefined
    : 'the signature does not match the certificate: it was altered';
}
