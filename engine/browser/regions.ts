/**
 * What differs between the three countries the brands serve, for a loan request: the postal
 * code and the region (state, province or territory) it lies in, how a phone number is written,
 * and the currency. Pure functions, table-tested in tests/unit/regions.test.ts; small enough for
 * the application form's chunk (Canada and Australia decide the region here, without a lookup).
 */

export type Country = 'US' | 'CA' | 'AU';

export interface Region {
  /** upper-case code as the country writes it: "ON", "NSW" */
  code: string;
  name: string;
}

export const CURRENCY_OF: Record<Country, 'USD' | 'CAD' | 'AUD'> = { US: 'USD', CA: 'CAD', AU: 'AUD' };
export const LOCALE_OF: Record<Country, string> = { US: 'en-US', CA: 'en-CA', AU: 'en-AU' };

export const CA_PROVINCES: readonly Region[] = [
  { code: 'AB', name: 'Alberta' },
  { code: 'BC', name: 'British Columbia' },
  { code: 'MB', name: 'Manitoba' },
  { code: 'NB', name: 'New Brunswick' },
  { code: 'NL', name: 'Newfoundland and Labrador' },
  { code: 'NS', name: 'Nova Scotia' },
  { code: 'NT', name: 'Northwest Territories' },
  { code: 'NU', name: 'Nunavut' },
  { code: 'ON', name: 'Ontario' },
  { code: 'PE', name: 'Prince Edward Island' },
  { code: 'QC', name: 'Quebec' },
  { code: 'SK', name: 'Saskatchewan' },
  { code: 'YT', name: 'Yukon' },
];

export const AU_STATES: readonly Region[] = [
  { code: 'ACT', name: 'Australian Capital Territory' },
  { code: 'NSW', name: 'New South Wales' },
  { code: 'NT', name: 'Northern Territory' },
  { code: 'QLD', name: 'Queensland' },
  { code: 'SA', name: 'South Australia' },
  { code: 'TAS', name: 'Tasmania' },
  { code: 'VIC', name: 'Victoria' },
  { code: 'WA', name: 'Western Australia' },
];

/** The first letter of a Canadian postal code (its forward sortation area's district) → province. */
const CA_LETTER: Record<string, string> = {
  A: 'NL',
  B: 'NS',
  C: 'PE',
  E: 'NB',
  G: 'QC',
  H: 'QC',
  J: 'QC',
  K: 'ON',
  L: 'ON',
  M: 'ON',
  N: 'ON',
  P: 'ON',
  R: 'MB',
  S: 'SK',
  T: 'AB',
  V: 'BC',
  Y: 'YT',
};
/**
 * X is shared by two territories; Canada Post splits it by the whole FSA: X0A, X0B and X0C are
 * Nunavut (Qikiqtaaluk, Kivalliq, Kitikmeot), X0E, X0G and X1A the Northwest Territories. Any
 * other X FSA is not in use, so it is refused rather than guessed.
 */
const X_FSA: Record<string, string> = { X0A: 'NU', X0B: 'NU', X0C: 'NU', X0E: 'NT', X0G: 'NT', X1A: 'NT' };

// D, F, I, O, Q and U never appear; W and Z never first (Canada Post).
const CA_POSTAL = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]) ?(\d[ABCEGHJ-NPRSTV-Z]\d)$/;

/** "m5v2t6", "M5V 2T6" → "M5V 2T6"; undefined when it is not a Canadian postal code. */
export function normaliseCaPostalCode(text: string): string | undefined {
  const m = CA_POSTAL.exec(text.trim().toUpperCase());
  return m ? `${m[1]} ${m[2]}` : undefined;
}

export function caProvinceOfPostalCode(text: string): Region | undefined {
  const pc = normaliseCaPostalCode(text);
  if (!pc) return undefined;
  const code = pc[0] === 'X' ? X_FSA[pc.slice(0, 3)] : CA_LETTER[pc[0]!];
  return CA_PROVINCES.find((p) => p.code === code);
}

