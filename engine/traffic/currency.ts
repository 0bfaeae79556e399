/**
 * Money in the operator's currency (pure). A sale's price is in its lead's currency (the brand's:
 * USD, CAD or AUD) and a cost in its report's; an admin sets what one unit of each is worth in US
 * dollars (engine/store/currencyRates.ts — never fetched, so a figure never changes behind the
 * operator's back), and every amount is converted through US dollars to the currency the operator
 * reads in, sale by sale (and return by return), rounded to the cent: every total is a sum of
 * converted sales, so the overview, the buyers pages, the leads export and `npm run leads` — which
 * group the same sales differently — agree to the cent. An amount whose currency has no rate is
 * left out and named, never summed as if it were dollars.
 */

/** Currency → what one unit is worth in US dollars, in millionths. US dollars need no rate. */
export type Rates = ReadonlyMap<string, number>;

export const BASE_CURRENCY = 'USD';
export const MICROS = 1_000_000;

const usdMicros = (currency: string, rates: Rates): number | undefined => (currency === BASE_CURRENCY ? MICROS : rates.get(currency));

/** "1 CAD = 0.730000 USD" */
export const rateText = (currency: string, usdMicrosValue: number): string => `1 ${currency} = ${(usdMicrosValue / MICROS).toFixed(6)} ${BASE_CURRENCY}`;

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
  /** `n` sales (or returns) of `unitCents` each: n × the one converted, so a total is the sum of its sales converted one by one */
  convertEach(n: number, unitCents: number, from: string): number | undefined;
  /** the rate a `from` amount is converted at, as a sentence ('' in the target currency itself), or undefined without one */
  rateOf(from: string): string | undefined;
  /** the currencies met, besides the target, with the rate used (millionths of a US dollar; undefined: it or the target has none, left out) */
  met: Map<string, { usdMicros: number | undefined; leftOutCents: number }>;
}

export function converter(to: string, rates: Rates): Converter {
  const met = new Map<string, { usdMicros: number | undefined; leftOutCents: number }>();
  const meet = (c: string, leftOut: number) => {
    if (c === to) return;
    const m = met.get(c) ?? { usdMicros: usdMicros(to, rates) === undefined ? undefined : usdMicros(c, rates), leftOutCents: 0 };
    m.leftOutCents += leftOut;
    met.set(c, m);
  };
  return {
    to,
    met,
    convert(cents, from) {
      const c = from || BASE_CURRENCY;
      const out = convertCents(cents, c, to, rates);
      meet(c, out === undefined ? cents : 0);
      return out;
    },
    convertEach(n, unitCents, from) {
      const c = from || BASE_CURRENCY;
      const one = convertCents(unitCents, c, to, rates);
      meet(c, one === undefined ? n * unitCents : 0);
      return one === undefined ? undefined : n * one;
    },
    rateOf(from) {
      const c = from || BASE_CURRENCY;
      if (c === to) return '';
      if (convertCents(0, c, to, rates) === undefined) return undefined;
      // through US dollars: each rate that is not the dollar's own
      return [c, to]
        .filter((x) => x !== BASE_CURRENCY)
        .map((x) => rateText(x, usdMicros(x, rates)!))
        .join('; ');
    },
  };
}

/** A currency a converter met besides its target: its rate (millionths of a US dollar; null: it or the target has none), what was left out for want of one, and the rates used as text. */
export interface RateUsed {
  currency: string;
  usdMicros: number | null;
  leftOutCents: number;
  /** "1 CAD = 0.730000 USD" (both rates when neither currency is the US dollar); null: left out */
  rate: string | null;
}

/** What a converter met, by currency: every page and export states it beside its totals. */
export const ratesUsed = (c: Converter): RateUsed[] =>
  [...c.met]
    .map(([currency, m]) => ({ currency, usdMicros: m.usdMicros ?? null, leftOutCents: m.leftOutCents, rate: c.rateOf(currency) ?? null }))
    .sort((a, b) => (a.currency < b.currency ? -1 : 1));

/**
 * The sentence stating the rates used and the currencies left out, as the overview, the buyers
 * pages, the leads export's total row and `npm run leads` write it; `money` formats an amount.
 */
export const ratesNote = (used: readonly RateUsed[], to: string, money: (cents: number, currency: string) => string): string =>
  used
    .map((c) =>
      c.rate === null
        ? `Amounts in ${c.currency} (${money(c.leftOutCents, c.currency)}) are left out: no rate to ${to} is set (an admin sets rates on Settings).`
        : `${c.currency} converted at ${c.rate}.`,
    )
    .join(' ');

/** "12.50 CAD": an amount where no currency formatting is at hand (CSV, the terminal). */
export const plainMoney = (cents: number, currency: string): string => `${(cents / 100).toFixed(2)} ${currency}`;

/** Sales and returns in one currency, as summed by a listing. */
export interface ConvertedTotals {
  currency: string;
  sold: number;
  soldCents: number;
  returned: number;
  returnedCents: number;
  /** what was kept: sales less returns */
  revenueCents: number;
}

/**
 * The money of a listing a lead a line (the leads export, `npm run leads`): each line's price and
 * refund converted, with the rate used, and the totals of the sales won and the returns made —
 * the same cents as the overview's, which converts the same sales one by one.
 */
export function convertedLines(c: Converter) {
  const totals: ConvertedTotals = { currency: c.to, sold: 0, soldCents: 0, returned: 0, returnedCents: 0, revenueCents: 0 };
  return {
    totals,
    /** `won`: the sale counts as won (sold, or returned since); a price or refund without a rate is null, the converter naming its currency */
    line(l: { currency: string; priceCents: number | null; refundCents: number | null; won: boolean }) {
      const currency = l.currency || BASE_CURRENCY;
      const price = l.priceCents === null ? undefined : c.convert(l.priceCents, currency);
      const refund = l.refundCents === null ? undefined : c.convert(l.refundCents, currency);
      if (l.won && price !== undefined) {
        totals.sold += 1;
        totals.soldCents += price;
      }
      if (refund !== undefined) {
        totals.returned += 1;
        totals.returnedCents += refund;
      }
      totals.revenueCents = totals.soldCents - totals.returnedCents;
      const rate = l.priceCents === null && l.refundCents === null ? '' : (c.rateOf(currency) ?? `no rate from ${currency} to ${c.to} is set`);
      return { currency, priceCents: price ?? null, refundCents: refund ?? null, rate };
    },
  };
}
