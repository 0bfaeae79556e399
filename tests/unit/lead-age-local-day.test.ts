/**
 * "18 or older on the day" is the day where the borrower lives: a request from Honolulu at 22:53
 * local time is still the day before its 18th birthday although UTC is past midnight, and one
 * from Sydney at 01:00 local is already the birthday although UTC is not. The lead route decides
 * by the region's time zone, the form by the browser's own day, with a real store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localDay } from '../../engine/browser/age';
import { EMPTY_VALUES, fieldError } from '../../engine/browser/formRules';
import { dayIn } from '../../engine/geo/regionTimeZones';
import { recordLead, type LeadBody } from '../../engine/leads/record';
import { CONSENT_VERSION_OF } from '../../engine/site/consent';
import { getCatalog } from '../../engine/site/catalog';
import { migratedStore } from '../support/bothStores';
import { leadRequest } from '../support/leadRequest';

process.env.LEADS_ENCRYPTION_KEY = 'a'.repeat(64);
const dir = mkdtempSync(join(tmpdir(), 'loansites-lead-age-'));
const db = migratedStore(() => ({ url: '', file: join(dir, 'leads.sqlite') }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const day = (d: Date) => d.toISOString().slice(0, 10);
const brand = (id: string) => getCatalog().brands.get(id)!.brand;
const ctx = (host: string, now: string, place = { city: 'Honolulu', state: 'hi' }) => ({
  host,
  ip: '203.0.113.0',
  userAgent: 'test-agent/1.0',
  now: new Date(now),
  privacyOptOut: false,
  zipLookup: () => place,
});
const outcome = (p: Promise<unknown>) => p.then((r) => (r as { status: number }).status).catch((e: { status?: number }) => e.status ?? e);

describe('the day a rule "on the day" reads', () => {
  it('is the calendar day in the region’s time zone', () => {
    expect(day(dayIn(new Date('2026-11-30T08:53:00Z'), 'US', 'HI'))).toBe('2026-11-29');
    expect(day(dayIn(new Date('2026-11-30T08:53:00Z'), 'US', 'TX'))).toBe('2026-11-30');
    expect(day(dayIn(new Date('2026-11-30T14:00:00Z'), 'AU', 'NSW'))).toBe('2026-12-01');
    expect(day(dayIn(new Date('2026-11-30T14:00:00Z'), 'AU', 'WA'))).toBe('2026-11-30');
    expect(day(dayIn(new Date('2026-11-30T02:00:00Z'), 'CA', 'NL'))).toBe('2026-11-29');
  });

  it('in the browser, is its own day', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Pacific/Honolulu';
    try {
      expect(day(localDay(new Date('2026-11-30T08:53:00Z')))).toBe('2026-11-29');
      // the form says what the server will: 17 in Honolulu that evening
      const values = { ...EMPTY_VALUES, dobMonth: '11', dobDay: '30', dobYear: '2008' };
      expect(fieldError('dateOfBirth', values, new Date('2026-11-30T08:53:00Z'))).toBe('You must be 18 or older to request a loan');
      expect(fieldError('dateOfBirth', { ...values, dobDay: '29' }, new Date('2026-11-30T08:53:00Z'))).toBeUndefined();
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});

describe('POST /api/leads: 18 on the day where the borrower lives', () => {
  it('refuses a borrower in Honolulu whose 18th birthday is tomorrow there, though it is today in UTC', async () => {
    const at = '2026-11-30T08:53:00Z';
    const body = (dateOfBirth: string) => leadRequest({ zip: '96813', phone: '8085550123', dateOfBirth }) as unknown as LeadBody;
    expect(await outcome(recordLead(db(), brand('ipaydayloans'), body('2008-11-30'), ctx('ipaydayloans.localhost', at)))).toBe(422);
    expect(await outcome(recordLead(db(), brand('ipaydayloans'), body('2008-11-29'), ctx('ipaydayloans.localhost', at)))).toBe(201);
  });

  it('takes a borrower in Sydney on the morning of their 18th birthday, though UTC is still the day before', async () => {
    const at = '2026-11-30T14:00:00Z';
    const body = (dateOfBirth: string) =>
      leadRequest({
        country: 'AU',
        zip: '2000',
        phone: '0412345678',
        amount: 1800,
        consent: { accepted: true, version: CONSENT_VERSION_OF.AU },
        dateOfBirth,
      }) as unknown as LeadBody;
    expect(await outcome(recordLead(db(), brand('fastloansau'), body('2008-12-01'), ctx('fastloansau.localhost', at)))).toBe(201);
    expect(await outcome(recordLead(db(), brand('fastloansau'), body('2008-12-02'), ctx('fastloansau.localhost', at)))).toBe(422);
  });
});
