import type { BlockSpec } from './types';

/** An amount widget: it only sends the visitor to the apply page. Right under the hero it carries the cost note (engine/site/leadIn.ts). */
export const getYourCashSpec: BlockSpec<'getYourCash', { costNote: boolean }> = {
  applyWidget: true,
  data: (_block, { leadIn }) => ({ costNote: leadIn === 'input' }),
};
