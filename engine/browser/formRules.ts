/**
 * The application form's field rules: what each field accepts, the message a
 * visitor sees when it does not, and the JSON body built from the fields. They mirror
 * schemas/api/lead.schema.json (the server checks the same body again) and use the shared
 * rules of engine/geo/servedPlaces.ts (age). Pure functions; table-tested in
 * tests/unit/apply-form-rules.test.ts. No React, no browser.
 */
import type { LeadRequest } from '../../schemas/api.types';
import { formatMoney, formatNumber, LOAN_AMOUNT } from './amounts';
import { LOAN_PURPOSES } from './data/purposes';
import { DATE_WORDS, normalisePhoneFor, normalisePostalCode, PHONE_WORDS, POSTAL_WORDS, regionOfPostalCode, type Country, type Region } from './regions';
import { ageOn, localDay, minAgeIn, tooYoungMessage } from './age';
import { cleanClickId, cleanText } from './cleanText';
import { TRACE_LIMITS } from './visitSource';
import type { LoanKind } from '../geo/servedPlaces';

/** The amount the form accepts, in whole dollars (lead.schema.json /amount): the loan rules every amount widget keeps within. */
export const FORM_AMOUNT = LOAN_AMOUNT;
export const INCOME_SOURCES = [
  { value: 'employment', label: 'Employment' },
  { value: 'self-employment', label: 'Self-employment' },
  { value: 'benefits', label: 'Benefits' },
  { value: 'retirement', label: 'Retirement or pension' },
  { value: 'other', label: 'Other' },
] as const;
export const PAY_FREQUENCIES = [
  { value: 'weekly', label: 'Weekly' },
  { value: 'biweekly', label: 'Every two weeks' },
  { value: 'semimonthly', label: 'Twice a month' },
  { value: 'monthly', label: 'Monthly' },
] as const;
const MONTHLY_INCOME_MAX = 100000;
const VEHICLE_YEAR_MIN = 1980;
const VEHICLE_YEAR_SCHEMA_MAX = 2030;
const MILEAGE_MAX = 1000000;

/** What the visitor typed, as typed (strings), across all steps. */
export interface ApplyFormValues {
  amount: string;
  zip: string;
  purpose: string;
  vehicleYear: string;
  vehicleMake: string;
  vehicleModel: string;
  vehicleMileage: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  incomeSource: string;
  monthlyIncome: string;
  payFrequency: string;
  dobMonth: string;
  dobDay: string;
  dobYear: string;
  consent: boolean;
  /** honeypot: people never see it */
  website: string;
}

export const EMPTY_VALUES: ApplyFormValues = {
  amount: '',
  zip: '',
  purpose: '',
  vehicleYear: '',
  vehicleMake: '',
  vehicleModel: '',
  vehicleMileage: '',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  incomeSource: '',
  monthlyIncome: '',
  payFrequency: '',
  dobMonth: '',
  dobDay: '',
  dobYear: '',
  consent: false,
  website: '',
};

/** A field that can carry an error: the date of birth's three inputs share one. */
export type FieldKey = Exclude<keyof ApplyFormValues, 'dobMonth' | 'dobDay' | 'dobYear' | 'website'> | 'dateOfBirth';
export type FieldErrors = Partial<Record<FieldKey, string>>;

/** The form's three steps and the fields each one asks for. */
export type FormStep = 'request' | 'contact' | 'income';
export const FORM_STEPS: readonly FormStep[] = ['request', 'contact', 'income'];
export function stepFields(step: FormStep, kind: LoanKind): FieldKey[] {
  if (step === 'request')
    return kind === 'title' ? ['amount', 'zip', 'purpose', 'vehicleYear', 'vehicleMake', 'vehicleModel', 'vehicleMileage'] : ['amount', 'zip'];
  if (step === 'contact') return ['firstName', 'lastName', 'email', 'phone'];
  return ['incomeSource', 'monthlyIncome', 'payFrequency', 'dateOfBirth', 'consent'];
}

