import type { LinkView } from '../site/model';
import { fill } from '../site/templates';
import { stateLinks } from './links';
import type { BlockSpec } from './types';

export const stateListSpec: BlockSpec<'stateList', { links: LinkView[] }> = {
  data: (block, { vars }) => ({ links: stateLinks(block.hrefTemplate, block.exclude).map((l) => ({ ...l, href: fill(l.href, vars) })) }),
};
