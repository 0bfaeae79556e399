/** Amount rules of SPEC §5 and §9. */

/**
 * The amounts a loan request may ask for, in whole units (lead.schema.json /amount): the
 * application form's rules, and the bounds every amount widget keeps within, so that no widget
 * offers or starts on an amount the form would change.
 */
export const LOAN_AMOUNT = { min: 100, max: 35000, default: 1000 } as const;

/** What an amount widget lets the visitor choose, in whole units. */
export interface AmountRange {
  min: number;
  max: number;
  step: number;
  default: number;
}

/**
 * A widget's range: its own span (SPEC §5) cut to the loan rules in whole steps, starting on the
 * page's amount when it has one (a "$500 loan" page) or else on the rules' default, within the span.
 */
export function widgetRange(
  span: { min: number; max: number; step: number },
  preferred?: number,
  rules: { min: number; max: number; default: number } = LOAN_AMOUNT,
): AmountRange {
  const { step } = span;
  const min = Math.ceil(Math.max(span.min, rules.min) / step) * step;
  const max = Math.floor(Math.min(span.max, rules.max) / step) * step;
  const wanted = Math.round((preferred ?? rules.default) / step) * step;
  return { min, max, step, default: Math.min(max, Math.max(min, wanted)) };
}

export const AMOUNT_BRACKETS = [500, 1000, 2500, 5000] as const;
export const ABOVE_TOP_BRACKET = 35000;

/** Bracket picker: ≤500→500, ≤1000→1000, ≤2500→2500, ≤5000→5000, above→35000. */
export function bracketAmount(amount: number): number {
  for (const top of AMOUNT_BRACKETS) if (amount <= top) return top;
  return ABOVE_TOP_BRACKET;
}

/** Amount dropdown: 100–1000 step 100, then 1500–5000 step 500; optionally 35000 shown as "Above $5000". */
export function amountOptions(withAbove = false): number[] {
  const out: number[] = [];
  for (let a = 100; a <= 1000; a += 100) out.push(a);
  for (let a = 1500; a <= 5000; a += 500) out.push(a);
  if (withAbove) out.push(ABOVE_TOP_BRACKET);
  return out;
}

/**
 * Whole amounts written without Intl for the brand schema's locales (en-US, en-CA, en-AU: "35,000",
 * "$35,000" — narrow symbol "$" for USD, CAD and AUD alike). The first Intl.NumberFormat a page makes
 * loads ICU's number data: 90–115 ms of main thread in Chromium at a phone's 4× CPU slowdown (timed
 * in a fresh page), paid while the page hydrates. Anything else — another locale or currency, a negative or huge number — goes to Intl,
 * one formatter per locale and options; tests/unit/widgets.test.ts checks both give the same text.
 */
const WRITTEN_HERE = new Set(['en-US', 'en-CA', 'en-AU']);
const NARROW_SYMBOL = new Map([
  ['USD', '$'],
  ['CAD', '$'],
  ['AUD', '$'],
]);
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

/** Rounded half away from zero (Intl's default), digits grouped by three with "," unless `grouping` is false. */
function writeWhole(amount: number, grouping: boolean): string {
  const digits = String(Math.round(amount));
  return grouping ? digits.replace(/\B(?=(\d{3})+$)/g, ',') : digits;
}
const writtenHere = (amount: number, locale: string) => WRITTEN_HERE.has(locale) && amount >= 0 && amount < 1e15;

/** 2500 → "2,500" in the brand's locale, no fraction digits. */
export function formatNumber(amount: number, locale = 'en-US', grouping = true): string {
  return writtenHere(amount, locale) ? writeWhole(amount, grouping) : numberFormat(locale, { maximumFractionDigits: 0, useGrouping: grouping }).format(amount);
}

function money(amount: number, locale: string, currency: string, grouping: boolean): string {
  const symbol = NARROW_SYMBOL.get(currency);
  return symbol !== undefined && writtenHere(amount, locale)
    ? symbol + writeWhole(amount, grouping)
    : numberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0, currencyDisplay: 'narrowSymbol', useGrouping: grouping }).format(amount);
}

export const formatMoney = (amount: number, locale = 'en-US', currency = 'USD'): string => money(amount, locale, currency, true);

/** Option labels: "$1,500"; values above 5000 read "Above $5000" (SPEC §9, written without a separator). */
export const amountLabel = (amount: number, locale = 'en-US', currency = 'USD'): string =>
  amount > 5000 ? `Above ${money(5000, locale, currency, false)}` : formatMoney(amount, locale, currency);
