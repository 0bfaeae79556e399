/** Amount rules of SPEC §5 and §9. */
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
 * One Intl.NumberFormat per locale and options, made on first use: constructing one costs ~100 µs
 * (formatting with it ~0.5 µs), and a page with the quick picker and the exit popup formats ~40
 * amounts while it hydrates (issue 13). An unknown locale or currency still throws, as before.
 */
const formats = new Map<string, Intl.NumberFormat>();
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

export function formatMoney(amount: number, locale = 'en-US', currency = 'USD'): string {
  return numberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0, currencyDisplay: 'narrowSymbol' }).format(amount);
}

/** Option labels: "$1,500"; values above 5000 read "Above $5000" (SPEC §9, written without a separator). */
export const amountLabel = (amount: number, locale = 'en-US', currency = 'USD'): string =>
  amount > 5000
    ? `Above ${numberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0, currencyDisplay: 'narrowSymbol', useGrouping: false }).format(5000)}`
    : formatMoney(amount, locale, currency);
