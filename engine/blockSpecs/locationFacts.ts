import { LOAN_TYPES } from '../site/loanTypes';
import { cityFacts, stateFacts } from '../site/locationText';
import type { BlockSpec } from './types';

export interface LocationFactsData {
  paragraphs: string[];
  nearby?: { label: string; href?: string; miles: number }[];
}

export const locationFactsSpec: BlockSpec<'locationFacts', LocationFactsData> = {
  data: (block, { brand, params, state, vars }) => {
    const loanLabel = params.loanType ? LOAN_TYPES[params.loanType].singular : 'loan';
    const opts = {
      brandName: brand.name,
      loanLabel,
      locale: brand.locale,
      titleOnly: params.loanType === 'title-loans' || params.loanType === 'title-loans-near-me',
    };
    if (params.city)
      return cityFacts(params.city, state!, { ...opts, pageVars: vars, ...(block.nearbyHrefTemplate ? { nearbyHrefTemplate: block.nearbyHrefTemplate } : {}) });
    return state ? stateFacts(state, opts) : { paragraphs: [] };
  },
  check: (_block, { needs, hasParam }) => needs('{state}, {stateCode}, {city} or {cityState}', (r) => hasParam(r, 'state', 'stateCode', 'city', 'cityState')),
};
