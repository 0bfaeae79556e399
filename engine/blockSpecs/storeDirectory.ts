import { STORE_BRANDS } from '../browser/data/stores';
import { letterGroupLabel, LETTER_GROUPS, storesInGroup } from '../site/directory';
import type { LinkView } from '../site/model';
import type { BlockSpec } from './types';

export interface StoreDirectoryData {
  stores: (LinkView & { loanType: string })[];
  groups?: (LinkView & { current: boolean })[];
}

export const storeDirectorySpec: BlockSpec<'storeDirectory', StoreDirectoryData> = {
  data: (block, { params, itemFill }) => {
    const stores = params.letterGroup ? storesInGroup(params.letterGroup) : [...STORE_BRANDS];
    return {
      stores: stores.map((s) => ({
        label: s.name,
        href: itemFill(block.hrefTemplate, { 'store.slug': s.slug }),
        loanType: s.loanType === 'loans' ? 'personal loans' : s.loanType,
      })),
      ...(block.groupHrefTemplate
        ? {
            groups: LETTER_GROUPS.map((g) => ({
              label: letterGroupLabel(g),
              href: itemFill(block.groupHrefTemplate!, { 'letterGroup.slug': g }),
              current: g === params.letterGroup,
            })),
          }
        : {}),
    };
  },
};
