/** A stored lead as the sale sees it: its sealed fields opened, its age on the day it was stored. */
import { dayIn } from '../geo/regionTimeZones';
import { leadPayload } from './wire';
import { ageOn } from '../geo/servedPlaces';
import { isTestLead } from '../leads/environment';
import type { LeadsTable } from '../store/leads';
import type { LeadScreeningTable } from '../store/screening';
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
    age:
      ageOn(
        payload.dateOfBirth,
        dayIn(new Date(lead.created_at), lead.country ? lead.country.toUpperCase() : 'US', (lead.region || lead.state).toUpperCase()),
      ) ?? 0,
    source: lead.source,
    test: isTestLead(lead),
    ...(lead.certificate_id ? { certificateId: lead.certificate_id } : {}),
    ...(lead.consent_provider && lead.consent_provider_id ? { thirdPartyConsent: { kind: lead.consent_provider, value: lead.consent_provider_id } } : {}),
  };
}

/** A stored screening as the sale reads it. */
export function qualityOf(row: LeadScreeningTable): NonNullable<SaleLead['quality']> {
  const band = row.band === 'high' || row.band === 'medium' ? row.band : 'low';
  return { score: row.score, band, codes: row.codes.split(',').filter(Boolean), routing: row.routing };
}

/** Why screening keeps the lead from every buyer (the brand refuses or holds it), or undefined. */
export function screeningDecision(lead: SaleLead): string | undefined {
  const q = lead.quality;
  if (q?.routing === 'refuse') return `refused by screening (score ${q.score}: ${q.codes.join(', ') || 'no codes'})`;
  if (q?.routing === 'hold') return `held for review by screening (score ${q.score}: ${q.codes.join(', ') || 'no codes'})`;
  // an operator's review of a held lead (engine/store/screening.ts reviewHeldLead): "released" is sold as any other lead
  if (q?.routing === 'rejected') return `rejected by an operator's review (score ${q.score}: ${q.codes.join(', ') || 'no codes'})`;
  return undefined;
}
