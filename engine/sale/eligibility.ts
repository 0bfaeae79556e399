/**
 * Whether a buyer may be offered a lead: a pure function of the buyer document, the lead's
 * facts, the time and the buyer's counts so far. Every "no" carries a reason an operator can
 * read on the sale's timeline.
 */
import type { Buyer } from '../../schemas/buyer.types';
import { isOpen } from './schedule';

/** What the sale knows of a lead when it decides (the sealed fields already opened). */
export interface SaleLead {
  id: string;
  brand: string;
  loanKind: 'general' | 'title';
  /** ISO 3166-1 alpha-2, upper case */
  country: string;
  /** two letters, upper case */
  state: string;
  zip: string;
  amount: number;
  monthlyIncome: number;
  incomeSource: string;
  payFrequency: string;
  age: number;
  source: string;
  test: boolean;
  /** its consent certificate (none for leads stored before certificates) */
  certificateId?: string;
  /** its brand's consent provider's certificate (TrustedForm URL or Jornaya token), none when the brand has none */
  thirdPartyConsent?: { kind: string; value: string };
  /** the lead's screening (engine/leads/screening); absent when it was not screened */
  quality?: { score: number; band: 'high' | 'medium' | 'low'; codes: string[]; routing: string };
}

export interface EligibilityContext {
  now: Date;
  /** the same phone or email was seen within the duplicate window */
  duplicate: boolean;
  /** the contact revoked consent: nobody may buy it */
  suppressed: boolean;
  /** leads sold to this buyer so far today and this month, in its own time zone */
  soldToday: number;
  soldThisMonth: number;
}

export type Eligibility = { ok: true } | { ok: false; reason: string };

const no = (reason: string): Eligibility => ({ ok: false, reason });
const inRange = (r: { min?: number; max?: number } | undefined, v: number) =>
  !r || ((r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max));

export function eligibility(buyer: Buyer, lead: SaleLead, ctx: EligibilityContext): Eligibility {
  if (buyer.enabled === false) return no('disabled');
  if (ctx.suppressed) return no('the contact opted out');
  if (lead.test && !buyer.acceptsTestLeads) return no('a test lead');
  if (ctx.duplicate && !buyer.acceptsDuplicates) return no('a duplicate');
  if (buyer.minQualityScore !== undefined && (lead.quality?.score ?? -1) < buyer.minQualityScore)
    return no(
      lead.quality
        ? `quality score ${lead.quality.score} under its minimum ${buyer.minQualityScore}`
        : `not screened (minimum quality score ${buyer.minQualityScore})`,
    );
  if (lead.quality?.routing === 'low-quality-buyers' && !buyer.acceptsLowQuality) return no(`quality score ${lead.quality.score} under the brand's threshold`);
  const f = buyer.filters ?? {};
  if (f.brands && !f.brands.includes(lead.brand)) return no(`brand ${lead.brand} not taken`);
  if (f.loanKinds && !f.loanKinds.includes(lead.loanKind)) return no(`${lead.loanKind} loans not taken`);
  if (f.countries && !f.countries.includes(lead.country)) return no(`country ${lead.country} not taken`);
  if (f.states?.allow && !f.states.allow.includes(lead.state)) return no(`state ${lead.state} not taken`);
  if (f.states?.deny?.includes(lead.state)) return no(`state ${lead.state} refused`);
  if (!inRange(f.amount, lead.amount)) return no(`amount $${lead.amount} outside ${f.amount!.min ?? 0}–${f.amount!.max ?? '∞'}`);
  if (f.minMonthlyIncome !== undefined && lead.monthlyIncome < f.minMonthlyIncome) return no(`monthly income under $${f.minMonthlyIncome}`);
  if (f.incomeSources && !f.incomeSources.includes(lead.incomeSource as never)) return no(`income source ${lead.incomeSource} not taken`);
  if (f.payFrequencies && !f.payFrequencies.includes(lead.payFrequency as never)) return no(`pay frequency ${lead.payFrequency} not taken`);
  if (!inRange(f.age, lead.age)) return no(`age ${lead.age} outside ${f.age!.min ?? 18}–${f.age!.max ?? '∞'}`);
  if (!isOpen(buyer.schedule, ctx.now)) return no('outside its schedule');
  if (buyer.caps?.perDay !== undefined && ctx.soldToday >= buyer.caps.perDay) return no(`daily cap ${buyer.caps.perDay} reached`);
  if (buyer.caps?.perMonth !== undefined && ctx.soldThisMonth >= buyer.caps.perMonth) return no(`monthly cap ${buyer.caps.perMonth} reached`);
  return { ok: true };
}
