/**
 * What `npm run brand:new` writes: a brand document built from an operator's answers, whose
 * pages all use shared layouts from brands/layouts/ (the home page is `starter-home`). Pure:
 * answers in, brand JSON out; the questions (engine/site/brandQuestions.ts) are asked by scripts/brand-new.ts and the studio's wizard.
 */
import { abbreviationForStateName, stateRowByAbbreviation } from '../geo/states';
import {
  AU_STATES,
  auStateOfPostcode,
  CA_PROVINCES,
  caProvinceOfPostalCode,
  CURRENCY_OF,
  LOCALE_OF,
  normaliseCaPostalCode,
  type Country,
  type Region,
} from '../browser/regions';
import type { Brand, LoanType } from '../../schemas/brand.types';

/** The countries a brand can be made for, as the questions list them (the US first: the answer given when none is). */
export const COUNTRIES = ['US', 'CA', 'AU'] as const satisfies readonly Country[];
export const COUNTRY_NAMES: Record<Country, string> = { US: 'United States', CA: 'Canada', AU: 'Australia' };
/** The country in a sentence: "in the United States", "in Canada". */
export const inCountry = (c: Country): string => (c === 'US' ? 'the United States' : COUNTRY_NAMES[c]);

export const PRODUCTS = ['payday', 'bad-credit', 'installment', 'title', 'personal', 'general'] as const;
export type Product = (typeof PRODUCTS)[number];

export interface Answers {
  id: string;
  name: string;
  country: Country;
  product: Product;
  hosts: string[];
  primaryColor: string;
  progressColor: string;
  phone: string;
  email: string;
  /** "street, city, ST 12345", "street, city, ON M5V 1V6", "street, suburb, NSW 2000" (the street may itself contain commas) */
  address: string;
  mapKey: string;
  siteKey: string;
}

interface LoanPage {
  path: string;
  label: string;
  layout: string;
  loanType?: LoanType;
}

const PAYDAY: LoanPage = { path: '/payday-loans', label: 'Payday loans', layout: 'payday-loans', loanType: 'payday-loans' };
const INSTALLMENT: LoanPage = { path: '/installment-loans', label: 'Installment loans', layout: 'installment-loans', loanType: 'installment-loans' };
const PERSONAL: LoanPage = { path: '/personal-loans', label: 'Personal loans', layout: 'personal-loans', loanType: 'personal-loans' };
const TITLE: LoanPage = { path: '/title-loans', label: 'Title loans', layout: 'title-loans', loanType: 'title-loans' };
const BAD_CREDIT: LoanPage = { path: '/bad-credit-loans', label: 'Bad credit loans', layout: 'bad-credit-loans' };

/** The loan pages (all shared layouts) each loan focus starts with. */
const LOAN_PAGES: Record<Product, LoanPage[]> = {
  payday: [PAYDAY, { path: '/cash-advance', label: 'Cash advance', layout: 'cash-advance', loanType: 'payday-loans' }],
  'bad-credit': [BAD_CREDIT, PAYDAY, INSTALLMENT, PERSONAL],
  installment: [INSTALLMENT, PERSONAL],
  title: [TITLE],
  personal: [PERSONAL, INSTALLMENT],
  general: [PAYDAY, INSTALLMENT, PERSONAL, { path: '/same-day-loans', label: 'Same day loans', layout: 'same-day-loans' }],
};

const COMPANY_PAGES = [
  { path: '/about', label: 'About us', layout: 'about-us' },
  { path: '/how-it-works', label: 'How it works', layout: 'how-it-works' },
  { path: '/faqs', label: 'FAQs', layout: 'faqs-us' },
  { path: '/contact-us', label: 'Contact us', layout: 'contact-us' },
];
const LEGAL_PAGES = [
  { path: '/privacy', label: 'Privacy Policy', layout: 'privacy-us' },
  { path: '/terms', label: 'Terms of Use', layout: 'terms-us' },
];

