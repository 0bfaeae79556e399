/**
 * Range-slider banner (SPEC §5, §9): the native input's value is a tenth of the amount shown and
 * sent, in steps of 5 ($50). SPEC's span is 50–5000; the page's range is that span within the
 * loan rules (engine/browser/amounts.ts widgetRange: from $100, the form's smallest amount, starting on
 * the form's default or the page's own amount), handed to the block as its data.
 */
import { formatMoney, widgetRange, type AmountRange } from '../amounts';

export const SLIDER_SCALE = 10;
/** SPEC §5: 5 to 500 in steps of 5, times ten. */
export const SLIDER_SPAN = { min: 50, max: 5000, step: 50 } as const;

/** The slider's amounts on a page (`preferred`: the page's own amount, if it has one). */
export const sliderRange = (preferred?: number): AmountRange => widgetRange(SLIDER_SPAN, preferred);

/** The native input's min, max, step and starting value for a range of amounts. */
export const sliderInput = (range: AmountRange) => ({
  min: range.min / SLIDER_SCALE,
  max: range.max / SLIDER_SCALE,
  step: range.step / SLIDER_SCALE,
  default: range.default / SLIDER_SCALE,
});

/** Any number → the nearest allowed slider value. */
export function snapSliderValue(value: number, range: AmountRange): number {
  const input = sliderInput(range);
  if (!Number.isFinite(value)) return input.default;
  const stepped = Math.round(value / input.step) * input.step;
  return Math.min(input.max, Math.max(input.min, stepped));
}

/** The amount a slider value stands for (shown and sent). */
export const sliderAmount = (value: number, range: AmountRange): number => snapSliderValue(value, range) * SLIDER_SCALE;

/** The typed alternative: an amount in dollars → the slider value (nearest step, within the range); empty → unchanged. */
export function sliderValueForAmount(amount: number | undefined, current: number, range: AmountRange): number {
  if (amount === undefined || !Number.isFinite(amount)) return snapSliderValue(current, range);
  return snapSliderValue(amount / SLIDER_SCALE, range);
}

/** aria-valuetext and the visible amount: "$2,500". */
export const sliderValueText = (value: number, range: AmountRange, locale?: string, currency?: string): string =>
  formatMoney(sliderAmount(value, range), locale, currency);
