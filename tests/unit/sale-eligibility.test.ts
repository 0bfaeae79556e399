import { describe, expect, it } from 'vitest';
import type { Buyer } from '../../schemas/buyer.types';
import { eligibility, type EligibilityContext, type SaleLead } from '../../engine/sale/eligibility';
import { isOpen, localTime } from '../../engine/sale/schedule';
import { saleLeadFacts } from '../support/saleLead';

const buyer = (over: Partial<Buyer> = {}): Buyer => ({
  $schema: '',
  id: 'acme',
  displayName: 'Acme',
  mode: 'ping-post',
  endpoints: { ping: 'https://a.example/p', post: 'https://a.example/q' },
  secretEnv: 'ACME',
  ...over,
});
const lead: SaleLead = saleLeadFacts();
const ctx: EligibilityContext = { now: new Date('2026-01-15T18:00:00Z'), duplicate: false, suppressed: false, soldToday: 0, soldThisMonth: 0 };

describe('eligibility of a buyer for a lead', () => {
  it.each<[string, Partial<Buyer>, Partial<SaleLead>, Partial<EligibilityContext>, string | true]>([
    ['a buyer without filters takes an ordinary lead', {}, {}, {}, true],
    ['a disabled buyer takes nothing', { enabled: false }, {}, {}, 'disabled'],
    ['a suppressed contact is offered to nobody', { acceptsDuplicates: true }, {}, { suppressed: true }, 'the contact opted out'],
    ['a test lead only to buyers taking test leads', {}, { test: true }, {}, 'a test lead'],
    ['a test lead to a buyer taking them', { acceptsTestLeads: true }, { test: true }, {}, true],
    ['a duplicate only to buyers taking duplicates', {}, {}, { duplicate: true }, 'a duplicate'],
    ['a duplicate to a buyer taking them', { acceptsDuplicates: true }, {}, { duplicate: true }, true],
    ['another brand', { filters: { brands: ['ustitleloans'] } }, {}, {}, 'brand ipaydayloans not taken'],
    ['another loan kind', { filters: { loanKinds: ['title'] } }, {}, {}, 'general loans not taken'],
    ['another country', { filters: { countries: ['CA'] } }, {}, {}, 'country US not taken'],
    ['a state off the allow list', { filters: { states: { allow: ['FL', 'GA'] } } }, {}, {}, 'state TX not taken'],
    ['a state on the allow list', { filters: { states: { allow: ['TX'] } } }, {}, {}, true],
    ['a state on the deny list', { filters: { states: { deny: ['TX'] } } }, {}, {}, 'state TX refused'],
    ['an Australian state on the allow list', { filters: { states: { allow: ['NSW', 'ACT'] } } }, { country: 'AU', state: 'ACT' }, {}, true],
    ['an Australian state off the allow list', { filters: { states: { allow: ['NSW', 'ACT'] } } }, { country: 'AU', state: 'VIC' }, {}, 'state VIC not taken'],
    ['an amount above the range', { filters: { amount: { max: 500 } } }, {}, {}, 'amount $800 outside 0–500'],
    ['an amount on the range edge', { filters: { amount: { min: 800, max: 800 } } }, {}, {}, true],
    ['income under the minimum', { filters: { minMonthlyIncome: 2500 } }, {}, {}, 'monthly income under $2500'],
    ['another income source', { filters: { incomeSources: ['benefits'] } }, {}, {}, 'income source employment not taken'],
    ['another pay frequency', { filters: { payFrequencies: ['monthly'] } }, {}, {}, 'pay frequency biweekly not taken'],
    ['too young', { filters: { age: { min: 31 } } }, {}, {}, 'age 30 outside 31–∞'],
    ['the daily cap reached', { caps: { perDay: 3 } }, {}, { soldToday: 3 }, 'daily cap 3 reached'],
    ['under the daily cap', { caps: { perDay: 3 } }, {}, { soldToday: 2 }, true],
    ['the monthly cap reached', { caps: { perMonth: 10 } }, {}, { soldThisMonth: 10 }, 'monthly cap 10 reached'],
    ['a cap of zero', { caps: { perDay: 0 } }, {}, {}, 'daily cap 0 reached'],
    ['outside the schedule', { schedule: { timeZone: 'America/Chicago', from: '08:00', to: '09:00' } }, {}, {}, 'outside its schedule'],
  ])('%s', (_, b, l, c, expected) => {
    const got = eligibility(buyer(b), { ...lead, ...l }, { ...ctx, ...c });
    expect(got).toEqual(expected === true ? { ok: true } : { ok: false, reason: expected });
  });
});

describe("a buyer's schedule, in its own time zone", () => {
  const weekdays: Buyer['schedule'] = { timeZone: 'America/Chicago', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' };
  it.each<[string, Buyer['schedule'], string, boolean]>([
    ['no schedule: always', undefined, '2026-01-15T03:00:00Z', true],
    ['07:30 in Chicago in winter (CST) is before opening', weekdays, '2026-01-15T13:30:00Z', false],
    ['the same UTC time in summer (CDT) is 08:30: open', weekdays, '2026-07-16T13:30:00Z', true],
    ['19:59 local is open', weekdays, '2026-01-16T01:59:00Z', true],
    ['20:00 local is closed (the end is excluded)', weekdays, '2026-01-16T02:00:00Z', false],
    ['a Saturday is closed', weekdays, '2026-01-17T18:00:00Z', false],
    [
      'the night the clocks go forward: 01:30 CST, before a 02:00 opening',
      { timeZone: 'America/Chicago', from: '02:00', to: '04:00' },
      '2026-03-08T07:30:00Z',
      false,
    ],
    ['the same night one hour later is 03:30 CDT: open', { timeZone: 'America/Chicago', from: '02:00', to: '04:00' }, '2026-03-08T08:30:00Z', true],
    ['Tokyo is already Friday when UTC is Thursday', { timeZone: 'Asia/Tokyo', days: ['fri'], from: '08:00', to: '09:00' }, '2026-01-15T23:30:00Z', true],
    [
      'an overnight window: Saturday 03:00 belongs to Friday night',
      { timeZone: 'UTC', days: ['fri'], from: '22:00', to: '06:00' },
      '2026-01-17T03:00:00Z',
      true,
    ],
    [
      'an overnight window: Friday 03:00 belongs to Thursday night',
      { timeZone: 'UTC', days: ['fri'], from: '22:00', to: '06:00' },
      '2026-01-16T03:00:00Z',
      false,
    ],
    ['an overnight window: Friday 23:00', { timeZone: 'UTC', days: ['fri'], from: '22:00', to: '06:00' }, '2026-01-16T23:00:00Z', true],
  ])('%s', (_, schedule, at, open) => {
    expect(isOpen(schedule, new Date(at))).toBe(open);
  });

  it('counts caps by the calendar day and month of the buyer, not of UTC', () => {
    expect(localTime(new Date('2026-02-01T03:00:00Z'), 'America/Los_Angeles')).toMatchObject({ day: '2026-01-31', month: '2026-01', weekday: 'sat' });
    expect(localTime(new Date('2026-02-01T03:00:00Z'))).toMatchObject({ day: '2026-02-01', month: '2026-02', weekday: 'sun' });
  });
});