/** Digits of a typed number ("$2,500" → "2500"); undefined when there is any other character than digits, commas, spaces and a leading $. */
function wholeNumber(text: string): number | undefined {
  const t = text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/[,\s]/g, '');
  return /^\d{1,9}$/.test(t) ? Number(t) : undefined;
}

export const clampAmount = (n: number): number => Math.min(FORM_AMOUNT.max, Math.max(FORM_AMOUNT.min, Math.round(n)));

/** "2500" → "2,500"; anything that is not a number is kept as typed. */
export function amountText(n: number | string, locale = 'en-US'): string {
  const v = typeof n === 'number' ? n : wholeNumber(n);
  return v === undefined ? String(n) : formatNumber(v, locale);
}

/** The amount in the apply URL (?requested_amount= or ?requestedamount=), clamped to 100–35000; null when absent or not a number. */
export function amountFromQuery(search: string, param: string): number | null {
  const raw = new URLSearchParams(search).get(param);
  if (raw === null || raw.trim() === '') return null;
  const n = Number(raw.replace(/,/g, ''));
  return Number.isFinite(n) ? clampAmount(n) : null;
}

/**
 * What the borrower is told when the amount they came with (the apply URL's) is outside the
 * form's amounts and the form put in the nearest one; undefined when it was taken as it is.
 */
export function amountChangedNote(search: string, param: string, locale = 'en-US', currency = 'USD'): string | undefined {
  const raw = new URLSearchParams(search).get(param);
  const asked = raw === null || raw.trim() === '' ? NaN : Math.round(Number(raw.replace(/,/g, '')));
  if (!Number.isFinite(asked) || clampAmount(asked) === asked) return undefined;
  const money = (n: number) => formatMoney(n, locale, currency);
  return `You asked for ${money(asked)}, but requests are for ${money(FORM_AMOUNT.min)} to ${money(FORM_AMOUNT.max)}, so we put in ${money(clampAmount(asked))}. You can change it.`;
}

/** "(512) 555-0123", "+1 512 555 0123", "512.555.0123" → "5125550123"; an Australian mobile → "04xxxxxxxx"; undefined when it is not valid for the country. */
export const normalisePhone = (text: string, country: Country = 'US'): string | undefined => normalisePhoneFor(text, country);

/**
 * An email address as a mail server takes it: something before the @, a domain of labels neither
 * empty nor ending in a dot, a top-level domain of two or more letters; no spaces, commas or
 * brackets (what a list of addresses or a display name would bring). The lead schema's pattern is
 * this one (tests/unit/lead-field-rules.test.ts).
 */
export const EMAIL_PATTERN = '^[^\\s@,;:<>()\\[\\]"]+@[^\\s@.,;:<>()\\[\\]"]+(\\.[^\\s@.,;:<>()\\[\\]"]+)*\\.[^\\s@.,;:<>()\\[\\]"0-9]{2,}$';
const EMAIL = new RegExp(EMAIL_PATTERN);
export const isEmail = (text: string): boolean => {
  const t = text.trim();
  return t.length <= 120 && EMAIL.test(t);
};

/**
 * An email as the inbox it names is written: without invisible characters (a zero-width space, a
 * soft hyphen, a direction mark — Unicode's default-ignorable code points, which a copy from a web
 * page or a document can carry and no address has), its accents composed (NFC: "é" typed or pasted
 * decomposed is the same letter), trimmed and lower-cased. A lead stores its email so, and the
 * contact hashes start from it: a borrower's opt-out matches the request however either was written.
 */
export const cleanEmail = (email: string): string =>
  email
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .normalize('NFC')
    .trim()
    .toLowerCase();

