/**
 * Whether a brand's application form fits its country (the form itself is one block for all
 * three; what differs is in the brand): the currency and locale are the country's; Canada takes
 * no title-loan requests and its representative example states no APR above the Criminal
 * Code's 35% cap (since January 1, 2025) and names the cap; Australia has a credit licence or
 * credit-representative statement, and a comparison rate in its example carries the law's warning. Pure: returns [JSON pointer, message] pairs.
 */
import type { Brand } from '../../../schemas/brand.types';
import { DEFAULT_LENDING } from '../lending';
import { CURRENCY_OF, LOCALE_OF, type Country } from '../../browser/regions';

export const CA_APR_CAP = 35;

/** Every "NN.NN% APR" (or "APR of NN%") figure in a text. */
export function aprFigures(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(\d{1,3}(?:\.\d+)?)\s?%\s?(?:APR|annual percentage rate)/gi)) out.push(Number(m[1]));
  for (const m of text.matchAll(/APR (?:of|is|up to|from)\s(\d{1,3}(?:\.\d+)?)\s?%/gi)) out.push(Number(m[1]));
  return out;
}

/**
 * The warning Australian law puts beside every comparison rate (National Consumer Credit
 * Protection Regulations 2010, Schedule 1, regulation 100): both sentences.
 */
export const AU_COMPARISON_RATE_WARNING =
  'WARNING: This comparison rate is true only for the example given and may not include all fees and charges. Different terms, fees or other loan amounts might result in a different comparison rate.';
const carriesWarning = (text: string) => text.replace(/\s+/g, ' ').toLowerCase().includes(AU_COMPARISON_RATE_WARNING.toLowerCase());

export function countryFormProblems(brand: Brand): [pointer: string, message: string][] {
  const country = brand.country as Country;
  const out: [string, string][] = [];
  if (brand.currency !== CURRENCY_OF[country])
    out.push(['/currency', `brand "${brand.id}" is in ${country}, whose application form asks for amounts in ${CURRENCY_OF[country]}, not ${brand.currency}`]);
  if (brand.locale !== LOCALE_OF[country])
    out.push(['/locale', `brand "${brand.id}" is in ${country}: its form writes amounts and phone numbers as ${LOCALE_OF[country]} does, not ${brand.locale}`]);
  if (country === 'US') return out;
  if (brand.product === 'title') out.push(['/product', `title-loan requests are taken in the US only; brand "${brand.id}" is in ${country}`]);
  const example = brand.lending?.representativeExample;
  if (country === 'CA') {
    if (!example) {
      out.push([
        '/lending',
        `brand "${brand.id}" is in Canada: give lending.representativeExample for Canada (the default is a US example, up to ${aprOf(DEFAULT_LENDING.general.representativeExample)}% APR)`,
      ]);
    } else {
      const above = aprFigures(example).filter((apr) => apr > CA_APR_CAP);
      if (above.length)
        out.push([
          '/lending/representativeExample',
          `states ${above.map((a) => `${a}% APR`).join(', ')}: above Canada's criminal rate cap of ${CA_APR_CAP}% APR (since January 1, 2025)`,
        ]);
      if (!/35\s?%/.test(example)) out.push(['/lending/representativeExample', `a Canadian brand's example names the ${CA_APR_CAP}% APR cap`]);
    }
  }
  if (country === 'AU') {
    if (!example) out.push(['/lending', `brand "${brand.id}" is in Australia: give lending.representativeExample for Australia (the default is a US example)`]);
    if (example && /comparison rate/i.test(example) && !carriesWarning(example))
      out.push([
        '/lending/representativeExample',
        `an Australian example that states a comparison rate carries its whole warning: "${AU_COMPARISON_RATE_WARNING}"`,
      ]);
    if (!brand.lending?.creditLicence)
      out.push([
        '/lending',
        `brand "${brand.id}" is in Australia: its enquiry form shows lending.creditLicence (its Australian Credit Licence or credit-representative statement)`,
      ]);
  }
  return out;
}

const aprOf = (text: string) => Math.max(...aprFigures(text));
