/**
 * The overview's filter from its query string (pure): a date range of whole days, both ends
 * included (default: the last 7 days to today in the operator's time zone), an optional brand, campaign, source, landing
 * page and device class, and the breakdown tables' sort (engine/console/breakdownSort.ts). A date that is
 * not a real YYYY-MM-DD, a day outside 2000-01-01 … 9999-12-30, an end before the start or a range
 * over 366 days falls back to the default with a message saying why; the funnel's filter is [from 00:00, the day after to 00:00).
 */
import type { FunnelFilter } from '../traffic/funnelQuery';
import { VISIT_VALUE_MAX, type DeviceClass } from '../store/trafficRules';
import { sortOf, type BreakdownSort } from './breakdownSort';
import { cleanText } from '../browser/cleanText';
import { cutToCharacters } from '../browser/visitValue';

/** The device classes a visit is counted under (engine/store/trafficRules.ts deviceClass). */
export const DEVICE_CLASSES: readonly DeviceClass[] = ['mobile', 'tablet', 'desktop', 'bot', 'other'];

export const MAX_DAYS = 366;
const DAY = 86_400_000;

export interface OverviewQuery {
  from: string;
  to: string;
  brand: string;
  campaign: string;
  source: string;
  landing: string;
  device: string;
  sort: BreakdownSort;
  /** why the asked range was not used, or '' */
  problem: string;
  filter: FunnelFilter;
}

const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
/** The date it is at `now` in `zone` (an unknown zone: UTC's). */
export const localDay = (now: Date, zone: string): string => {
  if (!zone || zone === 'UTC') return isoDay(now.getTime());
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return isoDay(now.getTime());
  }
};

/**
 * The days a range may name: no record is older than the business, and a day either side of these
 * (the comparison period before a range, the day after its end) must still be a four-digit year,
 * or the captions and the store's ISO strings come out garbled ("-000001-12-31", "+010000-01-01").
 */
export const FIRST_DAY = '2000-01-01';
export const LAST_DAY = '9999-12-30';
export const DAYS_BOUND = `Dates are days from ${FIRST_DAY} to ${LAST_DAY}`;
export const inDayBounds = (t: number): boolean => t >= Date.parse(`${FIRST_DAY}T00:00:00.000Z`) && t <= Date.parse(`${LAST_DAY}T00:00:00.000Z`);

export const dayOf = (text: string): number | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const t = Date.parse(`${text}T00:00:00.000Z`);
  return Number.isNaN(t) || isoDay(t) !== text ? undefined : t;
};

/**
 * `zone`: the operator's time zone, whose today ends the default range — in UTC, at 20:00 in New
 * York the last 7 days were yesterday to a tomorrow with nothing in it.
 */
export function overviewQuery(q: Record<string, string>, brands: ReadonlySet<string>, now = new Date(), zone = 'UTC'): OverviewQuery {
  const today = dayOf(localDay(now, zone))!;
  let from = today - 6 * DAY;
  let to = today;
  let problem = '';
  if (q.from || q.to) {
    const f = dayOf(q.from ?? '');
    const t = dayOf(q.to ?? '');
    if (f === undefined || t === undefined) problem = 'Dates must be real days written YYYY-MM-DD; showing the last 7 days.';
    else if (!inDayBounds(f) || !inDayBounds(t)) problem = `${DAYS_BOUND}; showing the last 7 days.`;
    else if (t < f) problem = 'The end is before the start; showing the last 7 days.';
    else if ((t - f) / DAY + 1 > MAX_DAYS) problem = `A range is at most ${MAX_DAYS} days; showing the last 7 days.`;
    else [from, to] = [f, t];
  }
  const brand = brands.has(q.brand ?? '') ? q.brand! : '';
  // as the browser cleans a campaign value before a visit stores it: a control character matches
  // nothing stored, and PostgreSQL refuses a NUL outright (the whole page would fail)
  // and cut as a visit's is (characters, not UTF-16 units), so a campaign of 500 emoji is taken whole
  const text = (v: string | undefined) => cutToCharacters(cleanText(v ?? '', Infinity), VISIT_VALUE_MAX);
  const campaign = text(q.campaign);
  const source = text(q.source);
  // A landing page is a path; one typed without its slash still names it.
  const landing = text(q.landing).replace(/^(?=[^/])/, '/');
  const device = (DEVICE_CLASSES as readonly string[]).includes(q.device ?? '') ? q.device! : '';
  const filter: FunnelFilter = {
    from: new Date(from).toISOString(),
    to: new Date(to + DAY).toISOString(),
    ...(brand ? { brand } : {}),
    ...(campaign ? { campaign } : {}),
    ...(source ? { source } : {}),
    ...(landing ? { landing } : {}),
    ...(device ? { device } : {}),
  };
  const sort = sortOf(q.sort ?? '', q.dir ?? '');
  return { from: isoDay(from), to: isoDay(to), brand, campaign, source, landing, device, sort, problem, filter };
}
