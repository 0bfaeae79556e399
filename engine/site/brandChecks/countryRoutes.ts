/**
 * Location pages are US pages: the route parameters that name a place ({state}, {stateCode},
 * {city}, {cityState}, and {letter}, the A-to-Z of US cities) read the table of US states and
 * cities, so on a Canadian or Australian brand they would publish "loans in Texas" pages to
 * borrowers who cannot apply from there. Pure: returns [JSON pointer, message] pairs.
 */
import type { Brand } from '../../../schemas/brand.types';

const US_PLACE_PARAMS = new Set(['state', 'stateCode', 'city', 'cityState', 'letter']);

export function countryRouteProblems(brand: Brand): [pointer: string, message: string][] {
  if (brand.country === 'US') return [];
  const out: [string, string][] = [];
  brand.routes.forEach((route, i) => {
    const names = [...route.path.matchAll(/\{([a-zA-Z]+)\??\}/g)].map((m) => m[1]!).filter((n) => US_PLACE_PARAMS.has(n));
    if (names.length)
      out.push([
        `/routes/${i}/path`,
        `${names.map((n) => `{${n}}`).join(', ')} names a US ${names.some((n) => n.startsWith('state')) ? 'state' : 'city'}; brand "${brand.id}" is in ${brand.country}, and location pages are for US brands only`,
      ]);
  });
  return out;
}
