/**
 * The route parameter table (SPEC §2): every {parameter} a route path may use, in one place —
 * its shape in a path, how a captured value is checked against real data, the values a
 * sitemap enumerates, and the template variables it gives the page. Several kinds give the
 * same value ({state} and {stateCode} both give a state); the template variables belong to
 * those values (TEMPLATE_VARS), so each variable is defined once.
 *
 * Adding a parameter: one entry in ROUTE_PARAMS (and, if it gives a new kind of value, its
 * field in RouteParams and its entry in TEMPLATE_VARS). routes.ts, templates.ts, pageMatch.ts,
 * validation, the sitemap and the docs (`npm run gen`) all read from here.
 */
import type { Brand, LoanType } from '../../schemas/brand.types';
import { formatMoney } from '../browser/amounts';
import { allCitiesByName, cityAnywhere, cityFromCityStateSlug, cityInState, citiesOf, cityStateSlug, distinctCitySlugs, type City } from '../geo/cities';
import type { StoreBrand } from '../browser/data/stores';
import { STORE_BRANDS } from '../browser/data/stores';
import { cityPageCount, citiesStartingWith, letterGroupLabel, LETTER_GROUPS, storeBySlug, storeNearMePath } from './directory';
import { LOAN_TYPE_VARS, loanTypeVars } from './loanTypeText';
import { OPT_OUT_DEADLINE } from './countryText';
import { stateByCode, stateBySlug, STATES, type State } from '../geo/states';

/** The values a matched path gives its page, checked against the data. */
export interface RouteParams {
  state?: State;
  city?: City;
  letter?: string;
  page?: number;
  list?: string;
  slug?: string;
  loanType?: LoanType;
  letterGroup?: string;
  amount?: number;
  store?: StoreBrand;
}

/** SPEC §2: /borrow-money/{amount}-dollar-loan exists for these amounts. */
export const BORROW_AMOUNTS = [100, 200, 300, 500, 1000, 2000] as const;

type Vars = Record<string, string>;

/** The state a page is about: its own, or its city's. */
export const stateOf = (params: RouteParams): State | undefined => params.state ?? (params.city ? stateByCode(params.city.stateCode) : undefined);

/** A state's variables as one item of a list (a state link). */
export const stateItemVars = (s: State): Vars => ({
  'state.name': s.name,
  'state.code': s.code.toUpperCase(),
  'state.shortName': s.code,
  'state.slug': s.slug,
});
/** A city's variables as one item of a list (a city link), with its state's. */
export const cityItemVars = (c: City): Vars => ({ ...stateItemVars(stateByCode(c.stateCode)!), 'city.slug': c.slug, 'city.name': c.name });
const storeLoanType = (s: StoreBrand) => (s.loanType === 'loans' ? 'personal loans' : s.loanType);

interface VarFamily {
  /** every variable of the family, in the order docs and messages list them */
  names: readonly string[];
  /** the ones a link template may use for each item of a list of such values */
  itemNames?: readonly string[];
  /** sample item values, used to check that link templates give real pages */
  sample?: (brand: Brand) => Vars;
  /** the page's values (undefined when the page has none) */
  fill?: (params: RouteParams, brand: Brand) => Vars | undefined;
}

const SAMPLE_STATE = (): State => stateByCode('tx')!;

