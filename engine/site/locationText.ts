/**
 * Facts about a state or city written from data: service availability (SPEC §1 and §9
 * lists), coverage (cities and ZIP codes from the city table), largest or nearest places.
 */
import { formatNumber } from '../browser/amounts';
import { citiesOf, largestCities, nearbyCities, type City } from '../geo/cities';
import { fill, possessive } from './templates';
import { listInWords, STATE_SETS, type State } from '../geo/states';
import type { LocationFactsData } from '../blockSpecs/locationFacts';

/** Counts in the brand's locale without Intl where engine/browser/amounts.ts can (Intl's number data is ~5 MB resident once loaded). */
const n = (value: number, locale: string) => formatNumber(value, locale);

export function availabilitySentence(state: State, brandName: string, loanLabel: string, titleOnly = false): string {
  if (titleOnly && STATE_SETS.titleExcluded.has(state.name)) {
    return `Title loans are not offered through ${possessive(brandName)} lender network in ${state.name}, so a title loan request from ${state.name} will not be connected to a lender; an installment or personal loan, or one of the alternatives below, may be an option instead.`;
  }
  if (STATE_SETS.noService.has(state.name)) {
    return `${brandName} cannot currently connect borrowers in ${state.name} with a lender: a request sent from ${state.name} will not be passed to a lender, so please look at the alternatives below before you apply anywhere.`;
  }
  if (STATE_SETS.restricted.has(state.name)) {
    return `${state.name} restricts short-term consumer lending, so fewer lenders in our network can take requests from ${state.name} residents and some loan types may not be offered; if no lender matches your request, you will not be connected and nothing is charged.`;
  }
  return `Lenders in our network accept ${loanLabel} requests from ${state.name} residents, subject to ${state.name} law and each lender's own checks; whether you are offered a loan, and on what terms, is decided by the lender.`;
}

export function stateFacts(state: State, opts: { brandName: string; loanLabel: string; locale: string; titleOnly?: boolean }): LocationFactsData {
  const cities = citiesOf(state.code);
  const zips = cities.reduce((sum, c) => sum + c.zipCount, 0);
  const largest = largestCities(state.code, 5).map((c) => c.name);
  return {
    paragraphs: [
      availabilitySentence(state, opts.brandName, opts.loanLabel, opts.titleOnly),
      `Our ${state.name} pages cover ${n(cities.length, opts.locale)} cities and towns across ${n(zips, opts.locale)} ZIP codes. The places with the most ZIP codes are ${listInWords(largest)}.`,
    ],
  };
}

export function cityFacts(
  city: City,
  state: State,
  opts: { brandName: string; loanLabel: string; locale: string; titleOnly?: boolean; nearbyHrefTemplate?: string; pageVars?: Readonly<Record<string, string>> },
): LocationFactsData {
  const nearby = nearbyCities(city, 6);
  const zipText = city.zipCount > 1 ? `ZIP codes ${city.zip} and ${n(city.zipCount - 1, opts.locale)} more` : `ZIP code ${city.zip}`;
  return {
    paragraphs: [
      availabilitySentence(state, opts.brandName, opts.loanLabel, opts.titleOnly),
      `${city.name}, ${state.code.toUpperCase()} covers ${zipText}. You can send a request from anywhere in ${city.name}: it is online, so there is no store to visit, and lenders who answer will tell you their terms before you agree to anything.`,
    ],
    nearby: nearby.map(({ city: c, miles }) => ({
      label: c.name,
      href: opts.nearbyHrefTemplate
        ? fill(
            fill(opts.nearbyHrefTemplate, {
              'city.slug': c.slug,
              'city.name': c.name,
              'state.shortName': state.code,
              'state.slug': state.slug,
              'state.code': state.code.toUpperCase(),
              'state.name': state.name,
            }),
            opts.pageVars ?? {},
          )
        : undefined,
      miles: Math.round(miles),
    })),
  };
}

/**
 * Where a borrower can turn in a state the brand cannot serve: public, non-commercial places
 * (no lender is recommended). Shown in place of the apply button on those state pages.
 */
export const NO_SERVICE_ALTERNATIVES: readonly { label: string; href: string }[] = [
  { label: 'Find a federal credit union near you (small "payday alternative loans")', href: 'https://mapping.ncua.gov/' },
  { label: 'Call or search 211 for local help with bills, rent and food', href: 'https://www.211.org/' },
  { label: 'Find a nonprofit credit counselor (NFCC)', href: 'https://www.nfcc.org/' },
  { label: 'Consumer Financial Protection Bureau: options when you need money', href: 'https://www.consumerfinance.gov/consumer-tools/payday-loans/' },
];
