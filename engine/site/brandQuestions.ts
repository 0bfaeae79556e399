/**
 * The questions a new brand starts from, each with its own check in words an operator
 * understands: asked by `npm run brand:new` in a terminal and by the studio's wizard in the
 * browser, with the same words. Each answer is checked as it is given (the button colour's
 * contrast included), so nobody types everything again after a mistake at the end.
 * The checks run on the server (the studio's API, its pages' data, brand:new), never in a browser:
 * the phone's reads libphonenumber's full metadata (./brandPhone.ts).
 */
import type { Brand } from '../../schemas/brand.types';
import { whiteTextProblem } from '../browser/colors';
import { directionControlProblem } from '../validate/unseenText';
import { isCountry, type Country } from '../browser/regions';
import { COUNTRIES, COUNTRY_NAMES, PRODUCTS, readAddress, scaffoldBrand, type Answers, type Product } from './brandScaffold';
import { readBrandPhone } from './brandPhone';

export interface Question {
  /** the answer's key in the wizard's answers (camelCase) */
  key: keyof Answers | 'kind';
  /** the command-line flag of brand:new */
  flag: string;
  /** what is asked */
  label: string;
  /** why the answer cannot be used (with the answers so far), or undefined when it can */
  check: (value: string, answers: Partial<Record<string, string>>) => string | undefined;
  /** the accepted answer as the brand is made with it, where that differs from what was typed (a phone number written the brand files' way) */
  written?: (value: string, answers: Partial<Record<string, string>>) => string;
  /** the earlier question this one's check reads (the country, for the address): a changed answer there checks this one again */
  checkedWith?: Question['key'];
  /** the answer given when none is (from the answers so far), if there is one */
  fallback?: (answers: Partial<Record<string, string>>) => string | undefined;
  /** the question whose answer the fallback is made from (a blank answer waits for that one) */
  fallbackFrom?: Question['key'];
}

/** The brand schema's host pattern (schemas/brand.base.json hosts), the total length included. */
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const HOST_EXAMPLE = 'list host names such as acmeloans.com,www.acmeloans.com (lowercase, no https:// or path)';

/**
 * Why one typed host is no host name the brand can hold, said for what was typed: a scheme or
 * path, a port, a final dot, capitals or an international name each get what to write instead
 * (a browser sends none of them in the Host header the brand is found by).
 */
