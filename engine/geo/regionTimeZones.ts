/**
 * The time zone most people of a state, province or territory live in (IANA names), to give a
 * borrower a time in their own region rather than in UTC. A region split between zones gets the
 * zone of its largest population (Texas: Central; Florida: Eastern; Ontario: Eastern). Server-side
 * only: formatting with a time zone loads ICU's zone data.
 */
import type { Country } from '../browser/regions';

const US: Record<string, string> = {
  AL: 'America/Chicago',
  AK: 'America/Anchorage',
  AZ: 'America/Phoenix',
  AR: 'America/Chicago',
  CA: 'America/Los_Angeles',
  CO: 'America/Denver',
  CT: 'America/New_York',
  DE: 'America/New_York',
  DC: 'America/New_York',
  FL: 'America/New_York',
  GA: 'America/New_York',
  HI: 'Pacific/Honolulu',
  ID: 'America/Boise',
  IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago',
  KS: 'America/Chicago',
  KY: 'America/New_York',
  LA: 'America/Chicago',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  MI: 'America/Detroit',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  MT: 'America/Denver',
  NE: 'America/Chicago',
  NV: 'America/Los_Angeles',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NM: 'America/Denver',
  NY: 'America/New_York',
  NC: 'America/New_York',
  ND: 'America/Chicago',
  OH: 'America/New_York',
  OK: 'America/Chicago',
  OR: 'America/Los_Angeles',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  SD: 'America/Chicago',
  TN: 'America/Chicago',
  TX: 'America/Chicago',
  UT: 'America/Denver',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WA: 'America/Los_Angeles',
  WV: 'America/New_York',
  WI: 'America/Chicago',
  WY: 'America/Denver',
};

const CA: Record<string, string> = {
  AB: 'America/Edmonton',
  BC: 'America/Vancouver',
  MB: 'America/Winnipeg',
  NB: 'America/Moncton',
  NL: 'America/St_Johns',
  NS: 'America/Halifax',
  NT: 'America/Yellowknife',
  NU: 'America/Iqaluit',
  ON: 'America/Toronto',
  PE: 'America/Halifax',
  QC: 'America/Toronto',
  SK: 'America/Regina',
  YT: 'America/Whitehorse',
};

const AU: Record<string, string> = {
  ACT: 'Australia/Sydney',
  NSW: 'Australia/Sydney',
  NT: 'Australia/Darwin',
  QLD: 'Australia/Brisbane',
  SA: 'Australia/Adelaide',
  TAS: 'Australia/Hobart',
  VIC: 'Australia/Melbourne',
  WA: 'Australia/Perth',
};

const ZONES: Record<Country, Record<string, string>> = { US, CA, AU };
/** Where the region is not known: the country's most populous zone. */
const COUNTRY_ZONE: Record<Country, string> = { US: 'America/New_York', CA: 'America/Toronto', AU: 'Australia/Sydney' };

/** The time zone of a region (upper-case code), else of its country; undefined for a country the brands do not serve. */
export function timeZoneOf(country: string, region: string): string | undefined {
  const zones = ZONES[country as Country];
  return zones ? (zones[region] ?? COUNTRY_ZONE[country as Country]) : undefined;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day it is at `now` in the region (its time zone, as above), as a Date at UTC
 * midnight of that day: what a rule "on the day" (18 or older) reads, where the borrower lives.
 * A borrower in Hawaii is not a day older at 14:00 local because UTC has passed midnight.
 */
export function dayIn(now: Date, country: string, region: string): Date {
  const zone = timeZoneOf(country, region);
  if (!zone) return now;
  let format = dayFormats.get(zone);
  if (!format) dayFormats.set(zone, (format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const parts = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  return new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)));
}