/**
 * A name has a letter, in any script, and no control character (a newline or NUL pasted in) nor
 * invisible formatting character (Unicode Cf: a right-to-left override, which shows "Ana" + RLO +
 * "zeL" as "AnaLez", a direction mark or isolate, a zero-width space), which would reorder or hide
 * what a buyer and the console show; the zero-width non-joiner and joiner are letters' business in
 * Persian and Indic names and stay. As the lead schema's pattern. Names written right to left
 * (Arabic, Hebrew) need no such character: the letters carry their direction.
 * The letter must be one that is drawn: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) are
 * letters to Unicode but show nothing — the only letters that are default-ignorable — so a name of
 * them alone would be a blank name on every screen and in every buyer's record.
 * Written so that what comes before the first drawn letter can be no letter: each character then
 * has one way to match, and a long name ending in a refused character is read once, not once per
 * letter (the API checks the pattern even past maxLength, up to its 16 KB body:
 * scripts/bench/bodyPatterns.ts).
 */
export const NAME_PATTERN =
  '^(?:[^\\p{Cc}\\p{Cf}\\p{L}]|[\\u115F\\u3164\\u1160\\uFFA0\\u200C\\u200D])*[^\\P{L}\\u115F\\u3164\\u1160\\uFFA0](?:[^\\p{Cc}\\p{Cf}]|[\\u200C\\u200D])*$';
const NAME = new RegExp(NAME_PATTERN, 'u');

/**
 * A name as the form sends it: trimmed, and without the invisible formatting characters the
 * schema refuses — a copy from a contact card or a web page can carry a direction mark the
 * borrower cannot see, let alone remove, so the form drops them rather than refusing the name.
 * Trimmed of what shows as blank though it is no space to String.trim: the Hangul fillers and
 * the braille blank (U+2800), so a name of nothing else is an empty field, as a space alone is.
 */
const BLANK_EDGES = /^[\s\u115F\u2800\u1160\u3164\uFFA0]+|[\s\u115F\u2800\u1160\u3164\uFFA0]+$/gu;
export const cleanName = (text: string): string => text.replace(/\p{Cf}/gu, (c) => (c === '\u200c' || c === '\u200d' ? c : '')).replace(BLANK_EDGES, '');

/** A ZIP code (US), postal code (Canada) or postcode (Australia), as the country writes it. */
export const isZip = (text: string, country: Country = 'US'): boolean => normalisePostalCode(text, country) !== undefined;

/** Month, day and year as typed → "YYYY-MM-DD", or undefined when any part is not a number. */
export function dateOfBirthOf(values: Pick<ApplyFormValues, 'dobMonth' | 'dobDay' | 'dobYear'>): string | undefined {
  const [m, d, y] = [values.dobMonth.trim(), values.dobDay.trim(), values.dobYear.trim()];
  if (!/^\d{1,2}$/.test(m) || !/^\d{1,2}$/.test(d) || !/^\d{4}$/.test(y)) return undefined;
  return `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
}

/**
 * The youngest a borrower may be, from the postal code typed on step 1: a Canadian postal code
 * names its province, and with it the age of majority there (19 in British Columbia). A US ZIP's
 * state needs a lookup (step 1's, blocks/applyForm/zip.ts lookedUpState): `usState` is the state it
 * found for this ZIP (19 in Alabama, 21 in Mississippi); without it, 18 (the server decides).
 * Every Australian request is 18.
 */
export function minAgeOf(zip: string, country: Country, usState?: Region): { minAge: number; region?: Region } {
  const region = country === 'US' ? usState : regionOfPostalCode(zip, country);
  return { minAge: minAgeIn(country, region?.code), ...(region ? { region } : {}) };
}

const vehicleYearMax = (today: Date) => Math.min(VEHICLE_YEAR_SCHEMA_MAX, today.getUTCFullYear() + 1);
const name = (text: string, what: string): string | undefined => {
  const t = cleanName(text);
  if (!t) return `Enter your ${what}`;
  if (t.length > 50) return `Your ${what} can be at most 50 characters`;
  return NAME.test(t) ? undefined : `Write your ${what} in letters`;
};
const vehicleText = (text: string, what: string): string | undefined => {
  const t = text.trim();
  if (!t) return `Enter the vehicle's ${what}`;
  return t.length > 40 ? `The ${what} can be at most 40 characters` : undefined;
};

