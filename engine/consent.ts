/**
 * The consent shown next to the application form's submit button (TCPA-style): it names the
 * brand and says consent is not a condition of any loan. The text is versioned: a lead stores
 * the version, the exact text of that version for its brand, and the text's SHA-256 — so the
 * record says what the visitor saw, even after the wording changes. Add a version; never edit
 * one that leads were stored with.
 */
export const CONSENT_VERSIONS = {
  'tcpa-2026-11': (brand: string) =>
    `By checking this box and selecting "Submit my request", I agree to the Terms and Privacy Policy of ${brand} and give my express written consent for ${brand} and the lenders and partners in its network to contact me about my request at the phone number and email I provided, including by calls and text messages sent with automated technology or prerecorded voice. Message and data rates may apply. My consent is not a condition of obtaining any loan; I can withdraw it at any time by replying STOP or contacting ${brand}.`,
} as const satisfies Record<string, (brand: string) => string>;

export type ConsentVersion = keyof typeof CONSENT_VERSIONS;
export const CURRENT_CONSENT_VERSION: ConsentVersion = 'tcpa-2026-11';

export const isConsentVersion = (v: string): v is ConsentVersion => Object.prototype.hasOwnProperty.call(CONSENT_VERSIONS, v);

/** The exact text of a consent version for a brand. */
export const consentText = (version: ConsentVersion, brandName: string): string => CONSENT_VERSIONS[version](brandName);
