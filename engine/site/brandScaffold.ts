/**
 * What `npm run brand:new` writes: a brand document built from an operator's answers, whose
 * pages all use shared layouts from brands/layouts/ (the home page is `starter-home`). Pure:
 * answers in, brand JSON out; the questions (engine/site/brandQuestions.ts) are asked by scripts/brand-new.ts and the studio's wizard.
 */
import { abbreviationForStateName, stateRowByAbbreviation } from '../geo/states';
import type { Brand, LoanType } from '../../schemas/brand.types';

export const PRODUCTS = ['payday', 'bad-credit', 'installment', 'title', 'personal', 'general'] as const;
export type Product = (typeof PRODUCTS)[number];

export interface Answers {
  id: string;
  name: string;
  country: string;
  product: Product;
  hosts: string[];
  primaryColor: string;
  progressColor: string;
  phone: string;
  email: string;
  /** "street, city, ST 12345" (the street may itself contain commas) */
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

/** "1 Main St, Suite 2, Austin, TX 78701" → its parts; undefined when it does not read that way. */
const ADDRESS_SHAPE = 'write it as street, city, state code and ZIP code, e.g. 1400 Lavaca St, Suite 310, Austin, TX 78701';

/**
 * The organisation's address from one line, "street, city, TX 78701". The state may be its postal
 * code or its name ("Texas 78701"); an unknown one is refused, since the address goes into every
 * page's structured data and legal text where nobody would notice a typo.
 */
export function readUsAddress(text: string): { address: Brand['organization']['address'] } | { problem: string } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const last = parts.pop()?.match(/^([A-Za-z][A-Za-z .]*?)\s+(\d{5}(?:-\d{4})?)$/);
  const city = parts.pop();
  if (!last || !city || !parts.length) return { problem: ADDRESS_SHAPE };
  const state = last[1]!;
  let region: string;
  try {
    region = /^[A-Za-z]{2}$/.test(state) ? stateRowByAbbreviation(state).usps : abbreviationForStateName(state);
  } catch (err) {
    return { problem: `state "${state}": ${(err as Error).message} (${ADDRESS_SHAPE})` };
  }
  return { address: { streetAddress: parts.join(', '), addressLocality: city, addressRegion: region, postalCode: last[2]!, addressCountry: 'US' } };
}

const link = (p: { label: string; path: string }) => ({ label: p.label, href: p.path });

/** The brand document (without "$schema", which the writer puts first). */
export function scaffoldBrand(a: Answers): Omit<Brand, '$schema'> {
  const read = readUsAddress(a.address);
  if ('problem' in read) throw new Error(`the address "${a.address}": ${read.problem}`);
  const { address } = read;
  const title = a.product === 'title';
  const loanPages = LOAN_PAGES[a.product];
  const apply = title ? { path: '/apply-title-loans' as const, layout: 'title-apply' } : { path: '/apply' as const, layout: 'apply' };
  const loanTypes = [...new Set(loanPages.flatMap((p) => (p.loanType ? [p.loanType] : [])))];
  // Non-empty lists are typed as tuples; the validator checks the whole document anyway.
  const brand = {
    id: a.id,
    name: a.name,
    product: a.product,
    country: 'US' as const,
    locale: 'en-US',
    currency: 'USD',
    hosts: a.hosts,
    config: { theme: a.primaryColor, progressColor: a.progressColor, pageTitle: a.name, mapKey: a.mapKey, siteKey: a.siteKey, layout: 'full' },
    organization: { logo: `/logos/${a.id}.svg`, address, telephone: a.phone, email: a.email, sameAs: [] },
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

/** The file's text: "$schema" first (relative to the file), so an editor autocompletes from the brand schema. */
export const brandFileText = (brand: Omit<Brand, '$schema'>, schemaPath = '../schemas/brand.schema.json'): string =>
  JSON.stringify({ $schema: schemaPath, ...brand }, null, 2) + '\n';

/** A plain logo: the brand name on the theme colour (replace it with the real one). */
export const placeholderLogo = (name: string, color: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40" role="img" aria-label="${escapeXml(name)}"><text x="0" y="28" font-family="system-ui, sans-serif" font-size="22" font-weight="700" fill="${color}">${escapeXml(name)}</text></svg>\n`;

const escapeXml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