/** Template variables by the value they describe; a page has a family when its route gives that value. */
export const TEMPLATE_VARS = {
  always: { names: ['brand.name', 'brand.host', 'year', 'optOut.deadline'] },
  state: {
    names: ['state.name', 'state.code', 'state.shortName', 'state.slug', 'state.demonym'],
    itemNames: ['state.name', 'state.code', 'state.shortName', 'state.slug'],
    sample: () => stateItemVars(SAMPLE_STATE()),
    fill: (p) => {
      const s = stateOf(p);
      return s && { ...stateItemVars(s), 'state.demonym': s.demonym };
    },
  },
  city: {
    names: ['city.name', 'city.slug', 'city.zip'],
    itemNames: ['city.name', 'city.slug'],
    sample: () => {
      const c = citiesOf(SAMPLE_STATE().code)[0];
      return { 'city.name': c?.name ?? '', 'city.slug': c?.slug ?? '' };
    },
    fill: (p) => p.city && { 'city.name': p.city.name, 'city.slug': p.city.slug, 'city.zip': p.city.zip },
  },
  loanType: {
    /** engine/site/loanTypeText.ts: singular, plural, slug, their capitalised and title forms, article */
    names: LOAN_TYPE_VARS,
    itemNames: ['loanType.slug'],
    sample: (brand) => ({ 'loanType.slug': brand.loanTypes[0]! }),
    fill: (p) => p.loanType && loanTypeVars(p.loanType),
  },
  letter: {
    names: ['letter', 'letter.slug'],
    itemNames: ['letter.slug'],
    sample: () => ({ 'letter.slug': 'b' }),
    fill: (p) => (p.letter !== undefined ? { letter: p.letter.toUpperCase(), 'letter.slug': p.letter } : undefined),
  },
  page: { names: ['page'], fill: (p) => (p.page !== undefined ? { page: String(p.page) } : undefined) },
  list: { names: ['list'], fill: (p) => (p.list !== undefined ? { list: p.list } : undefined) },
  /** on routes with {slug} or {list}: the content item (or the category) the page shows, filled by the content loader */
  content: { names: ['content.title', 'content.h1', 'content.description'] },
  letterGroup: {
    names: ['letterGroup', 'letterGroup.slug'],
    itemNames: ['letterGroup.slug'],
    sample: () => ({ 'letterGroup.slug': 'ijk' }),
    fill: (p) => (p.letterGroup === undefined ? undefined : { letterGroup: letterGroupLabel(p.letterGroup), 'letterGroup.slug': p.letterGroup }),
  },
  amount: {
    names: ['amount', 'amount.value'],
    fill: (p, brand) =>
      p.amount === undefined ? undefined : { amount: formatMoney(p.amount, brand.locale, brand.currency), 'amount.value': String(p.amount) },
  },
  store: {
    names: ['store.name', 'store.slug', 'store.loanType', 'store.nearMePath'],
    itemNames: ['store.slug'],
    sample: () => ({ 'store.slug': 'advance-america' }),
    fill: (p) =>
      p.store && {
        'store.name': p.store.name,
        'store.slug': p.store.slug,
        'store.loanType': storeLoanType(p.store),
        'store.nearMePath': storeNearMePath(p.store),
      },
  },
} satisfies Record<string, VarFamily>;
export type VarFamilyName = keyof typeof TEMPLATE_VARS;
const FAMILIES = Object.entries(TEMPLATE_VARS) as [VarFamilyName, VarFamily][];

/** What a link template's items are (`"x-template"` in a schema): each kind's variables, in the order messages list them. */
export const ITEM_KINDS = {
  state: ['state'],
  city: ['city', 'state'],
  letter: ['letter'],
  letterGroup: ['letterGroup'],
  store: ['store'],
  search: ['state', 'loanType'],
} as const satisfies Record<string, readonly VarFamilyName[]>;
export type ItemKind = keyof typeof ITEM_KINDS;
export const itemVarsOf = (kind: ItemKind): string[] => ITEM_KINDS[kind].flatMap((f) => (TEMPLATE_VARS[f] as VarFamily).itemNames ?? []);
/** Sample item values of every family, for checking that a link template gives a real page. */
export const sampleItemVars = (brand: Brand): Vars => Object.assign({}, ...FAMILIES.map(([, f]) => f.sample?.(brand) ?? {})) as Vars;

/** One value a sitemap puts in for a parameter, with the state it implies (for a later {city}). */
export interface SitemapValue {
  value: string;
  state?: State;
}

interface ParseOptions {
  /** the brand's loan types: a {loanType} outside them is not a page */
  loanTypes: readonly LoanType[];
}

export interface RouteParamKind {
  /** for the docs: what a value is */
  doc: string;
  /** for the docs: a value as it appears in a path */
  example: string;
  /** regular expression of a value in a path (no groups) */
  shape: string;
  /** checks a captured value against the data and puts what it names in `out`; false: not a page */
  parse: (raw: string, out: RouteParams, opts: ParseOptions) => boolean;
  /** run when every parameter of the path is parsed, for checks across parameters */
  recheck?: (out: RouteParams) => boolean;
  /** the template variable families the parameter gives its pages */
  gives: readonly VarFamilyName[] | ((route: { content?: string }) => readonly VarFamilyName[]);
  /** the values a sitemap lists; 'content' when the content store decides them (contentPaths) */
  sitemap: 'content' | ((at: { brand: Brand; state?: State; assigned: Readonly<Record<string, string>> }) => Iterable<SitemapValue>);
}

