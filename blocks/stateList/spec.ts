import type { LinkView } from '../../engine/model';
import { fill } from '../../engine/templates';
import { stateLinks } from '../../engine/links';
import type { BlockSpec } from '../../engine/blockSpec';

export const stateListSpec: BlockSpec<'stateList', { links: LinkView[] }> = {
  data: (block, { vars }) => ({ links: stateLinks(block.hrefTemplate, block.exclude).map((l) => ({ ...l, href: fill(l.href, vars) })) }),
};
