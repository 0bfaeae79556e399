/** Numbers in the console as people read them: thousands separators, currency, percentages (en-US). */
const int = new Intl.NumberFormat('en-US');
const pctFmt = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

export const num = (n: number): string => int.format(n);
export const pct = (ratio: number): string => pctFmt.format(ratio);
/** A part's share of a whole, or "—" when the whole is 0: nothing to divide by is not 0 % (nor 100 %). */
export const share = (part: number, whole: number): string => (whole > 0 ? pct(part / whole) : '—');
export const money = (cents: number | null | undefined, currency = 'USD'): string =>
  cents === null || cents === undefined ? '—' : new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
/** "2025-03-01T12:34:56.789Z" → "2025-03-01 12:34 UTC" */
export const when = (iso: string | null | undefined): string => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—');
/**
 * Where a lead's borrower lives: "Austin, TX 78701"; a Canadian or Australian lead has no city
 * (its province or state comes from the postal code), so "ON M5V 2T6", "NSW 2000".
 */
export const placeText = (lead: { city: string; region: string; zip: string }): string =>
  [lead.city, `${lead.region} ${lead.zip}`.trim()].filter(Boolean).join(', ');