const DISCLAIMERS = [
  '{brand.name} is operated by a loan broker, not a lender. We do not make loans or credit decisions. We pass the information you submit to lenders and partners in our network, who decide for themselves whether to offer you a loan.',
  'Our service is free: we never charge you a fee. We may receive compensation from lenders and partners. Submitting a request does not oblige you to accept any loan offer, and it does not guarantee that you will be connected with a lender or approved.',
  'The operator of this website does not offer loans. Our service may not be available in all states, including states where short-term lending is restricted. If you submit a request from a state where the service is prohibited, or if no lender in our network matches your request, you will not be connected to a lender.',
  'Lenders may check your credit with consumer reporting agencies and may verify your information. Loan amounts, rates, fees and repayment terms are set by the lender and vary by lender and state. Short-term loans are expensive and are not a long-term financial solution.',
  'Service is not available in {noServiceStates}.',
];

/** How each country's address is written, said when one cannot be read. */
const ADDRESS_SHAPE: Record<Country, string> = {
  US: 'write it as street, city, state code and ZIP code, e.g. 1400 Lavaca St, Suite 310, Austin, TX 78701',
  CA: 'write it as street, city, province code and postal code, e.g. 240 Richmond St W, Suite 410, Toronto, ON M5V 1V6',
  AU: 'write it as street, suburb, state code and postcode, e.g. Level 8, 45 Clarence St, Sydney, NSW 2000',
};