const SLUG = '[a-z0-9]+(?:-[a-z0-9]+)*';
const WORDS = '[a-z]+(?:-[a-z]+)*';

/** In the order parameters are parsed (a {city} after the {state} it belongs to) and listed in messages. */
export const ROUTE_PARAMS = {
  state: {
    doc: 'a state by its slug',
    example: 'texas',
    shape: WORDS,
    parse: (raw, out) => !!(out.state = stateBySlug(raw)),
    gives: ['state'],
    sitemap: () => STATES.map((s) => ({ value: s.slug, state: s })),
  },
  stateCode: {
    doc: 'a state by its two-letter code',
    example: 'tx',
    shape: '[a-z]{2}',
    parse: (raw, out) => !!(out.state = stateByCode(raw)),
    gives: ['state'],
    sitemap: () => STATES.map((s) => ({ value: s.code, state: s })),
  },
  city: {
    doc: "a city by its slug (of the path's state, if it has one)",
    example: 'houston',
    shape: SLUG,
    parse: (raw, out) => !!(out.city = out.state ? cityInState(out.state.code, raw) : cityAnywhere(raw)),
    gives: ['state', 'city'],
    sitemap: ({ state }) => (state ? citiesOf(state.code).map((c) => c.slug) : distinctCitySlugs()).map((value) => ({ value })),
  },
  cityState: {
    doc: 'a city and its state code',
    example: 'houston-tx',
    shape: `${SLUG}-[a-z]{2}`,
    parse: (raw, out) => {
      out.city = cityFromCityStateSlug(raw);
      if (!out.city) return false;
      out.state = stateByCode(out.city.stateCode);
      return true;
    },
    gives: ['state', 'city'],
    sitemap: () => allCitiesByName().map((c) => ({ value: cityStateSlug(c) })),
  },
  letter: {
    doc: 'the first letter of city names, a-z',
    example: 'b',
    shape: '[a-z]',
    parse: (raw, out) => !!(out.letter = raw),
    // Letter pages list cities: a page past the last one does not exist.
    recheck: (out) => out.page === undefined || out.page <= cityPageCount(out.letter!),
    gives: ['letter'],
    sitemap: () => [...'abcdefghijklmnopqrstuvwxyz'].filter((l) => citiesStartingWith(l).length).map((value) => ({ value })),
  },
  page: {
    doc: 'a page number, 2-9999; optional, and only as the whole last part of a path (page 1 is the path without it)',
    example: '2',
    shape: '[1-9][0-9]{0,3}',
    parse: (raw, out) => {
      const page = Number(raw);
      out.page = page;
      return page >= 2 && page <= 9999;
    },
    gives: ['page'],
    // route pages: the letter pages' further pages (content lists' pages come from the content store)
    sitemap: ({ assigned }) => (assigned.letter ? Array.from({ length: cityPageCount(assigned.letter) - 1 }, (_, i) => ({ value: String(i + 2) })) : []),
  },
  list: {
    doc: 'a content category slug (a-z, 0-9, hyphen)',
    example: 'payday-basics',
    shape: '[a-z0-9-]+',
    parse: (raw, out) => !!(out.list = raw),
    gives: ['list', 'content'],
    sitemap: 'content',
  },
  slug: {
    doc: 'a content item slug, with at least one letter; the route says which collection ("content")',
    example: 'apr-basics',
    // a content slug has at least one letter, so /answers/2 is a page number and /answers/apr-basics a slug
    shape: `(?=[a-z0-9-]*[a-z])${SLUG}`,
    parse: (raw, out) => !!(out.slug = raw),
    gives: (route) => (route.content ? ['content'] : []),
    sitemap: 'content',
  },
  loanType: {
    doc: "one of the brand's loanTypes",
    example: 'payday-loans',
    shape: WORDS,
    parse: (raw, out, opts) => (opts.loanTypes as readonly string[]).includes(raw) && !!(out.loanType = raw as LoanType),
    gives: ['loanType'],
    sitemap: ({ brand }) => brand.loanTypes.map((value) => ({ value })),
  },
  letterGroup: {
    doc: `a store directory letter group (${LETTER_GROUPS.join(', ')})`,
    example: 'ijk',
    shape: '[a-z]+',
    parse: (raw, out) => (LETTER_GROUPS as readonly string[]).includes(raw) && !!(out.letterGroup = raw),
    gives: ['letterGroup'],
    sitemap: () => LETTER_GROUPS.map((value) => ({ value })),
  },
  amount: {
    doc: `a loan amount in dollars (${BORROW_AMOUNTS.join(', ')})`,
    example: '500',
    shape: '[1-9][0-9]{1,5}',
    parse: (raw, out) => (BORROW_AMOUNTS as readonly number[]).includes(Number(raw)) && !!(out.amount = Number(raw)),
    gives: ['amount'],
    sitemap: () => BORROW_AMOUNTS.map((a) => ({ value: String(a) })),
  },
  store: {
    doc: 'a store brand by its slug (the 11 of the store directory)',
    example: 'advance-america',
    shape: SLUG,
    parse: (raw, out) => !!(out.store = storeBySlug(raw)),
    gives: ['store'],
    sitemap: () => STORE_BRANDS.map((s) => ({ value: s.slug })),
  },
} satisfies Record<string, RouteParamKind>;

