/**
 * The overview's periods in the operator's time zone, as table tests: local midnights across the
 * change to and from summer time, the bucket an hour falls in by hour, day, week (Monday) and
 * month, the previous period of the same length, the change beside it, and zones refused.
 */
import { describe, expect, it } from 'vitest';
import { bucketOf, delta, grainOf, localHour, localMidnight, previousPeriod, zonedRange, zoneProblem } from '../../engine/console/periods';

describe('local days as UTC instants', () => {
  it.each([
    ['2026-11-02', 'UTC', '2026-11-02T00:00:00.000Z'],
    ['2026-11-02', 'America/New_York', '2026-11-02T05:00:00.000Z'], // EST
    ['2026-07-02', 'America/New_York', '2026-07-02T04:00:00.000Z'], // EDT
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z'], // the day summer time ends: midnight is still EDT
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'], // the day it starts: midnight is still EST
    ['2026-11-02', 'Europe/Berlin', '2026-11-01T23:00:00.000Z'],
    ['2026-11-02', 'Australia/Sydney', '2026-11-01T13:00:00.000Z'], // AEDT
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'], // summer time starts at midnight: the day begins at 01:00 (−03)
    ['2026-09-05', 'America/Santiago', '2026-09-05T04:00:00.000Z'], // the day before keeps its 24 hours, up to that start
    ['2026-03-08', 'America/Havana', '2026-03-08T05:00:00.000Z'], // the same in Havana
    ['2026-03-29', 'Asia/Beirut', '2026-03-28T22:00:00.000Z'],
  ])('%s in %s starts at %s', (day, zone, utc) => {
    expect(new Date(localMidnight(day, zone)).toISOString()).toBe(utc);
  });

  it('a range of local days runs from the first midnight to the midnight after the last (a 25-hour day included)', () => {
    expect(zonedRange('2026-10-31', '2026-11-01', 'America/New_York')).toEqual({ from: '2026-10-31T04:00:00.000Z', to: '2026-11-02T05:00:00.000Z' });
  });
});

describe('buckets', () => {
  it.each([
    ['2026-11-02T03', 'America/New_York', 'day', '2026-11-01'], // 03:00 UTC is 22:00 the evening before in New York
    ['2026-11-02T03', 'UTC', 'day', '2026-11-02'],
    ['2026-11-02T03', 'America/New_York', 'hour', '2026-11-01 22:00'],
    ['2026-11-04T12', 'UTC', 'week', 'week of 2026-11-02'], // a Wednesday's week is named by its Monday
    ['2026-11-02T12', 'UTC', 'week', 'week of 2026-11-02'],
    ['2026-11-01T12', 'UTC', 'week', 'week of 2026-10-26'], // a Sunday belongs to the week before
    ['2026-12-01T02', 'America/New_York', 'month', '2026-11'],
  ] as const)('%s (%s) by %s is %s', (utcHour, zone, grain, bucket) => {
    expect(bucketOf(localHour(utcHour, zone), grain)).toBe(bucket);
  });
});

describe('the comparison', () => {
  it('takes the same number of days just before', () => {
    expect(previousPeriod('2026-11-08', '2026-11-14')).toEqual({ from: '2026-11-01', to: '2026-11-07' });
    expect(previousPeriod('2026-03-01', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
  });
  it('gives the change and the change as a share (none from zero or an unknown figure)', () => {
    expect(delta(150, 100)).toEqual({ change: 50, share: 0.5 });
    expect(delta(50, 100)).toEqual({ change: -50, share: -0.5 });
    expect(delta(5, 0)).toEqual({ change: 5, share: null });
    expect(delta(null, 100)).toEqual({ change: null, share: null });
  });
});

describe('settings refused with the reason', () => {
  it.each([
    ['', ''],
    ['UTC', ''],
    ['America/New_York', ''],
    ['Mars/Olympus', 'Mars/Olympus is not a time zone this server knows.'],
    ['../etc/passwd', 'A time zone is written like America/New_York.'],
    ['Asia/Kolkata', 'Asia/Kolkata is off UTC by a fraction of an hour, and the figures are kept by the hour.'],
  ])('%j → %j', (zone, problem) => {
    expect(zoneProblem(zone, 2026)).toBe(problem);
  });
  it('groups by the hour only a short range', () => {
    expect(grainOf('hour', '2026-11-01', '2026-11-07')).toEqual({ grain: 'hour', problem: '' });
    expect(grainOf('hour', '2026-10-01', '2026-11-07').grain).toBe('day');
    expect(grainOf('fortnight', '2026-11-01', '2026-11-07')).toEqual({ grain: 'day', problem: '' });
  });
});
