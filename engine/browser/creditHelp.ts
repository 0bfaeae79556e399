/**
 * Free, independent help with money for a borrower no lender took, in the brand's country: the
 * non-profit counselling service a borrower there can reach (the US NFCC, Credit Counselling
 * Canada, Australia's National Debt Helpline). Browser-safe; shown on the form's "no lender
 * right now" screen (blocks/applyForm/SaleStatus.tsx).
 */
import type { Country } from './regions';

export interface CreditHelp {
  /** the sentence's end: "You could read our guide to your options, or …" */
  offer: string;
  /** the link's text */
  label: string;
  href: string;
}

export const CREDIT_HELP: Record<Country, CreditHelp> = {
  // American spelling on US pages (the NFCC is the National Foundation for Credit Counseling); Canadian and Australian English double the l
  US: { offer: 'talk to a non-profit credit counselor for free', label: 'Free credit counseling (NFCC)', href: 'https://www.nfcc.org/' },
  CA: {
    offer: 'talk to a non-profit credit counsellor for free',
    label: 'Free credit counselling (Credit Counselling Canada)',
    href: 'https://creditcounsellingcanada.ca/',
  },
  AU: {
    offer: 'call the National Debt Helpline on 1800 007 007 for free, confidential financial counselling',
    label: 'Free financial counselling (National Debt Helpline, 1800 007 007)',
    href: 'https://ndh.org.au/',
  },
};

/** The help for a brand's country (the US's for a country the table does not know). */
export const creditHelpOf = (country: string): CreditHelp => CREDIT_HELP[country as Country] ?? CREDIT_HELP.US;