/** The message for one field, or undefined when it is fine. `today` decides the age and the newest model year; `usState`, the ZIP's looked-up state, the age (minAgeOf). */
export function fieldError(field: FieldKey, values: ApplyFormValues, today: Date, country: Country = 'US', usState?: Region): string | undefined {
  switch (field) {
    case 'amount': {
      if (!values.amount.trim()) return 'Enter the amount you need';
      const n = wholeNumber(values.amount);
      if (n === undefined) return 'Enter the amount in whole dollars, for example 1,500';
      return n < FORM_AMOUNT.min || n > FORM_AMOUNT.max ? 'Enter an amount from $100 to $35,000' : undefined;
    }
    case 'zip': {
      if (isZip(values.zip, country)) return undefined;
      const w = POSTAL_WORDS[country];
      return country === 'US'
        ? 'Enter a 5-digit ZIP code, for example 78701'
        : country === 'CA'
          ? `Enter your postal code: letter, digit, letter, digit, letter, digit, for example ${w.example}`
          : `Enter your 4-digit postcode, for example ${w.example}`;
    }
    case 'purpose':
      return (LOAN_PURPOSES as readonly string[]).includes(values.purpose) ? undefined : 'Choose what the loan is for';
    case 'vehicleYear': {
      const y = wholeNumber(values.vehicleYear);
      const max = vehicleYearMax(today);
      return y !== undefined && y >= VEHICLE_YEAR_MIN && y <= max ? undefined : `Enter the vehicle's model year, from ${VEHICLE_YEAR_MIN} to ${max}`;
    }
    case 'vehicleMake':
      return vehicleText(values.vehicleMake, 'make');
    case 'vehicleModel':
      return vehicleText(values.vehicleModel, 'model');
    case 'vehicleMileage': {
      const m = wholeNumber(values.vehicleMileage);
      if (!values.vehicleMileage.trim()) return 'Enter the approximate mileage';
      return m !== undefined && m <= MILEAGE_MAX ? undefined : 'Enter the mileage as a whole number, for example 85,000';
    }
    case 'firstName':
      return name(values.firstName, 'first name');
    case 'lastName':
      return name(values.lastName, 'last name');
    case 'email':
      if (!values.email.trim()) return 'Enter your email address';
      return isEmail(values.email) ? undefined : 'Enter an email address like name@example.com';
    case 'phone':
      if (!values.phone.trim()) return 'Enter your mobile phone number';
      return normalisePhone(values.phone, country) ? undefined : PHONE_WORDS[country].error;
    case 'incomeSource':
      return INCOME_SOURCES.some((s) => s.value === values.incomeSource) ? undefined : 'Choose your main source of income';
    case 'monthlyIncome': {
      if (!values.monthlyIncome.trim()) return 'Enter your monthly income after tax';
      const n = wholeNumber(values.monthlyIncome);
      if (n === undefined) return 'Enter your monthly income in whole dollars, for example 2,800';
      return n > MONTHLY_INCOME_MAX ? 'Enter a monthly income of $100,000 or less' : undefined;
    }
    case 'payFrequency':
      return PAY_FREQUENCIES.some((f) => f.value === values.payFrequency) ? undefined : 'Choose how often you are paid';
    case 'dateOfBirth': {
      if (!values.dobMonth.trim() && !values.dobDay.trim() && !values.dobYear.trim()) return 'Enter your date of birth';
      const dob = dateOfBirthOf(values);
      const age = dob === undefined ? undefined : ageOn(dob, localDay(today));
      if (age === undefined || age < 0) return `Enter a real date of birth: ${DATE_WORDS[country].parts}`;
      const { minAge, region } = minAgeOf(values.zip, country, usState);
      if (age < minAge) return tooYoungMessage(minAge, region?.name);
      return age > 120 ? 'Check the year of your date of birth' : undefined;
    }
    case 'consent':
      return values.consent ? undefined : 'Check the box to give your consent before you send your request';
  }
}

