import { citiesOf, largestCitiesByName } from '../geo/cities';
import type { LinkView } from '../site/model';
import { stateItemVars } from '../site/routeParams';
import type { BlockSpec } from './types';

const STATE_PARAMS = '{state}, {stateCode}, {city} or {cityState}';

export const cityListSpec: BlockSpec<'cityList', { links: LinkView[]; total: number }> = {
  data: (block, { state, itemFill }) => {
    const all = state ? citiesOf(state.code) : [];
    const top = state ? largestCitiesByName(state.code, block.limit ?? 60) : [];
    const links = top.map((c) => ({
      label: c.name,
      href: itemFill(block.hrefTemplate, { ...stateItemVars(state!), 'city.slug': c.slug, 'city.name': c.name }),
    }));
    return { links, total: all.length };
  },
  check: (_block, { needs, hasParam }) => needs(STATE_PARAMS, (r) => hasParam(r, 'state', 'stateCode', 'city', 'cityState')),
};
