import { applyUrl } from '../browser/applyUrl';
import { unavailableHere } from '../site/availability';
import { NO_SERVICE_ALTERNATIVES } from '../site/locationText';
import type { LinkView } from '../site/model';
import type { BlockSpec } from './types';

export interface ApplyCtaData {
  applyHref: string;
  unavailable?: { stateName: string; alternatives: LinkView[] };
}

export const applyCtaSpec: BlockSpec<'applyCta', ApplyCtaData> = {
  props: (block, { brand, params }) => {
    const blocked = unavailableHere(brand, params);
    if (!blocked) return block;
    const name = blocked.state.name;
    return { ...block, heading: `Alternatives in ${name}`, text: `Because we cannot take a request from ${name}, here are other places that may help.` };
  },
  data: (_block, { brand, params }) => {
    const blocked = unavailableHere(brand, params);
    return {
      applyHref: applyUrl(brand.apply),
      ...(blocked ? { unavailable: { stateName: blocked.state.name, alternatives: [...NO_SERVICE_ALTERNATIVES] } } : {}),
    };
  },
};
