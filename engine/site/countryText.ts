/**
 * What the application form says differently per country, besides the field words of
 * engine/browser/regions.ts: who asks for consent (the brand's organization), and the notices an
 * enquiry form shows in Australia (the credit licence or credit-representative statement and
 * responsible lending next to the amount; the Privacy Act collection notice above the consent).
 * Canada's cost disclosure (the 35% APR cap, payday rules) is the brand's representative
 * example, which the validator checks (engine/site/brandChecks/countryForm.ts).
 */
import type { Brand } from '../../schemas/brand.types';
import type { ConsentParty } from './consent';
import { addressLine } from './lending';
import { fill, type Vars } from './templates';

export const consentPartyOf = (brand: Pick<Brand, 'name' | 'organization'>): ConsentParty => ({
  name: brand.name,
  address: addressLine(brand.organization.address),
  telephone: brand.organization.telephone,
  email: brand.organization.email,
});

export const AU_RESPONSIBLE_LENDING =
  'Lenders must make reasonable inquiries about your income, expenses and needs, verify them, and must not offer you a loan that is unsuitable for you (responsible lending obligations, National Consumer Credit Protection Act 2009). Sending an enquiry is not an application for credit and does not affect your credit file.';

/** The Privacy Act's collection notice (Australian Privacy Principle 5) for a brand. */
export const auCollectionNotice = (brand: Pick<Brand, 'name' | 'organization'>): string =>
  `Collection notice: ${brand.name} (${addressLine(brand.organization.address)}; ${brand.organization.email}) collects the personal information in this form to refer your enquiry to lenders in its network that hold an Australian Credit Licence. Those lenders use it to assess your enquiry and may obtain your credit report from a credit reporting body. Without it we cannot pass your enquiry on. Our Privacy Policy explains how to access or correct your information, how to complain and how we handle a complaint (you may also complain to the Office of the Australian Information Commissioner); we do not send your information overseas.`;

/**
 * How soon a lender must stop calling, texting and emailing once told a borrower revoked consent,
 * as the stop-calls page says it ({optOut.deadline}): 10 business days under the FCC's TCPA
 * revocation rule (US) and CASL (Canada), 5 business days under Australia's Spam Act 2003.
 */
export const OPT_OUT_DEADLINE: Record<Brand['country'], string> = { US: '10 business days', CA: '10 business days', AU: '5 business days' };

export interface CountryNotices {
  /** beside the amount: the credit licence statement and responsible lending (Australia) */
  besideAmount: string[];
  /** above the consent: the collection notice (Australia) */
  beforeConsent: string[];
}

export function countryNotices(brand: Brand, vars: Vars): CountryNotices {
  if (brand.country !== 'AU') return { besideAmount: [], beforeConsent: [] };
  const licence = brand.lending?.creditLicence;
  return { besideAmount: [...(licence ? [fill(licence, vars)] : []), AU_RESPONSIBLE_LENDING], beforeConsent: [auCollectionNotice(brand)] };
}
