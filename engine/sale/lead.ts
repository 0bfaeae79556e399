/** A stored lead as the sale sees it: its sealed fields opened, its age on the day it was stored. */
import { leadPayload } from './wire';
import { ageOn } from '../geo/servedPlaces';
import { isTestLead } from '../leads/environment';
import type { LeadsTable } from '../store/leads';
import type { SaleLead } from './eligibility';

/**
 * A lead from a dev., test123. or localhost host is a test lead (engine/leads/environment.ts): it
 * goes only to buyers that accept test leads. Leads stored before the country columns existed
 * are from the US.
 */
export function saleLeadOf(lead: LeadsTable): SaleLead {
  const payload = leadPayload(lead) as { dateOfBirth: string; monthlyIncome: number };
  return {
    id: lead.id,
    brand: lead.brand,
    loanKind: lead.loan_kind === 'title' ? 'title' : 'general',
    country: lead.country ? lead.country.toUpperCase() : 'US',
    state: (lead.region || lead.state).toUpperCase(),
    zip: lead.zip,
    amount: lead.amount,
    monthlyIncome: payload.monthlyIncome,
    incomeSource: lead.income_source,
    payFrequency: lead.pay_frequency,
    age: ageOn(payload.dateOfBirth, new Date(lead.created_at)) ?? 0,
    source: lead.source,
    test: isTestLead(lead),
    ...(lead.certificate_id ? { certificateId: lead.certificate_id } : {}),
  };
}