/** The last part of each country's address: region and postal code. */
const LAST_PART: Record<Country, RegExp> = {
  US: /^([A-Za-z][A-Za-z .]*?)\s+(\d{5}(?:-\d{4})?)$/,
  CA: /^([A-Za-z][A-Za-z .'-]*?)\s+([A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d)$/,
  AU: /^([A-Za-z][A-Za-z .]*?)\s+(\d{4})$/,
};
/** What the last part reads as in each country, to say which country an address written for another one is in. */
const READS_AS: Record<Country, string> = { US: 'a US state and ZIP code', CA: 'a Canadian province and postal code', AU: 'an Australian state and postcode' };

type Address = Brand['organization']['address'];

/**
 * The organisation's address from one line, "street, city, TX 78701" (or a Canadian "street,
 * city, ON M5V 1V6", an Australian "street, suburb, NSW 2000"). The region may be its code or its
 * name; an unknown one, or a postal code of another region, is refused, since the address goes
 * into every page's structured data and legal text where nobody would notice a typo. An address
 * of another country's shape is told as such (a US address given for a Canadian brand).
 */
export function readAddress(text: string, country: Country = 'US'): { address: Address } | { problem: string } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const tail = parts.pop() ?? '';
  const last = tail.match(LAST_PART[country]);
  const city = parts.pop();
  if (!last || !city || !parts.length) {
    const other = COUNTRIES.find((c) => c !== country && LAST_PART[c].test(tail));
    if (other && city && parts.length)
      return { problem: `"${tail}" reads as ${READS_AS[other]}, but this brand is in ${inCountry(country)}: ${ADDRESS_SHAPE[country]}` };
    return { problem: ADDRESS_SHAPE[country] };
  }
  const street = parts.join(', ');
  const [, regionText, code] = last as unknown as [string, string, string];
  if (country === 'US') {
    let region: string;
    try {
      region = /^[A-Za-z]{2}$/.test(regionText) ? stateRowByAbbreviation(regionText).usps : abbreviationForStateName(regionText);
    } catch (err) {
      return { problem: `state "${regionText}": ${(err as Error).message} (${ADDRESS_SHAPE.US})` };
    }
    return { address: { streetAddress: street, addressLocality: city, addressRegion: region, postalCode: code, addressCountry: 'US' } };
  }
  const regions = country === 'CA' ? CA_PROVINCES : AU_STATES;
  const word = country === 'CA' ? 'province' : 'state';
  const region = regionNamed(regions, regionText);
  if (!region)
    return {
      problem: `${word} "${regionText}" is not one of ${COUNTRY_NAMES[country]}'s; use its code (${regions.map((r) => r.code).join(', ')}) or its name (${ADDRESS_SHAPE[country]})`,
    };
  const postalCode = country === 'CA' ? normaliseCaPostalCode(code)! : code;
  const codeWord = country === 'CA' ? 'postal code' : 'postcode';
  const of = country === 'CA' ? caProvinceOfPostalCode(postalCode) : auStateOfPostcode(postalCode);
  if (!of) return { problem: `${codeWord} ${postalCode} is in no ${word} or territory of ${COUNTRY_NAMES[country]}; check it (${ADDRESS_SHAPE[country]})` };
  if (of.code !== region.code) return { problem: `${codeWord} ${postalCode} is in ${of.name}, not ${region.name}; check the ${word} or the ${codeWord}` };
  return { address: { streetAddress: street, addressLocality: city, addressRegion: region.code, postalCode, addressCountry: country } };
}

/** A province or Australian state by its code or name, whatever the case. */
const regionNamed = (regions: readonly Region[], text: string): Region | undefined => {
  const t = text.trim().replace(/\.$/, '').toLowerCase();
  return regions.find((r) => r.code.toLowerCase() === t || r.name.toLowerCase() === t);
};

const link = (p: { label: string; path: string }) => ({ label: p.label, href: p.path });

/**
 * A Canadian or Australian brand's own pages, as the sample brands (brands/weloans.json,
 * brands/fastloansau.json) have them: the country's shared layouts (brands/layouts/*-ca.json,
 * *-au.json), its legal pages and application page, with the header of logo only (SPEC §2).
 */
const COUNTRY_PAGES = (c: 'ca' | 'au') => ({
  company: [
    { path: '/how-it-works', label: 'How it works', layout: `how-it-works-${c}` },
    { path: '/faqs', label: 'FAQs', layout: `faqs-${c}` },
    { path: '/contact', label: 'Contact us', layout: `contact-${c}` },
  ],
  legal: [
    { path: '/privacy', label: 'Privacy Policy', layout: `privacy-${c}` },
    { path: '/terms', label: 'Terms of Use', layout: `terms-${c}` },
  ],
});

/**
 * What differs in a Canadian or Australian brand: its lending statements (Canada's example
 * names the Criminal Code's 35% cap; Australia's carries the comparison-rate warning, and its
 * credit licence statement is a placeholder the production check refuses until the real
 * licence is written in), its disclaimers and its footer's one-line description.
 */
const ABROAD: Record<'CA' | 'AU', { lending: Record<string, string>; disclaimers: string[]; about: string }> = {
  CA: {
    lending: {
      representativeExample:
        'Representative example: a $1,000 loan repaid in 12 monthly instalments of $99.96 at 34.99% APR costs $1,199.52 in total ($199.52 in interest). Since January 1, 2025 the Criminal Code caps the APR of most loans, fees included, at 35%; payday loans are capped at $14 per $100 borrowed instead, and the provinces that regulate them add limits on loan size, rollovers and cancellation. APRs from lenders in our network range from 9.99% to 34.99%. The lender shows you the total cost of borrowing before you sign.',
    },
    disclaimers: [
      '{brand.name} is not a lender and does not make loans or credit decisions. We pass the information you submit to independent lenders and partners in our network, who decide for themselves whether to offer you a loan and on what terms.',
      'Our service is free to use. We may receive compensation from lenders and partners. Submitting a request does not guarantee that you will be connected with a lender or approved for a loan, and you are never obliged to accept an offer.',
      'Our service may not be available in every province or territory. If no lender in our network serves your province or matches your request, you will not be connected to a lender.',
      "Loan amounts, interest rates, fees and repayment terms are set by the lender and depend on the lender, your province and your circumstances. Lenders may check your credit with Equifax or TransUnion. Payday and other short-term loans are expensive and are not a long-term financial solution; check your province's consumer protection office for the rules that apply to you.",
    ],
    about: 'is a free Canadian loan-matching service. We connect borrowers with lenders in our network and explain borrowing in plain language.',
  },
  AU: {
    lending: {
      representativeExample:
        'Representative example: a $2,000 personal loan repaid over 12 months in monthly repayments of $190.08 at 24.99% p.a. (comparison rate 24.99% p.a.) costs $2,280.96 in total. WARNING: This comparison rate is true only for the example given and may not include all fees and charges. Different terms, fees or other loan amounts might result in a different comparison rate. Small amount credit contracts (up to $2,000, for 16 days to 1 year) are charged differently: an establishment fee of up to 20% and a monthly fee of up to 4% of the amount borrowed. The lender shows you all costs before you sign.',
      creditLicence:
        '{brand.name} Pty Ltd (ABN 00 000 000 000) is an authorised credit representative (number 000000) of a licensee, Australian Credit Licence 000000. We are a broker, not a lender: we refer your enquiry to licensed lenders and charge you nothing.',
    },
    disclaimers: [
      '{brand.name} is not a lender and does not provide credit, credit assistance or financial advice. We refer the details you submit to lenders and partners in our network, who decide for themselves whether to offer you a loan and on what terms.',
      'Our service is free to use. We may receive a fee or commission from lenders and partners. Submitting an enquiry does not guarantee that you will be referred to a lender or approved, and you are never obliged to accept an offer. If no lender in our network matches your enquiry, you will not be referred.',
      'Lenders in our network must hold an Australian Credit Licence and meet their responsible lending obligations, including verifying your financial situation and assessing that a loan is not unsuitable for you. They may obtain your credit report from a credit reporting body. Loan amounts, fees and repayments are set by the lender.',
      "Warning about borrowing: Do you really need a loan today? It can be expensive to borrow small amounts of money and borrowing may not solve your money problems. Check your options before you borrow: for free, independent financial counselling, call the National Debt Helpline on 1800 007 007; talk to your electricity, gas, phone or water provider about a payment plan; and if you receive government benefits, ask Services Australia whether you can get an advance payment from Centrelink. The Government's Moneysmart website shows how small amount loans work and suggests other options that may help you.",
      "Fee caps and lending rules described on this site are general information only and may change. Check ASIC's Moneysmart website (moneysmart.gov.au) for current information.",
    ],
    about: 'is a free loan referral service. We refer enquiries to licensed lenders in our network and explain borrowing in plain English.',
  },
};

/**
 * The loan pages of a Canadian or Australian brand: the sample brands' guides, shared as a route
 * part (brands/parts/loan-pages-ca.json, loan-pages-au.json), whatever the loan focus — each
 * country's pages are written for its own rules (Canada's 35% cap, Australia's small amount
 * credit contracts), not for one loan type — with the loan types they name.
 */
const ABROAD_LOANS: Record<'CA' | 'AU', { loanTypes: LoanType[]; links: { label: string; href: string }[] }> = {
  CA: {
    loanTypes: ['payday-loans', 'installment-loans', 'personal-loans'],
    links: [
      { label: 'Installment Loans', href: '/installment-loans' },
      { label: 'Payday Loans', href: '/payday-loans' },
      { label: 'Short-Term Loans', href: '/short-term-loans' },
      { label: 'Online Loans', href: '/online-loans' },
      { label: 'Bad Credit Loans', href: '/bad-credit-loans' },
      { label: 'No Credit Check Loans', href: '/no-credit-check-loans' },
    ],
  },
  AU: {
    loanTypes: ['personal-loans', 'payday-loans'],
    links: [
      { label: 'Personal Loans', href: '/personal-loans' },
      { label: 'Payday Loans (SACC)', href: '/payday-loans' },
      { label: 'Bad Credit Loans', href: '/bad-credit-loans' },
      { label: 'Cash Loans', href: '/cash-loans' },
    ],
  },
};

/** The document's parts every country shares. */
function common(a: Answers, address: Address) {
  return {
    id: a.id,
    name: a.name,
    product: a.product,
    country: a.country,
    locale: LOCALE_OF[a.country],
    currency: CURRENCY_OF[a.country],
    hosts: a.hosts,
    organization: { logo: `/logos/${a.id}.svg`, address, telephone: a.phone, email: a.email, sameAs: [] },
  };
}

/** The brand document (without "$schema", which the writer puts first). */
export function scaffoldBrand(a: Answers): Omit<Brand, '$schema'> {
  const read = readAddress(a.address, a.country);
  if ('problem' in read) throw new Error(`the address "${a.address}": ${read.problem}`);
  const { address } = read;
  if (a.country !== 'US') return scaffoldAbroad(a, a.country, address);
  const title = a.product === 'title';
  const loanPages = LOAN_PAGES[a.product];
  const apply = title ? { path: '/apply-title-loans' as const, layout: 'title-apply' } : { path: '/apply' as const, layout: 'apply' };
  const loanTypes = [...new Set(loanPages.flatMap((p) => (p.loanType ? [p.loanType] : [])))];
  // Non-empty lists are typed as tuples; the validator checks the whole document anyway.
  const brand = {
    ...common(a, address),
    config: { theme: a.primaryColor, progressColor: a.progressColor, pageTitle: a.name, mapKey: a.mapKey, siteKey: a.siteKey, layout: 'full' },
    apply: { path: apply.path, amountParam: title ? 'requestedamount' : 'requested_amount' },
    loanTypes: loanTypes.length ? loanTypes : ['personal-loans'],
    nav: {
      items: [{ label: 'Loans', children: loanPages.map(link) }, ...COMPANY_PAGES.slice(0, 3).map((p) => ({ label: p.label, href: p.path }))],
    },
    footer: {
      about: `${a.name} explains short-term loans plainly and passes borrowers' requests to lenders in its network, free of charge. We are not a lender.`,
      columns: [
        { title: 'Loans', links: loanPages.map(link) },
        { title: 'Company', links: COMPANY_PAGES.map(link) },
        { title: 'Legal', links: [...LEGAL_PAGES.map(link), { label: 'Apply Now', href: apply.path }] },
      ],
      disclaimers: DISCLAIMERS,
    },
    routes: [
      { path: '/', layout: 'starter-home' },
      ...loanPages.map((p) => ({ path: p.path, layout: p.layout, ...(p.loanType ? { loanType: p.loanType } : {}) })),
      ...[...COMPANY_PAGES, ...LEGAL_PAGES].map((p) => ({ path: p.path, layout: p.layout })),
      { path: '/do-not-sell-or-share', layout: 'do-not-sell' },
      { path: apply.path, layout: apply.layout },
    ],
  };
  return brand as unknown as Omit<Brand, '$schema'>;
}

/**
 * A Canadian or Australian brand, made as the sample ones are: the country's locale and
 * currency, its own home, loan guide, help, legal and application pages, its disclaimers and lending
 * statements, and the header of logo only. Title loans are refused at the question.
 */
function scaffoldAbroad(a: Answers, country: 'CA' | 'AU', address: Address): Omit<Brand, '$schema'> {
  if (a.product === 'title') throw new Error(`title loans are taken in the US only; a brand in ${COUNTRY_NAMES[country]} has another loan focus`);
  const c = country === 'CA' ? 'ca' : 'au';
  const pages = COUNTRY_PAGES(c);
  const abroad = ABROAD[country];
  const brand = {
    ...common(a, address),
    config: { theme: a.primaryColor, progressColor: a.progressColor, pageTitle: a.name, mapKey: a.mapKey, siteKey: a.siteKey, layout: 'logo-only' },
    lending: abroad.lending,
    loanTypes: ABROAD_LOANS[country].loanTypes,
    nav: { items: [{ label: 'Loans', children: ABROAD_LOANS[country].links }, ...pages.company.slice(0, 2).map((p) => ({ label: p.label, href: p.path }))] },
    footer: {
      about: `${a.name} ${abroad.about}`,
      columns: [
        { title: 'Loans', links: ABROAD_LOANS[country].links },
        { title: 'Company', links: [...pages.company.map(link), { label: 'Apply Now', href: '/apply' }] },
        { title: 'Legal', links: pages.legal.map(link) },
      ],
      disclaimers: abroad.disclaimers,
    },
    routes: [
      { path: '/', layout: `starter-home-${c}` },
      { part: `loan-pages-${c}` },
      ...[...pages.company, ...pages.legal].map((p) => ({ path: p.path, layout: p.layout })),
      { path: '/apply', layout: `apply-${c}` },
    ],
  };
  return brand as unknown as Omit<Brand, '$schema'>;
}

/** The file's text: "$schema" first (relative to the file), so an editor autocompletes from the brand schema. */
export const brandFileText = (brand: Omit<Brand, '$schema'>, schemaPath = '../schemas/brand.schema.json'): string =>
  JSON.stringify({ $schema: schemaPath, ...brand }, null, 2) + '\n';

/** A plain logo: the brand name on the theme colour (replace it with the real one). */
export const placeholderLogo = (name: string, color: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40" role="img" aria-label="${escapeXml(name)}"><text x="0" y="28" font-family="system-ui, sans-serif" font-size="22" font-weight="700" fill="${color}">${escapeXml(name)}</text></svg>\n`;

const escapeXml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
