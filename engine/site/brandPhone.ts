/**
 * A brand's own telephone (organization.telephone), read as an operator types it in the studio's
 * wizard or brand:new, and as the validator and the studio check a brand: a number in use in the
 * brand's country (a toll-free one included: NANP 800/833/844/855/866/877/888, Australia's 1800,
 * 1300 and 13), never a premium-rate one (NANP 900, Australia's 19) nor one with an extension, and
 * written the way the brand files write one: +1-416-555-0187 in North America, +61 2 5550 0148 in
 * Australia, whose 1800/1300/13 numbers are written as Australians dial them (1800 007 007): they
 * cannot be dialled from abroad, so a +61 in front would only mislead.
 *
 * It reads libphonenumber's full ("max") metadata, the only one that tells a premium-rate or
 * toll-free number by its type (~150 KB of JavaScript): for the console, the validator and
 * brand:new only. The front door builds the catalog at start-up and brand pages ship to browsers,
 * so nothing they load may import this file (tests/unit/brand-phone-boundary.test.ts); the
 * catalog's own checks (./brandChecks/semantic.ts) leave the telephone to ./brandChecks/telephone.ts.
 */
import { parsePhoneNumberFromString, validatePhoneNumberLength, type PhoneNumber } from 'libphonenumber-js/max';
import type { Country } from '../browser/regions';

export type BrandPhone = { phone: string } | { problem: string };

/** A number written the brand files' way, per country, for the messages. */
export const PHONE_EXAMPLE: Record<Country, string> = { US: '+1-800-555-0100', CA: '+1-416-555-0187', AU: '+61 2 5550 0148' };

const IN: Record<Country, string> = { US: 'the United States', CA: 'Canada', AU: 'Australia' };
/** "a Canadian number": the countries a brand can be in, by their adjective. */
const A_NUMBER_OF: Partial<Record<string, string>> = { US: 'a US number', CA: 'a Canadian number', AU: 'an Australian number' };

/** Australia's numbers that are dialled only inside Australia: freecall 1800, local-rate 1300 and 13. */
const AU_DOMESTIC = /^1(?:3|80)/;

/** NANP digits as the brand files write them: +1-416-555-0187. */
const nanp = (national: string) => `+1-${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}`;

/** The number as the brand files write it (the number is valid and of the brand's country). */
function written(n: PhoneNumber): string {
  if (n.countryCallingCode === '1') return nanp(n.nationalNumber);
  if (n.countryCallingCode === '61' && AU_DOMESTIC.test(n.nationalNumber))
    // 13 11 14 has six digits, written in pairs; 1800/1300 numbers as 1800 007 007
    return n.nationalNumber.length === 6 ? n.nationalNumber.replace(/^(\d\d)(\d\d)(\d\d)$/, '$1 $2 $3') : n.formatNational();
  return n.formatInternational();
}

/** Which country a valid number of another one is in, for the message. */
function otherCountry(n: PhoneNumber): string {
  const known = n.country && A_NUMBER_OF[n.country];
  if (known) return n.countryCallingCode === '1' ? `${known} (area code ${n.nationalNumber.slice(0, 3)})` : known;
  let name: string | undefined;
  try {
    name = n.country ? new Intl.DisplayNames(['en'], { type: 'region' }).of(n.country) : undefined;
  } catch {
    name = undefined;
  }
  return `a +${n.countryCallingCode} number${name ? ` (${name})` : ''}`;
}

/**
 * The brand's telephone as the brand files write it, or why it cannot be the brand's number in
 * `country`, in words an operator can act on.
 */
export function readBrandPhone(text: string, country: Country): BrandPhone {
  const typed = text.trim();
  const example = PHONE_EXAMPLE[country];
  if (!typed) return { problem: `give the brand's phone number, e.g. ${example}` };
  const n = parsePhoneNumberFromString(typed, { defaultCountry: country });
  if (!n) return { problem: `"${typed}" is not a phone number; write one such as ${example}` };
  if (n.ext)
    return {
      problem: `"${typed}" has an extension (${n.ext}); give a number that reaches the brand without one: the pages' call links dial every digit written, so an extension would be dialled as part of the number`,
    };
  if (!n.isValid()) {
    const length = validatePhoneNumberLength(typed, { defaultCountry: country });
    // seven digits dial a local number in North America, but a brand's visitors call from everywhere
    if (length === 'TOO_SHORT' || (n.countryCallingCode === '1' && n.nationalNumber.length < 10))
      return { problem: `"${typed}" has too few digits for a phone number; write it with its area code, such as ${example}` };
    if (length === 'TOO_LONG') return { problem: `"${typed}" has too many digits for a phone number; write one number, such as ${example}` };
    const why =
      n.countryCallingCode === '1' ? `${n.nationalNumber.slice(0, 3)} is no North American area code in use` : 'no number in use starts with those digits';
    return { problem: `"${typed}" is not a valid phone number: ${why}; check the digits (a number is written like ${example})` };
  }
  const type = n.getType();
  if (type === 'PREMIUM_RATE')
    return {
      problem: `"${typed}" is a premium-rate number: callers pay extra for every minute; give a number borrowers can call at the normal rate or free, such as ${example}`,
    };
  // NANP toll-free numbers are the US's in the metadata, and ring in Canada just the same
  const tollFreeAcrossNanp = type === 'TOLL_FREE' && n.countryCallingCode === '1' && (country === 'US' || country === 'CA');
  if (n.country !== country && !tollFreeAcrossNanp)
    return {
      problem: `"${typed}" is ${otherCountry(n)}, but this brand is in ${IN[country]}: give the brand's number in ${IN[country]}, written like ${example}`,
    };
  return { phone: written(n) };
}
