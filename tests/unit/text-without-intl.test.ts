/**
 * Dates and counts on brand pages are written without Intl (whose first use maps ~5 MB of ICU
 * locale data into the server for its life), and read exactly as Intl wrote them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dateText } from '../../blocks/chrome/FaqList';
import { citiesOf } from '../../engine/geo/cities';
import { cityFacts, stateFacts } from '../../engine/site/locationText';
import { STATES } from '../../engine/geo/states';

const byIntl = (iso: string, locale = 'en-US') =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

describe('dates of articles and lists', () => {
  it.each(['2026-03-04', '2025-12-31', '2024-02-29', '2000-01-01', '1999-07-15', '0999-01-01', '9999-12-31', '2026-13-01', 'not a date'])(
    '%s reads as Intl writes it',
    (iso) => {
      expect(dateText(iso)).toBe(byIntl(iso));
    },
  );

  it.each(['en-US', 'en-CA', 'en-AU'])('every day of two years reads as Intl writes it in %s', (locale) => {
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2027, 0, 1); t += 86_400_000) {
      const iso = new Date(t).toISOString().slice(0, 10);
      expect(dateText(iso, locale)).toBe(byIntl(iso, locale));
    }
  });

  it('an Australian brand writes the day first, as Australians read a date', () => {
    expect(dateText('2026-03-16', 'en-AU')).toBe('16 March 2026');
    expect(dateText('2026-03-16', 'en-CA')).toBe('March 16, 2026');
  });
});

describe('counts in state and city facts', () => {
  const opts = (locale: string) => ({ brandName: 'Acme', loanLabel: 'payday loan', locale });

  it.each(['en-US', 'en-CA', 'en-AU'])('state pages write cities and ZIP codes as toLocaleString(%s) does', (locale) => {
    for (const state of STATES) {
      const cities = citiesOf(state.code);
      const zips = cities.reduce((sum, c) => sum + c.zipCount, 0);
      expect(stateFacts(state, opts(locale)).paragraphs[1]).toContain(
        `cover ${cities.length.toLocaleString(locale)} cities and towns across ${zips.toLocaleString(locale)} ZIP codes`,
      );
    }
  });

  it('a city with thousands of ZIP codes writes the count grouped', () => {
    const texas = STATES.find((s) => s.code === 'tx')!;
    const largest = [...citiesOf('tx')].sort((a, b) => b.zipCount - a.zipCount)[0]!;
    expect(largest.zipCount).toBeGreaterThan(1);
    expect(cityFacts(largest, texas, opts('en-US')).paragraphs[1]).toContain(`and ${(largest.zipCount - 1).toLocaleString('en-US')} more`);
  });
});

describe('what pages write without Intl', () => {
  afterEach(() => vi.restoreAllMocks());

  it('state and city facts and dates of en-US, en-CA and en-AU brands never ask Intl', () => {
    const number = vi.spyOn(Number.prototype, 'toLocaleString');
    const date = vi.spyOn(Date.prototype, 'toLocaleDateString');
    const format = vi.spyOn(Intl, 'NumberFormat');
    const texas = STATES.find((s) => s.code === 'tx')!;
    for (const locale of ['en-US', 'en-CA', 'en-AU']) {
      stateFacts(texas, { brandName: 'Acme', loanLabel: 'payday loan', locale });
      for (const city of citiesOf('tx').slice(0, 50)) cityFacts(city, texas, { brandName: 'Acme', loanLabel: 'payday loan', locale });
    }
    for (const locale of ['en-US', 'en-CA', 'en-AU']) dateText('2026-03-04', locale);
    expect([number.mock.calls.length, date.mock.calls.length, format.mock.calls.length]).toEqual([0, 0, 0]);
  });
});
