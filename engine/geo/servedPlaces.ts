/**
 * The rules of a loan request that JSON Schema cannot say, shared by the form (to tell the
 * visitor early) and the server (which decides): age on the day of the request, and whether
 * the brand can pass a request from a state on (SPEC §1: no service in six states; the title
 * brands' exclusions, SPEC §9). Pure functions; table-tested.
 */
import { NO_SERVICE_STATES, STATES, TITLE_EXCLUDED_STATES, type State } from './states';

export { ageOn, MIN_AGE } from '../browser/age';

export type LoanKind = 'title' | 'general';

/** Why a request from this state cannot be passed to a lender, or undefined when it can. */
export function stateUnavailableReason(state: Pick<State, 'name'>, kind: LoanKind, brandName: string): string | undefined {
  if ((NO_SERVICE_STATES as readonly string[]).includes(state.name))
    return `${brandName} cannot connect borrowers in ${state.name} with a lender, so we can't take a request from there.`;
  if (kind === 'title' && (TITLE_EXCLUDED_STATES as readonly string[]).includes(state.name))
    return `Title loans through ${brandName} are not available in ${state.name}, so we can't take a title loan request from there.`;
  return undefined;
}

/** Two-letter codes (lower-case) of the states a brand of this kind cannot take requests from. */
export function unavailableStateCodes(kind: LoanKind): string[] {
  return STATES.filter((s) => stateUnavailableReason(s, kind, '') !== undefined).map((s) => s.code);
}

/**
 * Canada and Australia: the provinces and states (upper-case codes) no lender in the network
 * can serve, with the reason. Quebec licenses every high-cost lender itself (Consumer Protection
 * Act, Office de la protection du consommateur) and none of the network's lenders holds that
 * licence. Every Australian state and territory is served (the lenders hold national credit licences).
 */
export const UNSERVED_REGIONS: Record<'CA' | 'AU', Record<string, (brandName: string, regionName: string) => string>> = {
  CA: {
    QC: (brand, name) =>
      `${brand} cannot connect borrowers in ${name} with a lender: the lenders in our network do not hold the licence ${name}'s Office de la protection du consommateur requires, so we can't take a request from there.`,
  },
  AU: {},
};

/** Why a request from this province or Australian state cannot be passed to a lender, or undefined when it can. */
export function regionUnavailableReason(country: 'CA' | 'AU', region: { code: string; name: string }, brandName: string): string | undefined {
  return UNSERVED_REGIONS[country][region.code]?.(brandName, region.name);
}