/**
 * Australia Post's postcode ranges (delivery and PO box ranges). The ACT's are carved out of
 * NSW's (0200–0299, 2600–2618, 2900–2920), and the NT's start with 0 (0800–0999). Norfolk
 * Island (2899) and the Indian Ocean Territories (6798, 6799) are not states: no region.
 */
const AU_RANGES: readonly (readonly [from: number, to: number, code: string])[] = [
  [200, 299, 'ACT'],
  [800, 999, 'NT'],
  [1000, 2599, 'NSW'],
  [2600, 2618, 'ACT'],
  [2619, 2898, 'NSW'],
  [2900, 2920, 'ACT'],
  [2921, 2999, 'NSW'],
  [3000, 3999, 'VIC'],
  [4000, 4999, 'QLD'],
  [5000, 5999, 'SA'],
  [6000, 6797, 'WA'],
  [6800, 6999, 'WA'],
  [7000, 7999, 'TAS'],
  [8000, 8999, 'VIC'],
  [9000, 9999, 'QLD'],
];

export function auStateOfPostcode(text: string): Region | undefined {
  const t = text.trim();
  if (!/^\d{4}$/.test(t)) return undefined;
  const n = Number(t);
  const code = AU_RANGES.find(([from, to]) => n >= from && n <= to)?.[2];
  return AU_STATES.find((s) => s.code === code);
}

/** The postal code as it is stored and sent: ZIP "78701", "M5V 2T6", "2000"; undefined when it is not one of the country's. */
export function normalisePostalCode(text: string, country: Country): string | undefined {
  const t = text.trim();
  if (country === 'CA') return normaliseCaPostalCode(t);
  if (country === 'AU') return /^\d{4}$/.test(t) ? t : undefined;
  return /^\d{5}$/.test(t) ? t : undefined;
}

/**
 * A postal code of the country's shape that is no place's (ZIP 00000, postal code X0Z 1A1,
 * postcode 0000): the form says so on its first step, and the lead API's 422 in the same words.
 */
export function unknownPostalCodeMessage(code: string, country: Country): string {
  if (country === 'US') return `We could not find ZIP code ${code}; check it and try again`;
  const where = country === 'CA' ? 'a Canadian province or territory' : 'an Australian state or territory';
  return `We could not find ${country === 'CA' ? 'postal code' : 'postcode'} ${code} in ${where}; check it and try again`;
}

/**
 * The postal code field's text as typed or pasted: the spaces a copy from an address brings
 * around the code dropped (the field leaves room for them: cut at the code's length, " 78701"
 * pasted became " 7870"), a Canadian code's inner space kept single, a ZIP+4 cut to its ZIP.
 * What is still not a code stays as typed, for the field's message to point at.
 */
export function postalCodeAsTyped(text: string, country: Country): string {
  if (country === 'CA') return text.trimStart().replace(/\s+/g, ' ');
  const t = text.replace(/\s+/g, '');
  return (country === 'US' ? /^(\d{5})-?\d{4}$/.exec(t)?.[1] : undefined) ?? t;
}

/** Canada and Australia: the region of a postal code, without a lookup (the US needs the geocoder). */
export function regionOfPostalCode(text: string, country: Exclude<Country, 'US'>): Region | undefined {
  return country === 'CA' ? caProvinceOfPostalCode(text) : auStateOfPostcode(text);
}

const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * Every decimal digit of any script as its ASCII digit: "٢١٤" (Arabic-Indic), "２１４" (full
 * width, as a Japanese or Chinese keyboard types it) and "۲۱۴" (Persian) are "214". A phone number
 * typed or pasted partly in another script is then the same number, for the form and for the
 * opt-out alike, instead of its other digits being dropped (which left a shorter, or another,
 * number). Unicode puts each script's digits 0 to 9 in a run of code points, and runs that touch
 * (the mathematical digits) start at a zero: a digit's value is its distance from the run's start,
 * modulo 10.
 */
export function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const at = digit.codePointAt(0)!;
    if (at <= 0x39) return digit;
    let zero = at;
    while (DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
    return String((at - zero) % 10);
  });
}

