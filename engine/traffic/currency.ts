/**
 * Money in the operator's currency (pure). A sale's price is in its lead's currency (the brand's:
 * USD, CAD or AUD) and a cost in its report's; an admin sets what one unit of each is worth in US
 * dollars (engine/store/currencyRates.ts — never fetched, so a figure never changes behind the
 * operator's back), and every amount is converted through US dollars to the currency the operator
 * reads in, cell by cell, rounded to the cent. An amount whose currency has no rate is left out
 * and named, never summed as if it were dollars.
 */

/** Currency → what one unit is worth in US dollars, in millionths. US dollars need no rate. */
export type Rates = ReadonlyMap<string, number>;

export const BASE_CURRENCY = 'USD';
export const MICROS = 1_000_000;

const usdMicros = (currency: string, rates: Rates): number | undefined => (currency === BASE_CURRENCY ? MICROS : rates.get(currency));

/** `cents` of `from` in `to`, rounded to the cent; undefined when either has no rate. */
export function convertCents(cents: number, from: string, to: string, rates: Rates): number | undefined {
  if (from === to) return cents;
  const a = usdMicros(from, rates);
  const b = usdMicros(to, rates);
  if (a === undefined || b === undefined || b === 0) return undefined;
  return Math.round((cents * a) / b);
}

/** A converter to one currency that remembers what it could not convert (currency → its own cents). */
export interface Converter {
  to: string;
  convert(cents: number, from: string): number | undefined;
  /** the currencies met, besides the target, with the rate used (millionths of a US dollar; undefined: none set, left out) */
  met: Map<string, { usdMicros: number | undefined; leftOutCents: number }>;
}

export function converter(to: string, rates: Rates): Converter {
  const met = new Map<string, { usdMicros: number | undefined; leftOutCents: number }>();
  return {
    to,
    met,
    convert(cents, from) {
      const c = from || BASE_CURRENCY;
      const out = convertCents(cents, c, to, rates);
      if (c !== to) {
        const m = met.get(c) ?? { usdMicros: usdMicros(c, rates), leftOutCents: 0 };
        if (out === undefined) m.leftOutCents += cents;
        met.set(c, m);
      }
      return out;
    },
  };
}

/** Money cells (or any rows with a currency and amounts) converted; rows without a rate are dropped (the converter names them). */
export function convertRows<T extends { currency: string }>(rows: readonly T[], fields: readonly (keyof T & string)[], c: Converter): T[] {
  const out: T[] = [];
  for (const r of rows) {
    const converted = { ...r, currency: c.to };
    let ok = true;
    for (const f of fields) {
      const v = c.convert(Number(r[f]), r.currency);
      if (v === undefined) ok = false;
      else (converted as Record<string, unknown>)[f] = v;
    }
    if (ok) out.push(converted);
  }
  return out;
}

/** "1 CAD = 0.730000 USD" */
export const rateText = (currency: string, usdMicrosValue: number): string => `1 ${currency} = ${(usdMicrosValue / MICROS).toFixed(6)} ${BASE_CURRENCY}`;
