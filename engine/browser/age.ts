/**
 * Age on the day of a request: the one rule of a loan request the application form's first chunk
 * needs, apart from engine/geo/servedPlaces.ts so that the form does not bring the table of states
 * to every apply page's first load. Pure; table-tested with servedPlaces.ts.
 */
export const MIN_AGE = 18;

/**
 * The regions whose age of majority, the age from which a borrower can be held to a loan contract,
 * is above MIN_AGE: in Canada British Columbia, New Brunswick, Newfoundland and Labrador, Nova
 * Scotia and the three territories (19); in the US Alabama (19, Ala. Code § 26-1-1), Nebraska
 * (19, Neb. Rev. Stat. § 43-2101) and Mississippi (21, Miss. Code § 1-3-27). It is 18 in every
 * other province and state and in every Australian state. Codes only: the form names a region from
 * its postal code (Canada) or the ZIP's lookup (US), the lead API from the place it located.
 */
const MAJORITY_ABOVE_18: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map([
  ['CA', new Map(Object.entries({ BC: 19, NB: 19, NL: 19, NS: 19, NT: 19, NU: 19, YT: 19 }))],
  ['US', new Map(Object.entries({ AL: 19, NE: 19, MS: 21 }))],
]);

/** The youngest a borrower may be where they live (region: its code in either case, "BC", "al"): the age of majority there, else MIN_AGE. */
export const minAgeIn = (country: string, region: string | undefined): number =>
  (region === undefined ? undefined : MAJORITY_ABOVE_18.get(country)?.get(region.toUpperCase())) ?? MIN_AGE;

/** What a borrower under minAgeIn is told, by the form and by the lead API alike; the region is named where the age is not 18. */
export const tooYoungMessage = (minAge: number, regionName: string | undefined): string =>
  minAge === MIN_AGE || !regionName ? `You must be ${minAge} or older to request a loan` : `You must be ${minAge} or older to request a loan in ${regionName}`;

/**
 * Whole years between a YYYY-MM-DD birth date and the calendar day `today` names in UTC (the
 * server passes the day where the borrower lives, engine/geo/regionTimeZones.ts dayIn; the form
 * the browser's own day, localDay); undefined for a date that does not exist.
 */
export function ageOn(dateOfBirth: string, today: Date): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() < mo - 1 || (today.getUTCMonth() === mo - 1 && today.getUTCDate() < d)) age -= 1;
  return age;
}

/** The browser's calendar day (its own time zone, where the borrower is) as ageOn reads a day. */
export const localDay = (now: Date): Date => new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
