/**
 * The ping: what a ping-post buyer sees before it bids — enough to price the lead, nothing that
 * identifies the borrower (no name, email, phone, date of birth, full ZIP, city or exact income).
 */
import type { BuyerPing } from '../../schemas/api.types';
import type { SaleLead } from './eligibility';
import { thirdPartyConsentFields } from '../site/consentProvider';

export function incomeBand(monthly: number): BuyerPing['incomeBand'] {
  if (monthly < 1000) return '0-999';
  if (monthly < 2000) return '1000-1999';
  if (monthly < 3000) return '2000-2999';
  if (monthly < 5000) return '3000-4999';
  return '5000+';
}

export function ageBand(age: number): BuyerPing['ageBand'] {
  if (age < 25) return '18-24';
  if (age < 35) return '25-34';
  if (age < 45) return '35-44';
  if (age < 55) return '45-54';
  if (age < 65) return '55-64';
  return '65+';
}

export function pingPayload(lead: SaleLead, pingId: string, duplicate = false): BuyerPing {
  return {
    pingId,
    test: lead.test,
    brand: lead.brand,
    source: lead.source.slice(0, 100) || 'landing-page',
    loanKind: lead.loanKind,
    amount: lead.amount,
    country: lead.country,
    state: lead.state,
    zip3: lead.zip.slice(0, 3),
    incomeBand: incomeBand(lead.monthlyIncome),
    ageBand: ageBand(lead.age),
    payFrequency: lead.payFrequency as BuyerPing['payFrequency'],
    incomeSource: lead.incomeSource as BuyerPing['incomeSource'],
    ...(duplicate ? { duplicate: true } : {}),
    ...(lead.certificateId ? { certificateId: lead.certificateId } : {}),
    // a certificate URL or token of the brand's consent provider: no personal data
    ...thirdPartyConsentFields(lead.thirdPartyConsent?.kind, lead.thirdPartyConsent?.value),
    // the score's band and the reason codes only: no value the borrower gave
    ...(lead.quality ? { qualityBand: lead.quality.band, reasonCodes: lead.quality.codes.slice(0, 30) } : {}),
  };
}
