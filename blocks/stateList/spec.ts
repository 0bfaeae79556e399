import type { LinkView } from '../../engine/site/model';
import { fill } from '../../engine/site/templates';
import { stateLinks } from '../../engine/site/links';
import type { BlockSpec } from '../../engine/site/blockSpec';

export const stateListSpec: BlockSpec<'stateList', { links: LinkView[] }> = {
  data: (block, { vars }) => ({ links: stateLinks(block.hrefTemplate, block.exclude).map((l) => ({ ...l, href: fill(l.href, vars) })) }),
};