/**
 * A phone number as typed → the digits stored: North America (US, CA) 10 digits with a valid
 * area code and exchange ("4165550187"; a leading 1 dropped); Australia a mobile number
 * "04xxxxxxxx" (from "0412 345 678", "+61 412 345 678", "+61 (0)412 345 678" or "61412345678"). Digits of any script
 * count as theirs (asciiDigits); any other character than a space, bracket, dot, + or - (a letter,
 * a superscript ², a circled ③) makes it no number. undefined otherwise.
 */
export function normalisePhoneFor(text: string, country: Country): string | undefined {
  let digits = asciiDigits(text).replace(/[\s().+-]/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  if (country === 'AU') {
    // "+61 (0)412 345 678": Australians often keep the trunk 0 after the country code, in brackets or not
    if (digits.startsWith('61')) digits = `0${digits.slice(2).replace(/^0/, '')}`;
    return /^04\d{8}$/.test(digits) ? digits : undefined;
  }
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return /^[2-9]\d{2}[2-9]\d{6}$/.test(digits) ? digits : undefined;
}

/** Stored digits → as the country writes them: "(512) 555-0123", "416-555-0187", "0412 345 678". */
export function formatPhone(digits: string, country: Country): string {
  if (country === 'AU' && /^04\d{8}$/.test(digits)) return `${digits.slice(0, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}`;
  if (!/^\d{10}$/.test(digits)) return digits;
  if (country === 'CA') return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** Whole units with the country's own writing and the currency's code, so a mixed listing is unambiguous: "$1,000 CAD". */
export function formatAmount(amount: number, country: Country): string {
  const text = new Intl.NumberFormat(LOCALE_OF[country], { style: 'currency', currency: CURRENCY_OF[country], maximumFractionDigits: 0 }).format(amount);
  return `${text} ${CURRENCY_OF[country]}`;
}

export const isCountry = (v: string): v is Country => v === 'US' || v === 'CA' || v === 'AU';

/** The words the form uses for the country's postal code and regions. */
export const POSTAL_WORDS: Record<Country, { code: string; inText: string; region: string; hint: string; example: string; inputMode: 'numeric' | 'text' }> = {
  US: { code: 'ZIP code', inText: 'ZIP code', region: 'state', hint: 'Where you live; 5 digits', example: '78701', inputMode: 'numeric' },
  CA: {
    code: 'Postal code',
    inText: 'postal code',
    region: 'province or territory',
    hint: 'Where you live, for example M5V 2T6',
    example: 'M5V 2T6',
    inputMode: 'text',
  },
  AU: {
    code: 'Postcode',
    inText: 'postcode',
    region: 'state or territory',
    hint: 'Where you live; 4 digits',
    example: '2000',
    inputMode: 'numeric',
  },
};

/**
 * The date of birth's three inputs, in the order the country writes a date: Australians write
 * day, month, year (27/03/1990), so month first would have them type their day into Month.
 * The hint's example and the error follow the same order.
 */
export const DATE_WORDS: Record<Country, { order: readonly ('day' | 'month' | 'year')[]; example: string; parts: string }> = {
  US: { order: ['month', 'day', 'year'], example: '03 27 1990', parts: 'month 1 to 12, day, and a 4-digit year' },
  CA: { order: ['month', 'day', 'year'], example: '03 27 1990', parts: 'month 1 to 12, day, and a 4-digit year' },
  AU: { order: ['day', 'month', 'year'], example: '27 03 1990', parts: 'day, month 1 to 12, and a 4-digit year' },
};

/** The phone field's hint and error, per country. */
export const PHONE_WORDS: Record<Country, { hint: string; error: string }> = {
  US: { hint: '10 digits, for example (512) 555-0123', error: 'Enter a 10-digit US phone number, for example (512) 555-0123' },
  CA: { hint: '10 digits, for example 416-555-0123', error: 'Enter a 10-digit Canadian phone number, for example 416-555-0123' },
  AU: { hint: 'Australian mobile, for example 0412 345 678', error: 'Enter an Australian mobile number, for example 0412 345 678 or +61 412 345 678' },
};
