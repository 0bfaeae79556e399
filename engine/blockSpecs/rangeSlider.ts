import type { AmountRange } from '../browser/amounts';
import { sliderRange } from '../browser/widgets/slider';
import type { BlockSpec } from './types';

/**
 * An amount widget: it only sends the visitor to the apply page. Its range comes from the loan
 * rules, starting on the page's own amount where the page has one. Right under the hero it
 * carries the cost note (engine/site/leadIn.ts).
 */
export const rangeSliderSpec: BlockSpec<'rangeSlider', { costNote: boolean; range: AmountRange }> = {
  applyWidget: true,
  data: (_block, { leadIn, params }) => ({ costNote: leadIn === 'input', range: sliderRange(params.amount) }),
};
