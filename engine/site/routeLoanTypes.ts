/**
 * The loan types a route's pages can have. Its own module: the link grid's spec and the layout
 * checks both need it, and the checks also read the specs.
 */
import type { Brand } from '../../schemas/brand.types';
import type { CompiledRoute } from './routes';

/** A route with {loanType} in its path has every loan type of the brand; otherwise its own, if any. */
export const loanTypesOfRoute = (route: CompiledRoute, brand: Brand): readonly string[] =>
  route.params.includes('loanType') ? brand.loanTypes : route.loanType ? [route.loanType] : [];

/** The loan types the pages of these routes can have; undefined for a page without one. */
export const pageLoanTypes = (routes: readonly CompiledRoute[], brand: Brand): (string | undefined)[] => [
  ...new Set(
    routes.flatMap((r): (string | undefined)[] => {
      const types = loanTypesOfRoute(r, brand);
      return types.length ? [...types] : [undefined];
    }),
  ),
];
