/** The quick amount picker (SPEC §2): it sends the visitor to the apply page with an amount. */
import { amountLabel, amountOptions } from '../amounts';
import type { BlockSpec } from './types';

export const quickAmountSpec: BlockSpec<'quickAmount', { options: { value: number; label: string }[]; defaultAmount: number; costNote: boolean }> = {
  applyWidget: true,
  data: (_block, { brand, leadIn }) => ({
    options: amountOptions(true).map((value) => ({ value, label: amountLabel(value, brand.locale, brand.currency) })),
    defaultAmount: 1000,
    // right under the hero the widget carries the cost note (engine/leadIn.ts)
    costNote: leadIn === 'input',
  }),
};
