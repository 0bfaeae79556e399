/**
 * Cost and trust text next to every apply button (SPEC §1: a broker, not a lender; free; may be
 * paid by lenders): one brand-level setting, `lending` in the brand document, read by the hero's
 * call to action and by the application form. Brands without one get the default for their
 * product, so no brand shows an apply button without them.
 */
import type { Brand } from '../../schemas/brand.types';
import { fill, type Vars } from './templates';

export interface LendingView {
  /** "Representative example: a $… loan repaid in 12 monthly installments …" with the APR range */
  representativeExample: string;
  /** one line: not a lender, free, how the operator is paid */
  howWePaid: string;
  /** the operator as its organization data gives it, shown beside the button */
  contact: { telephone: string; address: string };
}

export const DEFAULT_LENDING = {
  general: {
    representativeExample:
      'Representative example: a $1,000 loan repaid in 12 monthly installments of $100.46 at 35.99% APR costs $1,205.52 in total ($205.52 in interest). APRs on installment and personal loans from lenders in our network range from 5.99% to 35.99%; short-term and payday loans can cost much more where state law allows. The lender sets your rate and shows it to you before you sign.',
    howWePaid: '{brand.name} is not a lender and is free to use: lenders in our network may pay us when they receive your request.',
  },
  title: {
    representativeExample:
      'Representative example: a $2,500 title loan repaid in 12 monthly installments of $323.18 at 89.99% APR costs $3,878.16 in total ($1,378.16 in interest). APRs on title loans from lenders in our network range from 36% to 299.99%, depending on your state and the lender. The lender sets your rate and shows it to you before you sign.',
    howWePaid: '{brand.name} is not a lender and is free to use: title lenders in our network may pay us when they receive your request.',
  },
} as const;

/** "2150 Coral Way, Suite 4B, Miami, FL 33145" */
export function addressLine(a: Brand['organization']['address']): string {
  return [a.streetAddress, a.addressLocality, [a.addressRegion, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
}

export function lendingView(brand: Brand, vars: Vars): LendingView {
  const defaults = DEFAULT_LENDING[brand.product === 'title' ? 'title' : 'general'];
  return {
    representativeExample: fill(brand.lending?.representativeExample ?? defaults.representativeExample, vars),
    howWePaid: fill(brand.lending?.howWePaid ?? defaults.howWePaid, vars),
    contact: { telephone: brand.organization.telephone, address: addressLine(brand.organization.address) },
  };
}
