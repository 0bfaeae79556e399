/**
 * The 11 store brands of SPEC §2 (payday popup brand picker) with the loan type SPEC §3
 * assigns each: payday for most, personal for Mariner Finance and PAYOMATIC, installment
 * for Red River Credit, title for TitleMax.
 */
import type { LoanTypeValue } from '../../site/loanTypes';

export interface StoreBrand {
  name: string;
  slug: string;
  loanType: LoanTypeValue;
}

export const STORE_BRANDS: readonly StoreBrand[] = [
  { name: 'Ace Cash Express', slug: 'ace-cash-express', loanType: 'payday loans' },
  { name: 'Advance America', slug: 'advance-america', loanType: 'payday loans' },
  { name: 'Cash Store', slug: 'cash-store', loanType: 'payday loans' },
  { name: 'Check City', slug: 'check-city', loanType: 'payday loans' },
  { name: 'Check Into Cash', slug: 'check-into-cash', loanType: 'payday loans' },
  { name: 'Mariner Finance', slug: 'mariner-finance', loanType: 'loans' },
  { name: 'Money Mart', slug: 'money-mart', loanType: 'payday loans' },
  { name: 'PAYOMATIC', slug: 'payomatic', loanType: 'loans' },
  { name: 'Red River Credit', slug: 'red-river-credit', loanType: 'installment loans' },
  { name: 'The Check Cashing Store', slug: 'the-check-cashing-store', loanType: 'payday loans' },
  { name: 'TitleMax', slug: 'titlemax', loanType: 'title loans' },
];
