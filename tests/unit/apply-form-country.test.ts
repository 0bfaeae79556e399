/**
 * The application form in Canada and Australia: field rules and the body per country, the
 * province gate, the consent wording, back/forward between steps, what a reload keeps (never
 * the date of birth or the income), and the validator refusing a brand whose form does not fit
 * its country.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formReducer, initialFormState, type FormAction, type FormState } from '../../blocks/applyForm/formState';
import { keptValues, readStored, SESSION_KEY, stepOfHistoryState, writeStored } from '../../blocks/applyForm/persist';
import { placeOfPostalCode } from '../../blocks/applyForm/zip';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { consentText, CONSENT_VERSION_OF } from '../../engine/site/consent';
import { EMPTY_VALUES, fieldError, leadRequestBody, type ApplyFormValues } from '../../engine/browser/formRules';
import { regionUnavailableReason } from '../../engine/geo/servedPlaces';
import { aprFigures } from '../../engine/site/brandChecks/countryForm';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DateOfBirthField } from '../../blocks/applyForm/Fields';
import { IncomeStep } from '../../blocks/applyForm/LaterSteps';
import { DATE_WORDS } from '../../engine/browser/regions';

const today = new Date('2026-11-23T12:00:00Z');
const filled = (country: 'CA' | 'AU'): ApplyFormValues => ({
  ...EMPTY_VALUES,
  amount: '1,500',
  zip: country === 'CA' ? 'm5v2t6' : '2000',
  firstName: 'Ana',
  lastName: 'Roy',
  email: 'ana@example.org',
  phone: country === 'CA' ? '(416) 555-0187' : '+61 412 345 678',
  incomeSource: 'employment',
  monthlyIncome: '3,100',
  payFrequency: 'biweekly',
  dobMonth: '4',
  dobDay: '2',
  dobYear: '1990',
  consent: true,
});

describe('field rules per country', () => {
  it('Canada: a postal code, either case, space optional; a US ZIP is refused with the Canadian example', () => {
    const v = filled('CA');
    expect(fieldError('zip', v, today, 'CA')).toBeUndefined();
    expect(fieldError('zip', { ...v, zip: 'M5V 2T6' }, today, 'CA')).toBeUndefined();
    expect(fieldError('zip', { ...v, zip: '78701' }, today, 'CA')).toMatch(/postal code.*M5V 2T6/);
    expect(fieldError('phone', { ...v, phone: '0412 345 678' }, today, 'CA')).toMatch(/Canadian phone number/);
  });
  it('Australia: a 4-digit postcode and an Australian mobile', () => {
    const v = filled('AU');
    expect(fieldError('zip', v, today, 'AU')).toBeUndefined();
    expect(fieldError('zip', { ...v, zip: '20000' }, today, 'AU')).toMatch(/4-digit postcode/);
    expect(fieldError('phone', v, today, 'AU')).toBeUndefined();
    expect(fieldError('phone', { ...v, phone: '(02) 5550 0148' }, today, 'AU')).toMatch(/Australian mobile/);
  });
  it('the body carries the country, the postal code and the phone as the server stores them', () => {
    const ctx = { kind: 'general' as const, idempotencyKey: 'k'.repeat(20), tracking: { source: 'landing-page' } };
    expect(leadRequestBody(filled('CA'), { ...ctx, consentVersion: CONSENT_VERSION_OF.CA, country: 'CA' })).toMatchObject({
      country: 'CA',
      zip: 'M5V 2T6',
      phone: '4165550187',
      amount: 1500,
      consent: { accepted: true, version: 'casl-2026-11' },
    });
    expect(leadRequestBody(filled('AU'), { ...ctx, consentVersion: CONSENT_VERSION_OF.AU, country: 'AU' })).toMatchObject({
      country: 'AU',
      zip: '2000',
      phone: '0412345678',
    });
  });
});

describe('the date of birth in the order the country writes a date', () => {
  const labelsInOrder = (country: 'US' | 'CA' | 'AU') => {
    const html = renderToStaticMarkup(
      createElement(DateOfBirthField, {
        id: 'dob',
        month: '3',
        day: '27',
        year: '1990',
        onChange: () => {},
        onBlur: () => {},
        dateWords: DATE_WORDS[country],
        minAge: 18,
      }),
    );
    return { labels: [...html.matchAll(/<label for="([^"]+)"[^>]*>(\w+)<\/label>/g)].map((m) => `${m[1]}:${m[2]}`), html };
  };
  it('Australia: day, month, year, with a day-first example; the group id on the day', () => {
    const { labels, html } = labelsInOrder('AU');
    expect(labels).toEqual(['dob:Day', 'dob-dobMonth:Month', 'dob-dobYear:Year']);
    expect(html).toContain('For example 27 03 1990.');
  });
  it.each(['US', 'CA'] as const)('%s: month, day, year', (country) => {
    const { labels, html } = labelsInOrder(country);
    expect(labels).toEqual(['dob:Month', 'dob-dobDay:Day', 'dob-dobYear:Year']);
    expect(html).toContain('For example 03 27 1990.');
  });
  it('the error for a date that does not exist names the parts in the same order', () => {
    const v = { ...filled('AU'), dobDay: '30', dobMonth: '2' };
    expect(fieldError('dateOfBirth', v, today, 'AU')).toBe('Enter a real date of birth: day, month 1 to 12, and a 4-digit year');
    expect(fieldError('dateOfBirth', v, today, 'CA')).toBe('Enter a real date of birth: month 1 to 12, day, and a 4-digit year');
  });
});

describe('the age of majority of the province', () => {
  // 18 on the day of the request: of age in Ontario and Australia, not in British Columbia or the territories
  const eighteen = { dobDay: '2', dobMonth: '11', dobYear: '2008' };
  it.each([
    ['V6B 1A1', 'You must be 19 or older to request a loan in British Columbia'],
    ['X0A 0H0', 'You must be 19 or older to request a loan in Nunavut'],
    ['Y1A 1A1', 'You must be 19 or older to request a loan in Yukon'],
    ['M5V 2T6', undefined],
    ['T5J 0N3', undefined],
  ])('Canada, %s: %s', (zip, message) => {
    expect(fieldError('dateOfBirth', { ...filled('CA'), zip, ...eighteen }, today, 'CA')).toBe(message);
  });
  it('Australia: 18 everywhere', () => {
    expect(fieldError('dateOfBirth', { ...filled('AU'), zip: '0800', ...eighteen }, today, 'AU')).toBeUndefined();
  });
  it('the hint under the date of birth gives the age where the borrower lives', () => {
    const income = (zip: string) =>
      renderToStaticMarkup(
        createElement(IncomeStep, {
          values: { ...filled('CA'), zip },
          errors: {},
          idOf: (f: string) => `f-${f}`,
          change: () => {},
          blur: () => {},
          consentText: 'I agree',
          notices: [],
          country: 'CA',
        }),
      );
    expect(income('V6B 1A1')).toContain('You must be 19 or older.');
    expect(income('M5V 2T6')).toContain('You must be 18 or older.');
  });
});

describe('the province gate', () => {
  const unavailable = [{ code: 'qc', name: 'Quebec', reason: regionUnavailableReason('CA', { code: 'QC', name: 'Quebec' }, 'WeLoans')! }];
  const run = (zip: string) => {
    let s: FormState = initialFormState('general', '1,000', 'CA');
    s = formReducer(s, { type: 'change', field: 'zip', value: zip, today });
    s = formReducer(s, { type: 'place', zip, place: placeOfPostalCode(zip, 'CA') });
    return formReducer(s, { type: 'next', today, unavailable });
  };
  it('a Quebec postal code stops before the contact step, with the reason', () => {
    const s = run('H2X 1Y4');
    expect(s.screen).toBe('unavailable');
    expect(s.gate?.stateName).toBe('Quebec');
    expect(s.gate?.reason).toMatch(/WeLoans cannot connect borrowers in Quebec/);
  });
  it('a postal code of the right shape that no province has is refused on step 1, in the words of the lead API', () => {
    const s = run('x0z 1a1');
    expect(s.screen).toBe('request');
    expect(s.errors.zip).toBe('We could not find postal code X0Z 1A1 in a Canadian province or territory; check it and try again');
  });
  it('Australia: a postcode of no state (0000, Norfolk Island 2899) is refused on step 1; 0800 is the Northern Territory', () => {
    const au = (zip: string) => {
      let s: FormState = initialFormState('general', '1,000', 'AU');
      s = formReducer(s, { type: 'change', field: 'zip', value: zip, today });
      s = formReducer(s, { type: 'place', zip, place: placeOfPostalCode(zip, 'AU') });
      return formReducer(s, { type: 'next', today, unavailable: [] });
    };
    expect(au('0000').errors.zip).toBe('We could not find postcode 0000 in an Australian state or territory; check it and try again');
    expect(au('2899').screen).toBe('request');
    expect(au('0800').screen).toBe('contact');
  });
  it('an Ontario postal code goes on', () => {
    expect(run('M5V 2T6').screen).toBe('contact');
    expect(placeOfPostalCode('m5v2t6', 'CA')).toEqual({ city: '', stateCode: 'on', stateName: 'Ontario' });
  });
});

describe('consent wording per country', () => {
  const party = { name: 'WeLoans', address: '240 Richmond Street West, Toronto, ON M5V 1V6', telephone: '+1-416-555-0187', email: 'support@weloans.ca' };
  it('Canada (CASL): express consent, who asks (name, address, contact) and how to unsubscribe', () => {
    const text = consentText(CONSENT_VERSION_OF.CA, party);
    for (const part of ['express consent', 'sought by WeLoans', '240 Richmond Street West', 'support@weloans.ca', 'unsubscribe', 'withdraw'])
      expect(text).toContain(part);
  });
  it('Australia: the collection notice, licensed lenders, unsubscribe', () => {
    const text = consentText(CONSENT_VERSION_OF.AU, { ...party, name: 'Fast Loans Australia' });
    for (const part of ['collection notice', 'Australian Credit Licence', 'unsubscribe']) expect(text).toContain(part);
  });
});

describe('back and forward between steps', () => {
  const s0: FormState = { ...initialFormState('general', '1,000', 'CA'), values: filled('CA') };
  const goto = (screen: 'request' | 'contact' | 'income'): FormAction => ({ type: 'goto', screen, today });
  it('back is always allowed; forward only past complete steps', () => {
    const onIncome = formReducer(s0, goto('income'));
    expect(onIncome.screen).toBe('income');
    expect(formReducer(onIncome, goto('contact')).screen).toBe('contact');
    const emptied = { ...s0, values: { ...s0.values, email: '' } };
    expect(formReducer(emptied, goto('income')).screen).toBe('request');
    expect(formReducer(emptied, goto('contact')).screen).toBe('contact');
  });
  it('the thank-you step stays', () => {
    expect(formReducer({ ...s0, screen: 'sent' }, goto('income')).screen).toBe('sent');
  });
  it('history entries name their step; other states name none', () => {
    expect(stepOfHistoryState({ __N: true, loansitesFormStep: 'contact' })).toBe('contact');
    expect(stepOfHistoryState({ __N: true })).toBeUndefined();
    expect(stepOfHistoryState(null)).toBeUndefined();
  });
});

describe('what a reload keeps', () => {
  it('the earlier steps, never the date of birth, the income or the consent', () => {
    const saved = new Map<string, string>();
    const store = { setItem: (k: string, v: string) => saved.set(k, v), getItem: (k: string) => saved.get(k) ?? null };
    const v = filled('CA');
    writeStored(store, { amount: v.amount, zip: v.zip, queryAmount: null, kept: keptValues({ ...v, website: 'bot' }) });
    const raw = saved.get(SESSION_KEY)!;
    for (const secret of ['1990', '3,100', 'monthlyIncome', 'dob', 'consent', 'bot']) expect(raw).not.toContain(secret);
    expect(readStored(store)).toEqual({
      amount: '1,500',
      zip: 'm5v2t6',
      queryAmount: null,
      kept: { firstName: 'Ana', lastName: 'Roy', email: 'ana@example.org', phone: '(416) 555-0187', incomeSource: 'employment', payFrequency: 'biweekly' },
    });
    // even a tampered entry gives back only the kept fields
    saved.set(SESSION_KEY, JSON.stringify({ amount: '1', zip: '2000', kept: { dobYear: '1990', monthlyIncome: '9', email: 'x@y.zz' } }));
    expect(readStored(store)?.kept).toEqual({ email: 'x@y.zz' });
  });
});

describe('the validator refuses a brand whose form does not fit its country', () => {
  const brandText = (id: string) => readFileSync(join(process.cwd(), 'brands', `${id}.json`), 'utf8');
  const { layouts } = readSources();
  const problemsOf = (id: string, text: string) => buildCatalog([{ file: `brands/${id}.json`, text }], layouts, BLOCK_SPECS).problems;
  it('WeLoans and Fast Loans Australia as they are: no problems', () => {
    expect(problemsOf('weloans', brandText('weloans'))).toEqual([]);
    expect(problemsOf('fastloansau', brandText('fastloansau'))).toEqual([]);
  });
  it('a Canadian example above the 35% APR cap', () => {
    const text = brandText('weloans').replace('at 34.99% APR', 'at 35.99% APR');
    expect(problemsOf('weloans', text).join('\n')).toMatch(
      /brands\/weloans\.json:\d+:\d+ \/lending\/representativeExample: states 35\.99% APR: above Canada's criminal rate cap of 35% APR/,
    );
  });
  it('a Canadian brand in US dollars', () => {
    expect(problemsOf('weloans', brandText('weloans').replace('"currency": "CAD"', '"currency": "USD"')).join('\n')).toMatch(/\/currency: .*CAD, not USD/);
  });
  it('an Australian brand without its credit licence statement', () => {
    const text = brandText('fastloansau').replace(/,\s*"creditLicence": "[^"]*"/, '');
    expect(problemsOf('fastloansau', text).join('\n')).toMatch(/\/lending: .*creditLicence/);
  });
  it('an Australian comparison rate without the whole warning the law puts beside it', () => {
    const text = brandText('fastloansau').replace(' Different terms, fees or other loan amounts might result in a different comparison rate.', '');
    expect(problemsOf('fastloansau', text).join('\n')).toMatch(
      /brands\/fastloansau\.json:\d+:\d+ \/lending\/representativeExample: an Australian example that states a comparison rate carries its whole warning: "WARNING: This comparison rate is true only for the example given and may not include all fees and charges\. Different terms, fees or other loan amounts might result in a different comparison rate\."/,
    );
  });
  it('a US location page on a Canadian brand', () => {
    const brand = JSON.parse(brandText('weloans')) as { routes: unknown[] };
    brand.routes.push({ path: '/payday-loans/{state}', layout: 'general-personal-loans-state' });
    expect(problemsOf('weloans', JSON.stringify(brand, null, 2)).join('\n')).toMatch(
      /brands\/weloans\.json:\d+:\d+ \/routes\/\d+\/path: \{state\} names a US state; brand "weloans" is in CA, and location pages are for US brands only/,
    );
  });
  it('reads APR figures in the usual wordings', () => {
    expect(aprFigures('at 34.99% APR … an APR of 46% … 5.99 % APR')).toEqual([34.99, 5.99, 46]);
  });
});
