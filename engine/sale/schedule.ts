/**
 * A buyer's clock: the day, the minute of the day and the calendar keys of an instant in the
 * buyer's IANA time zone (daylight saving from the platform's time-zone data, not from offsets
 * written by hand). Caps are counted by these keys, so "per day" is the buyer's day.
 */
import type { Buyer } from '../../schemas/buyer.types';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface LocalTime {
  weekday: Weekday;
  /** minutes since local midnight */
  minute: number;
  /** YYYY-MM-DD in the zone */
  day: string;
  /** YYYY-MM in the zone */
  month: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const formatFor = (zone: string) => {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(zone, f);
  }
  return f;
};

export function localTime(at: Date, zone = 'UTC'): LocalTime {
  const parts = Object.fromEntries(
    formatFor(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  return { weekday: parts.weekday!.toLowerCase().slice(0, 3) as Weekday, minute: Number(parts.hour) * 60 + Number(parts.minute), day, month: day.slice(0, 7) };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const PREVIOUS: Record<Weekday, Weekday> = { mon: 'sun', tue: 'mon', wed: 'tue', thu: 'wed', fri: 'thu', sat: 'fri', sun: 'sat' };

/** Whether the buyer takes leads at this instant. An overnight window (to < from) belongs to the day it starts. */
export function isOpen(schedule: Buyer['schedule'], at: Date): boolean {
  if (!schedule) return true;
  const t = localTime(at, schedule.timeZone);
  const from = minutesOf(schedule.from ?? '00:00');
  const to = minutesOf(schedule.to ?? '24:00');
  const days = schedule.days as Weekday[] | undefined;
  const on = (d: Weekday) => !days || days.includes(d);
  if (from === to) return false;
  if (from < to) return on(t.weekday) && t.minute >= from && t.minute < to;
  // overnight: the evening part today, or the morning part of a window opened yesterday
  return (t.minute >= from && on(t.weekday)) || (t.minute < to && on(PREVIOUS[t.weekday]));
}
