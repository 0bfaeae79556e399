import type { LoanType } from '../../schemas/brand.types';

export interface LoanTypeInfo {
  slug: LoanType;
  /** SPEC §3 value: 'payday loans' | 'title loans' | 'loans' | 'installment loans' */
  value: LoanTypeValue;
  singular: string;
  plural: string;
  nearMe: boolean;
}

export type LoanTypeValue = 'payday loans' | 'title loans' | 'loans' | 'installment loans';

export const LOAN_TYPES: Record<LoanType, LoanTypeInfo> = {
  'payday-loans': { slug: 'payday-loans', value: 'payday loans', singular: 'payday loan', plural: 'payday loans', nearMe: false },
  'installment-loans': { slug: 'installment-loans', value: 'installment loans', singular: 'installment loan', plural: 'installment loans', nearMe: false },
  'title-loans': { slug: 'title-loans', value: 'title loans', singular: 'title loan', plural: 'title loans', nearMe: false },
  'personal-loans': { slug: 'personal-loans', value: 'loans', singular: 'personal loan', plural: 'personal loans', nearMe: false },
  'payday-loans-near-me': { slug: 'payday-loans-near-me', value: 'payday loans', singular: 'payday loan', plural: 'payday loans', nearMe: true },
  'title-loans-near-me': { slug: 'title-loans-near-me', value: 'title loans', singular: 'title loan', plural: 'title loans', nearMe: true },
  'loans-near-me': { slug: 'loans-near-me', value: 'installment loans', singular: 'loan', plural: 'loans', nearMe: true },
  'cash-advance-near-me': { slug: 'cash-advance-near-me', value: 'payday loans', singular: 'cash advance', plural: 'cash advances', nearMe: true },
};

/** SPEC §3: the separate mapping used by near-me pages. */
export const NEAR_ME_PREFIX: Record<LoanTypeValue, string> = {
  'installment loans': 'loans-near-me',
  loans: 'loans-near-me',
  'payday loans': 'payday-loans-near-me',
  'title loans': 'title-loans-near-me',
};
