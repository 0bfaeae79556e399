import { describe, expect, it } from 'vitest';
import { amountLabel, amountOptions, bracketAmount, formatMoney } from '../../engine/browser/amounts';
import { storedSource } from '../../engine/browser/applySource';
import { applyUrl, TITLE_APPLY } from '../../engine/browser/applyUrl';

const general = { path: '/apply', amountParam: 'requested_amount' } as const;
const title = { path: '/apply-title-loans', amountParam: 'requestedamount' } as const;

describe('applyUrl', () => {
  it.each([
    [general, {}, '/apply?v1=landing-page'],
    [general, { amount: 1000 }, '/apply?v1=landing-page&requested_amount=1000'],
    [title, { amount: 2500 }, '/apply-title-loans?v1=landing-page&requestedamount=2500'],
    [title, {}, '/apply-title-loans?v1=landing-page'],
    [general, { source: 'spring-campaign', amount: 500 }, '/apply?v1=spring-campaign&requested_amount=500'],
    [general, { source: '   ' }, '/apply?v1=landing-page'],
    [general, { source: null, amount: null }, '/apply?v1=landing-page'],
    [general, { amount: Number.NaN }, '/apply?v1=landing-page'],
    [general, { amount: 999.6 }, '/apply?v1=landing-page&requested_amount=1000'],
    [title, { keep: 'utm_source=fb&gclid=abc', amount: 5000 }, '/apply-title-loans?utm_source=fb&gclid=abc&v1=landing-page&requestedamount=5000'],
    [title, { keep: 'v1=old&x=1' }, '/apply-title-loans?v1=landing-page&x=1'],
    [general, { source: 'a&b=c' }, '/apply?v1=a%26b%3Dc'],
  ] as const)('%j %j → %s', (target, opts, expected) => {
    expect(applyUrl(target, opts)).toBe(expected);
  });
});

describe('bracketAmount', () => {
  it.each([
    [1, 500],
    [500, 500],
    [501, 1000],
    [1000, 1000],
    [1001, 2500],
    [2500, 2500],
    [2501, 5000],
    [5000, 5000],
    [5001, 35000],
    [35000, 35000],
  ])('%d → %d', (amount, bracket) => {
    expect(bracketAmount(amount)).toBe(bracket);
  });
});

describe('amount options and labels', () => {
  it('runs 100–1000 by 100 then 1500–5000 by 500, optionally with 35000', () => {
    expect(amountOptions()).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000]);
    expect(amountOptions(true).at(-1)).toBe(35000);
  });
  it('formats with thousands separators and shows 35000 as "Above $5000" (SPEC §9 writes it without a separator)', () => {
    expect(formatMoney(2500)).toBe('$2,500');
    expect(formatMoney(2500, 'en-CA', 'CAD')).toBe('$2,500');
    expect(amountLabel(35000)).toBe('Above $5000');
    expect(amountLabel(35000, 'en-CA', 'CAD')).toBe('Above $5000');
    expect(amountLabel(1500)).toBe('$1,500');
  });
});

describe('the title-loan form target (both amount keys, existing query kept)', () => {
  it.each([
    [{ amount: 2500 }, '/apply-title-loans?v1=landing-page&requestedamount=2500'],
    [{ keep: '?utm_source=fb&gclid=x1', source: 'mailer', amount: 500 }, '/apply-title-loans?utm_source=fb&gclid=x1&v1=mailer&requestedamount=500'],
    [{ keep: '?requestedamount=9&v1=old', amount: 1000 }, '/apply-title-loans?requestedamount=1000&v1=landing-page'],
    [{ keep: '' }, '/apply-title-loans?v1=landing-page'],
  ] as const)('%j → %s', (opts, expected) => expect(applyUrl(TITLE_APPLY, opts)).toBe(expected));
});

describe('storedSource (LoansSource1, read after mount)', () => {
  it.each<[string, Pick<Storage, 'getItem'> | undefined, string | null]>([
    ['a stored source', { getItem: (k) => (k === 'LoansSource1' ? 'spring-mailer' : null) }, 'spring-mailer'],
    ['nothing stored', { getItem: () => null }, null],
    ['no storage (server, or blocked)', undefined, null],
    [
      'storage that throws',
      {
        getItem: () => {
          throw new Error('SecurityError');
        },
      },
      null,
    ],
  ])('%s → %j', (_name, storage, source) => {
    expect(storedSource(storage)).toBe(source);
    expect(applyUrl({ path: '/apply', amountParam: 'requested_amount' }, { source: storedSource(storage) })).toBe(`/apply?v1=${source ?? 'landing-page'}`);
  });
});
