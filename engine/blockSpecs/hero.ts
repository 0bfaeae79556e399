import { applyUrl } from '../browser/applyUrl';
import { unavailableHere } from '../site/availability';
import type { BlockSpec } from './types';

export interface HeroData {
  applyHref: string;
  /** the state (or the title brand's excluded state) the page is about, where the brand takes no request; no apply button is shown */
  unavailable?: { reason: string; alternativesHref: string };
  /** the input right below is the page's call to action: the hero only introduces it (engine/site/leadIn.ts) */
  leadIn?: true;
}

export const heroSpec: BlockSpec<'hero', HeroData> = {
  pageHeading: (block) => block.heading,
  // Where the brand cannot serve the state: say so first, no apply button, point to the alternatives.
  props: (block, { brand, params }) => {
    if (!unavailableHere(brand, params)) return block;
    const { ctaLabel: _cta, text: _text, ...rest } = block;
    return rest;
  },
  data: (_block, { brand, params, leadIn }) => {
    const blocked = unavailableHere(brand, params);
    return {
      applyHref: applyUrl(brand.apply),
      ...(blocked ? { unavailable: { reason: blocked.reason, alternativesHref: '#alternatives' } } : {}),
      ...(leadIn === 'hero' && !blocked ? { leadIn: true as const } : {}),
    };
  },
};
