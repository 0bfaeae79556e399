/** Where a brand takes no request: the state a page is about, when it is one the brand cannot serve. */
import type { Brand } from '../../schemas/brand.types';
import { stateUnavailableReason } from '../geo/servedPlaces';
import { stateOf, type RouteParams } from './routeParams';
import type { State } from '../geo/states';

/**
 * The state this page is about when the brand takes no request from it (SPEC §1's no-service
 * states; on title pages also SPEC §9's exclusions), with the reason the apply form also gives.
 */
export function unavailableHere(brand: Brand, params: RouteParams): { state: State; reason: string } | undefined {
  const state = stateOf(params);
  if (!state) return undefined;
  const title = brand.product === 'title' || params.loanType === 'title-loans' || params.loanType === 'title-loans-near-me';
  const reason = stateUnavailableReason(state, title ? 'title' : 'general', brand.name);
  return reason ? { state, reason } : undefined;
}
