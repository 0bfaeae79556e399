/**
 * The phone check: a number that can reach a borrower's mobile in the brand's country
 * (libphonenumber's mobile metadata, small enough for the server's lead path), and never a
 * toll-free or premium-rate number, told apart by their well-known prefixes: NANP 800, 833, 844,
 * 855, 866, 877, 888 (toll-free) and 900 (premium); Australia 1800 (freecall), 13/1300 (shared
 * cost, counted as toll-free: no person's line) and 19 (premium). An Australian landline is valid
 * but not a mobile: flagged by its line type.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import type { Country } from '../../browser/regions';
import type { ReasonCode } from './codes';

const NANP_TOLL_FREE = /^(800|833|844|855|866|877|888)/;
const AU_LANDLINE = /^0[2378]\d{8}$/;

function nationalDigits(phone: string, country: Country): string {
  let d = phone.replace(/\D/g, '');
  if (country === 'AU') {
    if (d.startsWith('61')) d = `0${d.slice(2)}`;
  } else if (d.length === 11 && d.startsWith('1')) d = d.slice(1);
  return d;
}

export function phoneReasons(phone: string, country: Country): ReasonCode[] {
  const d = nationalDigits(phone, country);
  if (country === 'AU') {
    if (/^1800/.test(d) || /^13/.test(d)) return ['phone-toll-free'];
    if (/^19/.test(d)) return ['phone-premium'];
    if (AU_LANDLINE.test(d)) return ['phone-landline'];
  } else {
    if (NANP_TOLL_FREE.test(d)) return ['phone-toll-free'];
    if (/^900/.test(d)) return ['phone-premium'];
  }
  const parsed = parsePhoneNumberFromString(d, country);
  return parsed?.isValid() ? [] : ['phone-invalid'];
}
