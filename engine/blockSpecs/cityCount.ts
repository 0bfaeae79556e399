import { citiesOf } from '../cities';
import type { BlockSpec } from './types';

export const cityCountSpec: BlockSpec<'cityCount', { total: number }> = {
  data: (_block, { state }) => ({ total: state ? citiesOf(state.code).length : 0 }),
  check: (_block, { needs, hasParam }) => needs('{state}, {stateCode}, {city} or {cityState}', (r) => hasParam(r, 'state', 'stateCode', 'city', 'cityState')),
};
