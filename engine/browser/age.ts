/**
 * Age on the day of a request: the one rule of a loan request the application form's first chunk
 * needs, apart from engine/geo/servedPlaces.ts so that the form does not bring the table of states
 * to every apply page's first load. Pure; table-tested with servedPlaces.ts.
 */
export const MIN_AGE = 18;

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