export function hostAnswerProblem(host: string): string | undefined {
  if (HOST.test(host)) return undefined;
  if (!host) return 'a host is missing between two commas; remove the extra comma';
  if (/[/\\]|:\/\//.test(host)) return `"${host}": give the host name alone, with no https:// and no path`;
  if (/:\d*$/.test(host)) return `"${host}": leave out the port ("${host.slice(host.lastIndexOf(':'))}"); a brand is found by its host name alone`;
  if (host.endsWith('.')) return `"${host}": leave out the final dot (${host.replace(/\.+$/, '')})`;
  if (host.length > 253) return `"${host.slice(0, 40)}…" is ${host.length} characters long; a host name has at most 253`;
  let ascii: string | undefined;
  try {
    // the WHATWG URL parser gives a host's lowercase, punycode (xn--) form, in the browser and in Node
    ascii = new URL(`http://${host}/`).hostname;
  } catch {
    ascii = undefined;
  }
  if (ascii && ascii !== host && HOST.test(ascii))
    return /[^ -~]/.test(host)
      ? `"${host}": write an international name in its xn-- form, ${ascii}, as browsers send it`
      : `"${host}": write it in lowercase, ${ascii}`;
  return `"${host}": ${HOST_EXAMPLE}`;
}
const COLOR = /^#[0-9a-fA-F]{6}$/;
/**
 * The brand schema's organization.email (schemas/brand.base.json): a plain address, since the
 * consent wording and the structured data print it as it is — a "?bcc=" or "%0A" after it would
 * be headers to any mail program that opens it as a mailto: link.
 */
export const ORG_EMAIL_PATTERN =
  "^[A-Za-z0-9_+'-]+(\\.[A-Za-z0-9_+'-]+)*@[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\\.[a-z]{2,}$";
const ORG_EMAIL = new RegExp(ORG_EMAIL_PATTERN);

/** The longest answer the studio takes (its API's limit, and the wizard's fields'): far past any real one. */
export const ANSWER_LIMIT = 500;

/** The country answered so far (the US until one is: the answer given when none is). */
const countryOf = (answers: Partial<Record<string, string>>): Country => (answers.country && isCountry(answers.country) ? answers.country : 'US');

/** The phone answer read as a number of the brand's country (engine/site/brandPhone.ts). */
const phoneOf = (v: string, a: Partial<Record<string, string>>) => readBrandPhone(v, countryOf(a));

export const QUESTIONS: readonly Question[] = [
  {
    key: 'id',
    flag: 'id',
    label: 'The brand key: lowercase letters, digits, hyphens (also its local host {id}.localhost)',
    check: (v) => {
      // it is a host name's first label too ({id}.localhost, {id}.com), which ends with a letter or digit
      const key = /^[a-z0-9][a-z0-9-]{0,39}[a-z0-9]$/;
      if (key.test(v)) return undefined;
      // the brand's name typed as its key ("Acme Loans"): offer the key it would be
      const offered = v.toLowerCase().replace(/[\s_]+/g, '-');
      return `use 2-41 lowercase letters, digits or hyphens, starting and ending with a letter or digit, e.g. ${key.test(offered) ? offered : 'acmeloans'}`;
    },
  },
  {
    key: 'name',
    flag: 'name',
    label: 'The brand name visitors see',
    check: (v) => (v.length >= 2 && v.length <= 60 ? directionControlProblem(v) : 'use 2 to 60 characters'),
  },
  {
    key: 'country',
    flag: 'country',
    label: `Country (${COUNTRIES.map((c) => (c === 'US' ? c : `${c} for ${COUNTRY_NAMES[c]}`)).join(', ')})`,
    check: (v) => {
      if (isCountry(v)) return undefined;
      // the country's name, or its code in lowercase: offer the code
      const meant = COUNTRIES.find(
        (c) => c === v.toUpperCase() || COUNTRY_NAMES[c].toLowerCase() === v.toLowerCase() || (c === 'US' && /^(usa|united states of america)$/i.test(v)),
      );
      return meant
        ? `write the country as its code, ${meant}`
        : `use one of ${COUNTRIES.join(', ')} (${COUNTRIES.map((c) => `${c} for ${COUNTRY_NAMES[c]}`).join(', ')})`;
    },
    fallback: () => 'US',
  },
  {
    key: 'kind',
    flag: 'loan-focus',
    label: `Loan focus (${PRODUCTS.join(', ')})`,
    check: (v, a) => {
      if (!(PRODUCTS as readonly string[]).includes(v)) return `use one of ${PRODUCTS.join(', ')}`;
      const country = countryOf(a);
      return v === 'title' && country !== 'US'
        ? `title loans are offered in the US only; choose another loan focus for a brand in ${COUNTRY_NAMES[country]}`
        : undefined;
    },
    fallback: () => 'general',
    checkedWith: 'country',
  },
  {
    key: 'hosts',
    flag: 'hosts',
    label: 'Production host names, comma-separated',
    check: (v) => {
      const hosts = v.split(',').map((h) => h.trim());
      const problem = hosts.map(hostAnswerProblem).find(Boolean);
      if (problem) return problem;
      // the brand's check refuses a host listed twice: said here, as the answer is given
      const twice = hosts.find((h, i) => hosts.indexOf(h) !== i);
      return twice ? `"${twice}" is in the list twice; keep one` : undefined;
    },
    fallback: (a) => (a.id ? `${a.id}.com,www.${a.id}.com` : undefined),
    fallbackFrom: 'id',
  },
  {
    key: 'primaryColor',
    flag: 'primary-color',
    label: 'Primary colour, #rrggbb (buttons: dark enough for white text)',
    check: (v) => (COLOR.test(v) ? whiteTextProblem(v) : 'write a colour as #rrggbb, e.g. #0b5394'),
  },
  {
    key: 'progressColor',
    flag: 'progress-color',
    label: 'Progress bar colour, #rrggbb',
    check: (v) => (COLOR.test(v) ? undefined : 'write a colour as #rrggbb, e.g. #38bdf8'),
    fallback: (a) => a.primaryColor,
    fallbackFrom: 'primaryColor',
  },
  {
    key: 'phone',
    flag: 'phone',
    label: 'Contact phone',
    check: (v, a) => {
      const read = phoneOf(v, a);
      return 'problem' in read ? read.problem : undefined;
    },
    // +1 (416) 555-0187 is made +1-416-555-0187, as every brand file writes it
    written: (v, a) => {
      const read = phoneOf(v, a);
      return 'phone' in read ? read.phone : v;
    },
    checkedWith: 'country',
  },
  {
    key: 'email',
    flag: 'email',
    label: 'Contact email',
    check: (v) =>
      ORG_EMAIL.test(v)
        ? undefined
        : "write a plain email address such as help@acmeloans.com (letters, digits and . _ + ' - before the @; no mailto: or ?parameters)",
  },
  {
    key: 'address',
    flag: 'address',
    label: 'Postal address: street, city, state or province (code or name) and ZIP code or postcode',
    check: (v, a) => {
      const read = readAddress(v, countryOf(a));
      return 'problem' in read ? read.problem : undefined;
    },
    checkedWith: 'country',
  },
  {
    key: 'mapKey',
    flag: 'map-key',
    label: 'Maps access token (public; only used with GEOCODER=mapbox)',
    check: (v) => (v.length ? undefined : 'give a token, or keep the placeholder until you have one'),
    fallback: (a) => (a.id ? `pk.${a.id}-public-token` : undefined),
    fallbackFrom: 'id',
  },
  {
    key: 'siteKey',
    flag: 'site-key',
    label: 'Captcha site key (public)',
    check: (v) => (v.length ? undefined : 'give a key, or keep the placeholder until you have one'),
    fallback: (a) => (a.id ? `6Lc-${a.id}-site-key` : undefined),
    fallbackFrom: 'id',
  },
];

export const questionOf = (key: string): Question | undefined => QUESTIONS.find((q) => q.key === key || q.flag === key);

/**
 * Why a blank answer cannot be used, and what to do: a question whose default is made from
 * another answer says which (it has a default, just not yet), so nobody types a maps token they
 * do not have while the brand key is still refused.
 */
function blankProblem(q: Question): string {
  const from = q.fallbackFrom && questionOf(q.fallbackFrom);
  if (!from) return 'this needs an answer (it has no default)';
  return `give an answer, or leave it blank once "${from.label.replace(/[:,(].*$/, '').trim()}" is accepted: it is then made from that answer`;
}

/** The answer to one question with the answers so far: its fallback when it is blank, then its check. */
export function checkAnswer(
  key: string,
  value: string | undefined,
  answers: Partial<Record<string, string>> = {},
): { ok: boolean; message?: string; value?: string } {
  const q = questionOf(key);
  if (!q) return { ok: false, message: `there is no question "${key}"` };
  const given = (value ?? '').trim() || q.fallback?.(answers);
  if (given === undefined || given === '') return { ok: false, message: blankProblem(q) };
  const problem = q.check(given, answers);
  return problem ? { ok: false, message: problem, value: given } : { ok: true, value: q.written ? q.written(given, answers) : given };
}

/** Every answer checked (blank ones given their fallback); the problems by question, or the answers ready for the scaffold. */
export function readAnswers(raw: Partial<Record<string, string>>): { answers: Answers } | { problems: { question: string; message: string }[] } {
  const got: Record<string, string> = {};
  const problems: { question: string; message: string }[] = [];
  for (const q of QUESTIONS) {
    const r = checkAnswer(q.key, raw[q.key], got);
    if (r.ok) got[q.key] = r.value!;
    else problems.push({ question: q.key, message: r.message! });
  }
  if (problems.length) return { problems };
  return {
    answers: {
      id: got.id!,
      name: got.name!,
      country: got.country as Country,
      product: got.kind as Product,
      hosts: got.hosts!.split(',').map((h) => h.trim()),
      primaryColor: got.primaryColor!,
      progressColor: got.progressColor!,
      phone: got.phone!,
      email: got.email!,
      address: got.address!,
      mapKey: got.mapKey!,
      siteKey: got.siteKey!,
    },
  };
}

/** The new brand's document from checked answers (the studio's brands carry no "$schema": they are not files). */
export const newBrandDocument = (answers: Answers): Brand => scaffoldBrand(answers) as Brand;