export type ParamKind = keyof typeof ROUTE_PARAMS;
export const PARAM_KINDS = Object.keys(ROUTE_PARAMS) as ParamKind[];
const KINDS = Object.entries(ROUTE_PARAMS) as [ParamKind, RouteParamKind][];
/** The one parameter that may be optional, written {page?} as the whole last part of a path. */
export const OPTIONAL_PARAM: ParamKind = 'page';

export const isParamKind = (name: string): name is ParamKind => Object.prototype.hasOwnProperty.call(ROUTE_PARAMS, name);

/** Captured values → typed parameters, checked against the data; undefined when any names nothing real. */
export function parseParams(groups: Readonly<Record<string, string | undefined>>, opts: ParseOptions): RouteParams | undefined {
  const out: RouteParams = {};
  const present = KINDS.filter(([kind]) => groups[kind] !== undefined);
  for (const [kind, def] of present) if (!def.parse(groups[kind]!, out, opts)) return undefined;
  for (const [, def] of present) if (def.recheck && !def.recheck(out)) return undefined;
  return out;
}

/** The template variable families a route's pages have (a route's fixed loanType counts as {loanType}). */
export function familiesOfRoute(route: { params: readonly ParamKind[]; loanType?: string; content?: string }): Set<VarFamilyName> {
  const given = new Set<VarFamilyName>(['always']);
  for (const kind of route.params) {
    const gives = (ROUTE_PARAMS[kind] as RouteParamKind).gives;
    for (const f of typeof gives === 'function' ? gives(route) : gives) given.add(f);
  }
  if (route.loanType) given.add('loanType');
  return given;
}

/** The template variables a route's pages have, in the order messages list them. */
export const varsOfRoute = (route: { params: readonly ParamKind[]; loanType?: string; content?: string }): Set<string> => {
  const given = familiesOfRoute(route);
  return new Set(FAMILIES.filter(([name]) => given.has(name)).flatMap(([, f]) => f.names));
};

/** Every template variable a page can have. */
export const ALL_VARS: ReadonlySet<string> = new Set(FAMILIES.flatMap(([, f]) => f.names));
export const ALWAYS_VARS = TEMPLATE_VARS.always.names;

/** The values of a page's template variables (content variables come from the content loader). */
export function pageVars(brand: Brand, params: RouteParams, year: number): Vars {
  const vars: Vars = { 'brand.name': brand.name, 'brand.host': brand.hosts[0]!, year: String(year), 'optOut.deadline': OPT_OUT_DEADLINE[brand.country] };
  for (const [, family] of FAMILIES) Object.assign(vars, family.fill?.(params, brand));
  return vars;
}
