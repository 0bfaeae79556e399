/**
 * The rules of a loan request that JSON Schema cannot say, shared by the form (to tell the
 * visitor early) and the server (which decides): age on the day of the request, and whether
 * the brand can pass a request from a state on (SPEC §1: no service in six states; the title
 * brands' exclusions, SPEC §9). Pure functions; table-tested.
 */
import { NO_SERVICE_STATES, STATES, TITLE_EXCLUDED_STATES, type State } from '../states';

export const MIN_AGE = 18;

/** Whole years between a YYYY-MM-DD birth date and `today`; undefined for a date that does not exist. */
export function ageOn(dateOfBirth: string, today: Date): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() < mo - 1 || (today.getUTCMonth() === mo - 1 && today.getUTCDate() < d)) age -= 1;
  return age;
}

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