/** The errors of every field of a step (empty when the step is complete). */
export function stepErrors(step: FormStep, kind: LoanKind, values: ApplyFormValues, today: Date, country: Country = 'US', usState?: Region): FieldErrors {
  const out: FieldErrors = {};
  for (const f of stepFields(step, kind)) {
    const e = fieldError(f, values, today, country, usState);
    if (e) out[f] = e;
  }
  return out;
}

/** The step that asks for a field (to send the visitor back to it when the server disagrees). */
export const stepOfField = (field: FieldKey, kind: LoanKind): FormStep => FORM_STEPS.find((s) => stepFields(s, kind).includes(field)) ?? 'request';

/** "/vehicle/year: must be ≥ 1980" (a 400's problems) → the field it is about; undefined for anything else. */
export function fieldOfProblem(problem: string): FieldKey | undefined {
  const pointer = /^\/([A-Za-z]+)(?:\/([A-Za-z]+))?/.exec(problem);
  if (!pointer) return undefined;
  const [, top, sub] = pointer;
  if (top === 'vehicle')
    return sub === 'year'
      ? 'vehicleYear'
      : sub === 'make'
        ? 'vehicleMake'
        : sub === 'model'
          ? 'vehicleModel'
          : sub === 'mileage'
            ? 'vehicleMileage'
            : 'vehicleMake';
  const known: FieldKey[] = [
    'amount',
    'zip',
    'purpose',
    'firstName',
    'lastName',
    'email',
    'phone',
    'incomeSource',
    'monthlyIncome',
    'payFrequency',
    'dateOfBirth',
    'consent',
  ];
  return known.find((k) => k === top);
}

/** The body of POST /api/leads, as its schema declares it (schemas/api/lead.schema.json → schemas/api.types.ts). */
export type LeadRequestBody = LeadRequest;

export interface LeadContextFields {
  kind: LoanKind;
  idempotencyKey: string;
  consentVersion: string;
  tracking: LeadRequestBody['tracking'];
  /** the brand's country (US when left out): how the postal code and phone are written */
  country?: Country;
}

export function leadRequestBody(values: ApplyFormValues, ctx: LeadContextFields): LeadRequestBody {
  const num = (text: string) => wholeNumber(text) ?? 0;
  const nonEmpty = (t: Record<string, string | undefined>) => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined && v !== ''));
  const country = ctx.country ?? 'US';
  return {
    idempotencyKey: ctx.idempotencyKey,
    ...(ctx.country ? { country } : {}),
    amount: num(values.amount),
    zip: normalisePostalCode(values.zip, country) ?? values.zip.trim(),
    ...(ctx.kind === 'title'
      ? {
          purpose: values.purpose as LeadRequest['purpose'],
          vehicle: {
            year: num(values.vehicleYear),
            make: values.vehicleMake.trim(),
            model: values.vehicleModel.trim(),
            ...(values.vehicleMileage.trim() ? { mileage: num(values.vehicleMileage) } : {}),
          },
        }
      : {}),
    firstName: cleanName(values.firstName),
    lastName: cleanName(values.lastName),
    email: values.email.trim(),
    phone: normalisePhone(values.phone, country) ?? '',
    // checked by stepErrors before a body is built (one of INCOME_SOURCES / PAY_FREQUENCIES)
    incomeSource: values.incomeSource as LeadRequest['incomeSource'],
    monthlyIncome: num(values.monthlyIncome),
    payFrequency: values.payFrequency as LeadRequest['payFrequency'],
    dateOfBirth: dateOfBirthOf(values) ?? '',
    consent: { accepted: true, version: ctx.consentVersion },
    tracking: {
      // from the URL and storage: what the server refuses is left out, never the lead
      source: cleanText(ctx.tracking.source, 100) || 'landing-page',
      ...nonEmpty({
        source2: cleanText(ctx.tracking.source2 ?? '', TRACE_LIMITS.source2),
        clickId: cleanClickId(ctx.tracking.clickId ?? '', TRACE_LIMITS.clickId),
        uuid: ctx.tracking.uuid,
        visitId: ctx.tracking.visitId,
      }),
    },
    ...(values.website ? { website: cleanText(values.website, 200) } : {}),
  };
}
