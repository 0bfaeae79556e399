import type { BlockSpec } from '../../engine/site/blockSpec';

/** "Stop calls and emails": a page for leaving, not for asking for a loan — no sticky apply button beside it. */
export const contactOptOutSpec: BlockSpec<'contactOptOut'> = {
  noApply: true,
};
