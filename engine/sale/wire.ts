/**
 * The sale's wire format: what a buyer receives for one lead, and the signature every request to a
 * buyer carries (X-Loansites-Signature: an HMAC-SHA256 of the body under the buyer's secret). The
 * sale posts it and the outbox worker delivers it; both read it from here.
 */
import { createHmac } from 'node:crypto';
import { openText } from '../keys/sealing';
import { isTestLead } from '../leads/environment';
import type { LeadsTable } from '../store/leads';
import { CERTIFICATE_PAGE_PREFIX } from '../browser/certificatePath';
import { thirdPartyConsentFields } from '../site/consentProvider';

/** What a buyer receives for one lead. */
export function leadPayload(lead: LeadsTable): Record<string, unknown> {
  const sensitive = JSON.parse(openText(lead.sealed)) as { dateOfBirth: string; monthlyIncome: number };
  return {
    id: lead.id,
    brand: lead.brand,
    createdAt: lead.created_at,
    loanKind: lead.loan_kind,
    country: lead.country,
    amount: lead.amount,
    currency: lead.currency,
    zip: lead.zip,
    // the state, province or territory code (US, CA, AU alike); `state` stays for buyers that read it
    region: lead.region,
    state: lead.state.toUpperCase(),
    city: lead.city,
    ...(lead.purpose ? { purpose: lead.purpose } : {}),
    ...(lead.vehicle ? { vehicle: JSON.parse(lead.vehicle) } : {}),
    firstName: lead.first_name,
    lastName: lead.last_name,
    email: lead.email,
    phone: lead.phone,
    incomeSource: lead.income_source,
    monthlyIncome: sensitive.monthlyIncome,
    payFrequency: lead.pay_frequency,
    dateOfBirth: sensitive.dateOfBirth,
    consent: {
      version: lead.consent_version,
      text: lead.consent_text,
      sha256: lead.consent_hash,
      at: lead.created_at,
      ip: lead.ip,
      userAgent: lead.user_agent,
    },
    tracking: { source: lead.source, source2: lead.source2, clickId: lead.privacy_opt_out ? '' : lead.click_id, uuid: lead.session_uuid },
    privacyOptOut: lead.privacy_opt_out === 1,
    test: isTestLead(lead),
    ...thirdPartyConsentFields(lead.consent_provider, lead.consent_provider_id),
    ...(lead.certificate_id ? { certificate: { id: lead.certificate_id, url: certificateUrl(lead, lead.certificate_id) } } : {}),
  };
}

/**
 * A certificate's page, at the origin its lead's site was reached at (a local server's scheme and
 * port included); https on the lead's host for a lead stored before the origin was kept.
 */
export const certificateUrl = (lead: { host: string; site_origin?: string }, id: string): string =>
  `${lead.site_origin || `https://${lead.host}`}${CERTIFICATE_PAGE_PREFIX}${id}`;

export const signature = (secret: string, body: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
