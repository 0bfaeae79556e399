import type { BlockSpec } from '../../engine/site/blockSpec';

/** The questions a page shows are also given to search engines as FAQPage JSON-LD. */
export const faqSpec: BlockSpec<'faq'> = {
  faqItems: (block) => block.items,
};
