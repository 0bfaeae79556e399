/**
 * The overview's periods in the operator's time zone (pure): the UTC instants of a range of local
 * days, the bucket (hour, day, week, month) an hour of data falls in, and the period before a
 * range for the comparison.
 *
 * The funnel and the money are kept by the UTC hour, so a local day is exactly 24 (or 23, 25)
 * of those hours only where the zone's offset is a whole number of hours; a zone that is ever off
 * by a fraction of an hour (Asia/Kolkata, Australia/Adelaide…) is refused with the reason rather
 * than shown with days cut in the wrong place. Weeks start on Monday and are named by it.
 */

export const GRAINS = ['hour', 'day', 'week', 'month'] as const;
export type Grain = (typeof GRAINS)[number];
/** An hour per row is a lot of rows: ranges of at most this many days are shown by the hour. */
export const MAX_HOURLY_DAYS = 14;

const DAY = 86_400_000;
const HOUR = 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (zone: string) => {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
};

/** The zone's offset from UTC at instant `t`, in ms (New York in winter: −5 h). */
export function offsetMs(t: number, zone: string): number {
  const p = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(t))
      .map((x) => [x.type, x.value]),
  );
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
  return local - Math.floor(t / 60_000) * 60_000;
}

/** Why a zone cannot be used, or '' when it can ('' and UTC are always fine). */
export function zoneProblem(zone: string, year = new Date().getUTCFullYear()): string {
  if (zone === '' || zone === 'UTC') return '';
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(zone) || zone.length > 64) return 'A time zone is written like America/New_York.';
  try {
    formatter(zone);
  } catch {
    return `${zone} is not a time zone this server knows.`;
  }
  // Each month's offset (the zone's rules change at most a few times a year).
  for (let m = 0; m < 12; m++)
    if (offsetMs(Date.UTC(year, m, 15), zone) % HOUR !== 0) return `${zone} is off UTC by a fraction of an hour, and the figures are kept by the hour.`;
  return '';
}

/** The UTC instant a local day begins at: its midnight ("2026-11-01" in New York → 04:00 UTC in summer time). */
export function localMidnight(day: string, zone: string): number {
  const utc = Date.parse(`${day}T00:00:00.000Z`);
  if (!zone || zone === 'UTC') return utc;
  const guess = utc - offsetMs(utc, zone);
  // Across a change of offset the first guess is an hour out; the offset at the guess is the right one.
  let t = utc - offsetMs(guess, zone);
  // Where summer time starts at midnight (America/Santiago, America/Havana…) that midnight does not
  // exist: the instant found is 23:00 the evening before, and the day begins an hour later, at 01:00.
  while (t + offsetMs(t, zone) < utc) t += HOUR;
  return t;
}

const iso = (t: number) => new Date(t).toISOString();

/** The filter's [from, to) for local days `from` … `to` (both included). */
export function zonedRange(from: string, to: string, zone: string): { from: string; to: string } {
  return { from: iso(localMidnight(from, zone)), to: iso(localMidnight(nextDay(to), zone)) };
}

export const nextDay = (day: string): string => iso(Date.parse(`${day}T00:00:00.000Z`) + DAY).slice(0, 10);
const addDays = (day: string, n: number): string => iso(Date.parse(`${day}T00:00:00.000Z`) + n * DAY).slice(0, 10);

/** A UTC hour's local time, "YYYY-MM-DDTHH". */
export function localHour(utcHour: string, zone: string): string {
  const t = Date.parse(`${utcHour}:00:00.000Z`);
  return iso(t + (zone && zone !== 'UTC' ? offsetMs(t, zone) : 0)).slice(0, 13);
}

/** The bucket a local hour ("YYYY-MM-DDTHH") or day ("YYYY-MM-DD") falls in. */
export function bucketOf(local: string, grain: Grain): string {
  const day = local.slice(0, 10);
  switch (grain) {
    case 'hour':
      return local.length > 10 ? `${day} ${local.slice(11, 13)}:00` : `${day} 00:00`;
    case 'day':
      return day;
    case 'week': {
      const weekday = (new Date(`${day}T00:00:00.000Z`).getUTCDay() + 6) % 7; // Monday 0
      return `week of ${addDays(day, -weekday)}`;
    }
    case 'month':
      return day.slice(0, 7);
  }
}

/** The same number of days just before [from, to] (both included): the comparison period. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY) + 1;
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/** A figure beside the same figure of the comparison period: the change, and the change as a share (null from zero). */
export function delta(now: number | null, before: number | null): { change: number | null; share: number | null } {
  if (now === null || before === null) return { change: null, share: null };
  return { change: now - before, share: before === 0 ? null : (now - before) / Math.abs(before) };
}

/** The grouping asked for (default: by day); by the hour only for ranges of at most MAX_HOURLY_DAYS days, else by day with the reason. */
export function grainOf(asked: string, from: string, to: string): { grain: Grain; problem: string } {
  const grain = (GRAINS as readonly string[]).includes(asked) ? (asked as Grain) : 'day';
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY) + 1;
  if (grain === 'hour' && days > MAX_HOURLY_DAYS)
    return { grain: 'day', problem: `Grouping by the hour is for ranges of at most ${MAX_HOURLY_DAYS} days; showing days.` };
  return { grain, problem: '' };
}
