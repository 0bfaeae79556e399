/**
 * Third-party consent certificates, per brand (brand document `consentProvider`): TrustedForm or
 * Jornaya LeadiD. The provider's script runs on the brand's apply page only (the embedded form
 * adds it once the page is interactive); it writes its certificate URL (TrustedForm) or token
 * (Jornaya) into a hidden field of the form, which the form sends with the lead
 * (`thirdPartyConsent`); the server checks its shape (engine/leads/record.ts) and the sale passes
 * it to buyers in the ping and the post. Only that brand's apply page allows the script's origins
 * in its Content-Security-Policy (engine/site/pagePolicy.ts).
 *
 * The script URLs can be pointed elsewhere (TRUSTEDFORM_SCRIPT_URL, JORNAYA_SCRIPT_URL,
 * TRUSTEDFORM_CERT_ORIGIN): tests run local stand-ins for both services, as there is no outside
 * network; the policy then allows the stand-in's origin instead of the provider's.
 */
import type { Brand } from '../../schemas/brand.types';
import { originOf } from './csp.mjs';

export type ConsentProviderKind = 'trustedform' | 'jornaya';

export interface ConsentProviderScript {
  kind: ConsentProviderKind;
  /** the script the apply page loads */
  scriptUrl: string;
  /** the form field the script fills: TrustedForm adds it (named so); Jornaya fills the one we render (by id) */
  field: string;
  /** origins the script is loaded from, and those it talks to (its Content-Security-Policy) */
  scripts: string[];
  connect: string[];
}

type Env = Record<string, string | undefined>;

export const TRUSTEDFORM_FIELD = 'xxTrustedFormCertUrl';
export const JORNAYA_FIELD = 'leadid_token';
const TRUSTEDFORM_SCRIPT = `https://api.trustedform.com/trustedform.js?field=${TRUSTEDFORM_FIELD}&use_tagged_consent=true`;
const TRUSTEDFORM_CERTS = 'https://cert.trustedform.com';
const JORNAYA_SCRIPT = 'https://create.lidstatic.com/campaign/{campaignId}.js?snippet_version=2';

/** Where TrustedForm's certificates live: a certificate URL from anywhere else is refused. */
export const trustedFormCertOrigin = (env: Env = process.env): string => env.TRUSTEDFORM_CERT_ORIGIN || TRUSTEDFORM_CERTS;

/** The brand's provider script, or undefined when it has none (or "none"). */
export function consentProviderOf(brand: Pick<Brand, 'consentProvider'>, env: Env = process.env): ConsentProviderScript | undefined {
  const p = brand.consentProvider;
  if (!p || p.kind === 'none') return undefined;
  if (p.kind === 'trustedform') {
    const scriptUrl = env.TRUSTEDFORM_SCRIPT_URL || TRUSTEDFORM_SCRIPT;
    const origin = originOf(scriptUrl);
    if (!origin) return undefined;
    // the script posts the form's events to its own origin; the certificate is created on the certificates' host
    return { kind: 'trustedform', scriptUrl, field: TRUSTEDFORM_FIELD, scripts: [origin], connect: [...new Set([origin, trustedFormCertOrigin(env)])] };
  }
  const scriptUrl = (env.JORNAYA_SCRIPT_URL || JORNAYA_SCRIPT).replace('{campaignId}', encodeURIComponent(p.campaignId ?? ''));
  const origin = originOf(scriptUrl);
  if (!origin) return undefined;
  // LeadiD's script reports the form's events to its leadid.com hosts; a stand-in answers on its own origin
  const connect = env.JORNAYA_SCRIPT_URL ? [origin] : [origin, 'https://*.leadid.com'];
  return { kind: 'jornaya', scriptUrl, field: JORNAYA_FIELD, scripts: [origin], connect };
}

const JORNAYA_TOKEN = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/**
 * Why the value a form sent for the brand's provider is not one that provider gives, or undefined
 * when it is: a TrustedForm certificate URL on its certificates' host (40 hex digits), a Jornaya
 * LeadiD token (36 characters, a UUID).
 */
export function thirdPartyConsentProblem(kind: ConsentProviderKind, value: string, env: Env = process.env): string | undefined {
  if (kind === 'jornaya') return JORNAYA_TOKEN.test(value) ? undefined : 'The Jornaya LeadiD token must be 36 characters (8-4-4-4-12 hexadecimal digits)';
  const host = trustedFormCertOrigin(env);
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  return url && url.origin === host && /^\/[0-9a-f]{40}$/.test(url.pathname) && !url.search
    ? undefined
    : `The TrustedForm certificate URL must be ${host}/ followed by its 40-character id`;
}

/** What a ping and a post carry of it: the certificate URL or the token, under the provider's name. */
export function thirdPartyConsentFields(kind: string | undefined, value: string | undefined): { trustedFormCertUrl?: string; jornayaLeadId?: string } {
  if (!value) return {};
  if (kind === 'trustedform') return { trustedFormCertUrl: value };
  if (kind === 'jornaya') return { jornayaLeadId: value };
  return {};
}
