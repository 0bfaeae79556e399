/** A stored lead as the sale sees it: its sealed fields opened, its age on the day it was stored. */
import { leadPayload } from '../leads/deliver';
import { ageOn } from '../leads/rules';
import type { LeadsTable } from '../store/leads';
import type { SaleLead } from './eligibility';

/**
 * Columns other parts of the product may add to a lead (a test flag, a country) are read when
 * present; a lead without them is a real lead from the US.
 */
export function saleLeadOf(lead: LeadsTable): SaleLead {
  const payload = leadPayload(lead) as { dateOfBirth: string; monthlyIncome: number };
  const extra = lead as unknown as Record<string, unknown>;
  return {
    id: lead.id,
    brand: lead.brand,
    loanKind: lead.loan_kind === 'title' ? 'title' : 'general',
    country: typeof extra.country === 'string' && extra.country ? extra.country.toUpperCase() : 'US',
    state: lead.state.toUpperCase(),
    zip: lead.zip,
    amount: lead.amount,
    monthlyIncome: payload.monthlyIncome,
    incomeSource: lead.income_source,
    payFrequency: lead.pay_frequency,
    age: ageOn(payload.dateOfBirth, new Date(lead.created_at)) ?? 0,
    source: lead.source,
    test: extra.test === 1 || extra.test === true || extra.is_test === 1 || extra.is_test === true,
  };
}
