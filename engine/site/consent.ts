/**
 * The consent shown next to the application form's submit button, one wording per country:
 * - US (TCPA-style): names the brand and says consent is not a condition of any loan;
 * - Canada (CASL, s. 10 and the CRTC's regulations): express consent for a stated purpose,
 *   who asks for it (name, mailing address, phone, email) and how to withdraw it (unsubscribe);
 * - Australia (Spam Act 2003 and the Privacy Act's collection notice shown above it): consent to
 *   the disclosure to licensed lenders and to their contact, with the way to unsubscribe.
 * The text is versioned: a lead stores the version, the exact text of that version for its
 * brand, and the text's SHA-256 — so the record says what the visitor saw, even after the
 * wording changes. Add a version; never edit one that leads were stored with.
 */
import type { Country } from '../browser/regions';

/** Who asks for consent, as the brand's organization data gives it. */
export interface ConsentParty {
  name: string;
  address?: string;
  telephone?: string;
  email?: string;
}

const party = (p: ConsentParty | string): ConsentParty => (typeof p === 'string' ? { name: p } : p);
const contact = (p: ConsentParty) => [p.address, p.telephone, p.email].filter(Boolean).join('; ');

export const CONSENT_VERSIONS = {
  'tcpa-2026-11': ({ name: brand }: ConsentParty) =>
    `By checking this box and selecting "Submit my request", I agree to the Terms and Privacy Policy of ${brand} and give my express written consent for ${brand} and the lenders and partners in its network to contact me about my request at the phone number and email I provided, including by calls and text messages sent with automated technology or prerecorded voice. Message and data rates may apply. My consent is not a condition of obtaining any loan; I can withdraw it at any time by replying STOP or contacting ${brand}.`,
  'casl-2026-11': (p: ConsentParty) =>
    `By checking this box and selecting "Submit my request", I give my express consent to ${p.name} to send my request to lenders and partners in its network, and for ${p.name} and those lenders to contact me about my request by email, text message and phone at the details I provided. This consent is sought by ${p.name} (${contact(p)}). I can withdraw it at any time, at no cost, by using the unsubscribe link in any email, replying STOP to any text message, or writing to ${p.email ?? p.name}. My consent is not a condition of obtaining a loan. I agree to the Terms and Privacy Policy of ${p.name}.`,
  'au-2026-11': (p: ConsentParty) =>
    `By ticking this box and selecting "Submit my request", I agree to the Terms and Privacy Policy of ${p.name}; I consent to ${p.name} collecting my personal information as the collection notice above describes and disclosing it to lenders in its network that hold an Australian Credit Licence, so they can assess my enquiry; and I consent to ${p.name} and those lenders contacting me about my enquiry by phone, SMS and email. I can unsubscribe at any time by replying STOP to an SMS, using the unsubscribe link in any email, or contacting ${p.name} (${contact(p)}).`,
} as const satisfies Record<string, (party: ConsentParty) => string>;

export type ConsentVersion = keyof typeof CONSENT_VERSIONS;
/** The version the form shows now, per country. */
export const CONSENT_VERSION_OF: Record<Country, ConsentVersion> = { US: 'tcpa-2026-11', CA: 'casl-2026-11', AU: 'au-2026-11' };
export const CURRENT_CONSENT_VERSION: ConsentVersion = CONSENT_VERSION_OF.US;

/** The country a version's wording was written for. */
export const countryOfConsentVersion = (v: ConsentVersion): Country => (v.startsWith('casl-') ? 'CA' : v.startsWith('au-') ? 'AU' : 'US');

export const isConsentVersion = (v: string): v is ConsentVersion => Object.prototype.hasOwnProperty.call(CONSENT_VERSIONS, v);

/** The exact text of a consent version for a brand (its name, or its name and contact details). */
export const consentText = (version: ConsentVersion, brand: ConsentParty | string): string => CONSENT_VERSIONS[version](party(brand));
