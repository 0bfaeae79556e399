/**
 * The quick amount picker (SPEC §2): it sends the visitor to the apply page with an amount. It
 * starts on the page's own amount (a "$500 loan" page) when that is one of its options, else on
 * the loan rules' default.
 */
import { amountLabel, amountOptions, LOAN_AMOUNT } from '../browser/amounts';
import type { BlockSpec } from './types';

export const quickAmountSpec: BlockSpec<'quickAmount', { options: { value: number; label: string }[]; defaultAmount: number; costNote: boolean }> = {
  applyWidget: true,
  data: (_block, { brand, leadIn, params }) => ({
    options: amountOptions(true).map((value) => ({ value, label: amountLabel(value, brand.locale, brand.currency) })),
    defaultAmount: params.amount !== undefined && amountOptions(true).includes(params.amount) ? params.amount : LOAN_AMOUNT.default,
    // right under the hero the widget carries the cost note (engine/site/leadIn.ts)
    costNote: leadIn === 'input',
  }),
};
