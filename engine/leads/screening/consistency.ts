/**
 * The consistency check: facts of one request that disagree with each other.
 * - age: at least the age of majority where the borrower lives (19 in British Columbia, New
 *   Brunswick, Newfoundland and Labrador, Nova Scotia, the three territories, Alabama and Nebraska;
 *   21 in Mississippi; 18 elsewhere — a request under that age is already refused before storing:
 *   engine/browser/age.ts minAgeIn) and under 100 (a year typed wrong);
 * - ZIP against state: a US ZIP's first digit names its USPS area, which must hold the state the
 *   geocoder found (a stale or forged lookup);
 * - amount: within the brand's range for its kind of loan (screening.amount, or $100–$5,000,
 *   $10,000 for title loans).
 */
import type { ReasonCode } from './codes';
import { minAgeIn } from '../../browser/age';

const ZIP_AREA: Record<string, string> = {
  '0': 'CT MA ME NH NJ NY PR RI VT VI',
  '1': 'DE NY PA',
  '2': 'DC MD NC SC VA WV',
  '3': 'AL FL GA MS TN',
  '4': 'IN KY MI OH',
  '5': 'IA MN MT ND SD WI',
  '6': 'IL KS MO NE',
  '7': 'AR LA OK TX',
  '8': 'AZ CO ID NM NV UT WY',
  '9': 'AK CA HI OR WA GU AS MP',
};

export interface ConsistencyFacts {
  country: string;
  /** upper-case region code */
  region: string;
  zip: string;
  age: number;
  amount: number;
  loanKind: 'general' | 'title';
  amountRange?: { min?: number; max?: number };
}

export const defaultAmountRange = (kind: 'general' | 'title') => ({ min: 100, max: kind === 'title' ? 10_000 : 5_000 });

export function consistencyReasons(f: ConsistencyFacts): ReasonCode[] {
  const out: ReasonCode[] = [];
  const majority = minAgeIn(f.country, f.region);
  if (f.age < majority || f.age >= 100) out.push('age-rule');
  if (f.country === 'US' && /^\d{5}$/.test(f.zip) && !(ZIP_AREA[f.zip[0]!] ?? '').split(' ').includes(f.region)) out.push('zip-state');
  const range = { ...defaultAmountRange(f.loanKind), ...f.amountRange };
  if (f.amount < range.min || f.amount > range.max) out.push('amount-range');
  return out;
}
