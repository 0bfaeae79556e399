import { letterGroupLabel, letterGroupOf, storeNearMePath } from '../site/directory';
import type { LinkView } from '../site/model';
import type { BlockSpec } from './types';

export const storeFactsSpec: BlockSpec<'storeFacts', { paragraphs: string[]; nearMe?: LinkView }> = {
  data: (_block, { brand, params, isPage }) => {
    const store = params.store!;
    const label = store.loanType === 'loans' ? 'personal loans' : store.loanType;
    const nearMePath = storeNearMePath(store);
    return {
      paragraphs: [
        `${store.name} is a loan store brand that borrowers mostly know for ${label}. It is listed in our directory under "${letterGroupLabel(letterGroupOf(store.name))}". ${brand.name} is not affiliated with ${store.name} and cannot tell you whether a particular store is open or what it offers today.`,
        `Store loans and online loans are priced differently, and rules depend on your state. Before you visit any store, ask for the APR and the total cost in dollars in writing, check that the lender is licensed in your state, and compare at least one other offer.`,
      ],
      ...(isPage(nearMePath) ? { nearMe: { label: `Compare ${label} near you`, href: nearMePath } } : {}),
    };
  },
  check: (_block, { needs, hasParam }) => needs('{store}', (r) => hasParam(r, 'store')),
};
