/**
 * Typed amount fields (SPEC §5, §9): the title popup's amount and the Get Your Cash widget.
 * Each function takes what is in the field and returns what the field or the apply URL gets.
 */
import { bracketAmount, formatNumber, widgetRange } from '../amounts';

/** Keep digits only, without leading zeros ("0" stays "0"). */
export function digitsOnly(text: string): string {
  const digits = text.replace(/\D+/g, '');
  return digits.replace(/^0+(?=\d)/, '');
}

/** "12345" → "12,345" (the brand's locale decides the separator). */
export function withSeparators(digits: string, locale = 'en-US'): string {
  return digits === '' ? '' : formatNumber(Number(digits), locale);
}

const numberIn = (text: string): number | undefined => {
  const digits = digitsOnly(text);
  return digits === '' ? undefined : Number(digits);
};

/** Title popup: default 2500, at most 5000, shown with thousands separators while typing. */
export const TITLE_AMOUNT = { max: 5000, default: 2500 } as const;

/** What the title popup's field shows after a keystroke: digits only, above 5000 → 5000, with separators. */
export function typeTitleAmount(text: string, locale?: string): string {
  const n = numberIn(text);
  if (n === undefined) return '';
  return withSeparators(String(Math.min(n, TITLE_AMOUNT.max)), locale);
}

/** The amount the title popup sends: rounded up to 500, 1000, 2500 or 5000; empty or 0 → the default 2500. */
export function titleSubmitAmount(text: string): number {
  const n = numberIn(text);
  if (!n) return TITLE_AMOUNT.default;
  return bracketAmount(Math.min(n, TITLE_AMOUNT.max));
}

/**
 * Get Your Cash: digits only, clamped on blur, placeholder 1000, empty → 1000. SPEC's 50–5000
 * within the loan rules (engine/browser/amounts.ts): from 100, the form's smallest amount, so that what
 * the field shows after blur is what the form gets.
 */
export const CASH_AMOUNT = widgetRange({ min: 50, max: 5000, step: 1 });

/** What the field shows while typing: digits only (no clamping yet; at most 5 digits). */
export const typeCashAmount = (text: string): string => digitsOnly(text).slice(0, 5);

const clampCash = (n: number) => Math.min(CASH_AMOUNT.max, Math.max(CASH_AMOUNT.min, n));

/** What the field shows after blur: empty stays empty (the placeholder says 1000), anything else clamped to the range. */
export function blurCashAmount(text: string): string {
  const n = numberIn(text);
  return n === undefined ? '' : String(clampCash(n));
}

/** The amount sent: empty → 1000, otherwise clamped to the range (also when submitted without a blur). */
export function cashSubmitAmount(text: string): number {
  const n = numberIn(text);
  return n === undefined ? CASH_AMOUNT.default : clampCash(n);
}
