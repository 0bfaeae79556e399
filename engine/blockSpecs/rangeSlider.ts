import type { BlockSpec } from './types';

/** An amount widget: it only sends the visitor to the apply page. */
export const rangeSliderSpec: BlockSpec<'rangeSlider'> = { applyWidget: true };
