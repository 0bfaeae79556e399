/**
 * Range-slider banner (SPEC §5, §9): the slider runs 5–500 in steps of 5, default 250; the
 * amount shown and sent is ten times the value (50–5000, default 2500).
 */
import { formatMoney } from '../amounts';

export const SLIDER = { min: 5, max: 500, step: 5, default: 250, scale: 10 } as const;

/** Any number → the nearest allowed slider value. */
export function snapSliderValue(value: number): number {
  if (!Number.isFinite(value)) return SLIDER.default;
  const stepped = Math.round(value / SLIDER.step) * SLIDER.step;
  return Math.min(SLIDER.max, Math.max(SLIDER.min, stepped));
}

/** The amount a slider value stands for (shown and sent). */
export const sliderAmount = (value: number): number => snapSliderValue(value) * SLIDER.scale;

/** The typed alternative: an amount in dollars → the slider value (nearest 50, clamped to 50–5000); empty → unchanged. */
export function sliderValueForAmount(amount: number | undefined, current: number): number {
  if (amount === undefined || !Number.isFinite(amount)) return snapSliderValue(current);
  return snapSliderValue(amount / SLIDER.scale);
}

/** aria-valuetext and the visible amount: "$2,500". */
export const sliderValueText = (value: number, locale?: string, currency?: string): string => formatMoney(sliderAmount(value), locale, currency);
