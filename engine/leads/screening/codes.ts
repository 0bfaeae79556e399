/**
 * Screening's reason codes, the check each belongs to, and how much each lowers the quality score
 * (100 = nothing found). The codes are what operators, the console and buyers' pings see; they
 * carry no personal data.
 */
export const REASONS = {
  'phone-invalid': { check: 'phone', weight: 40 },
  'phone-toll-free': { check: 'phone', weight: 40 },
  'phone-premium': { check: 'phone', weight: 50 },
  'phone-landline': { check: 'phone', weight: 10 },
  'email-syntax': { check: 'email', weight: 40 },
  'email-disposable': { check: 'email', weight: 30 },
  'email-typo': { check: 'email', weight: 10 },
  'velocity-1h': { check: 'velocity', weight: 25 },
  'velocity-24h': { check: 'velocity', weight: 10 },
  'bot-fast': { check: 'bot', weight: 25 },
  'bot-no-input-events': { check: 'bot', weight: 25 },
  'bot-paste-all': { check: 'bot', weight: 20 },
  'bot-trap-field': { check: 'bot', weight: 100 },
  'bot-webdriver': { check: 'bot', weight: 10 },
  'age-rule': { check: 'consistency', weight: 30 },
  'zip-state': { check: 'consistency', weight: 20 },
  'amount-range': { check: 'consistency', weight: 15 },
  duplicate: { check: 'duplicate', weight: 20 },
  'opted-out': { check: 'optOut', weight: 100 },
  'scrub-dnc': { check: 'scrub', weight: 50 },
  'scrub-litigator': { check: 'scrub', weight: 100 },
  // the brand runs TrustedForm or Jornaya, and the lead came without its certificate (script blocked or stripped)
  'consent-provider-missing': { check: 'consentProvider', weight: 15 },
} as const;

export type ReasonCode = keyof typeof REASONS;
export type CheckName = (typeof REASONS)[ReasonCode]['check'];
export const CHECKS = [
  'phone',
  'email',
  'velocity',
  'bot',
  'consistency',
  'duplicate',
  'optOut',
  'scrub',
  'consentProvider',
] as const satisfies readonly CheckName[];

/** A check that could not run (a scrub service down, signals not sent) and is set fail-closed. */
export const unavailableCode = (check: CheckName): string => `${check}-unavailable`;
/** What a fail-closed check that could not run costs. */
export const UNAVAILABLE_WEIGHT = 20;

export const isReasonCode = (code: string): code is ReasonCode => Object.hasOwn(REASONS, code);
