/** The application form's rules (engine/browser/formRules.ts), its step reducer and its small browser-free helpers, as tables. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  amountFromQuery,
  amountText,
  dateOfBirthOf,
  EMPTY_VALUES,
  fieldError,
  fieldOfProblem,
  isEmail,
  isZip,
  leadRequestBody,
  normalisePhone,
  stepErrors,
  stepOfField,
  type ApplyFormValues,
  type FieldKey,
} from '../../engine/browser/formRules';
import { formReducer, initialFormState, type FormAction, type FormState } from '../../blocks/applyForm/formState';
import { initialRequest, readStored } from '../../blocks/applyForm/persist';
import { newIdempotencyKey, outcomeOf } from '../../blocks/applyForm/send';
import { readApplySource } from '../../blocks/applyForm/tracking';
import { lookedUpState, placeOfFeatureCollection, UNKNOWN_ZIP } from '../../blocks/applyForm/zip';
import { IncomeStep } from '../../blocks/applyForm/LaterSteps';
import { minAgeIn, tooYoungMessage } from '../../engine/browser/age';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { parseJsonBody } from '../../engine/http/api';

const today = new Date('2026-11-23T12:00:00Z');
const filled: ApplyFormValues = {
  ...EMPTY_VALUES,
  amount: '2,500',
  zip: '78701',
  purpose: 'Auto Repair',
  vehicleYear: '2016',
  vehicleMake: 'Toyota',
  vehicleModel: 'Camry',
  vehicleMileage: '85,000',
  firstName: ' Ana ',
  lastName: 'García',
  email: 'ana@example.com',
  phone: '(512) 555-0123',
  incomeSource: 'employment',
  monthlyIncome: '2,800',
  payFrequency: 'biweekly',
  dobMonth: '3',
  dobDay: '27',
  dobYear: '1990',
  consent: true,
};

describe('field rules', () => {
  it.each([
    ['(512) 555-0123', '5125550123'],
    ['512-555-0123', '5125550123'],
    ['512.555.0123', '5125550123'],
    ['+1 512 555 0123', '5125550123'],
    ['15125550123', '5125550123'],
    ['5125550123', '5125550123'],
    ['012 555 0123', undefined],
    ['512 055 0123', undefined],
    ['555-0123', undefined],
    ['512555012a', undefined],
    ['', undefined],
    ['25125550123', undefined],
    ['(٥١٢) ٥٥٥-٠١٢٣', '5125550123'],
    ['５１２-555-0123', '5125550123'],
  ])('normalisePhone(%j) → %j', (input, out) => expect(normalisePhone(input)).toBe(out));

  it.each([
    ['ana@example.com', true],
    [' ana@example.com ', true],
    ['a@b.co', true],
    ['a@b.c', false],
    ['ana@example', false],
    ['ana example@x.com', false],
    ['', false],
    [`${'a'.repeat(115)}@x.com`, false],
  ])('isEmail(%j) → %j', (input, out) => expect(isEmail(input)).toBe(out));

  it.each([
    ['78701', true],
    [' 78701 ', true],
    ['7870', false],
    ['787011', false],
    ['7870a', false],
    ['', false],
  ])('isZip(%j) → %j', (input, out) => expect(isZip(input)).toBe(out));

  it.each([
    ['?requested_amount=2500', 'requested_amount', 2500],
    ['?v1=landing-page&requested_amount=2500', 'requested_amount', 2500],
    ['?requestedamount=777', 'requestedamount', 777],
    ['?requested_amount=50', 'requested_amount', 100],
    ['?requested_amount=99999', 'requested_amount', 35000],
    ['?requested_amount=1,500', 'requested_amount', 1500],
    ['?requested_amount=abc', 'requested_amount', null],
    ['?requested_amount=', 'requested_amount', null],
    ['', 'requested_amount', null],
    ['?requestedamount=2500', 'requested_amount', null],
    ['?requested_amount=999.6', 'requested_amount', 1000],
  ])('amountFromQuery(%j, %j) → %j', (search, param, out) => expect(amountFromQuery(search, param)).toBe(out));

  it.each([
    [2500, '2,500'],
    [35000, '35,000'],
    [100, '100'],
    ['2500', '2,500'],
    ['$2,500', '2,500'],
    ['25x', '25x'],
  ])('amountText(%j) → %j', (input, out) => expect(amountText(input)).toBe(out));

  it.each([
    [{ dobMonth: '3', dobDay: '7', dobYear: '1990' }, '1990-03-07'],
    [{ dobMonth: '12', dobDay: '31', dobYear: '2000' }, '2000-12-31'],
    [{ dobMonth: '', dobDay: '7', dobYear: '1990' }, undefined],
    [{ dobMonth: '3', dobDay: '7', dobYear: '90' }, undefined],
  ])('dateOfBirthOf(%j) → %j', (parts, out) => expect(dateOfBirthOf(parts)).toBe(out));

  const cases: [FieldKey, Partial<ApplyFormValues>, string | undefined][] = [
    ['amount', { amount: '2,500' }, undefined],
    ['amount', { amount: '$1500' }, undefined],
    ['amount', { amount: '' }, 'Enter the amount you need'],
    ['amount', { amount: '99' }, 'Enter an amount from $100 to $35,000'],
    ['amount', { amount: '35,001' }, 'Enter an amount from $100 to $35,000'],
    ['amount', { amount: '12.50' }, 'Enter the amount in whole dollars, for example 1,500'],
    ['zip', { zip: '1234' }, 'Enter a 5-digit ZIP code, for example 78701'],
    ['zip', { zip: '10001' }, undefined],
    ['purpose', { purpose: '' }, 'Choose what the loan is for'],
    ['purpose', { purpose: 'Vacation' }, undefined],
    ['purpose', { purpose: 'Holiday' }, 'Choose what the loan is for'],
    ['vehicleYear', { vehicleYear: '1979' }, "Enter the vehicle's model year, from 1980 to 2027"],
    ['vehicleYear', { vehicleYear: '2027' }, undefined],
    ['vehicleYear', { vehicleYear: '2028' }, "Enter the vehicle's model year, from 1980 to 2027"],
    ['vehicleMake', { vehicleMake: '  ' }, "Enter the vehicle's make"],
    ['vehicleModel', { vehicleModel: 'x'.repeat(41) }, 'The model can be at most 40 characters'],
    ['vehicleMileage', { vehicleMileage: '' }, 'Enter the approximate mileage'],
    ['vehicleMileage', { vehicleMileage: '1,000,001' }, 'Enter the mileage as a whole number, for example 85,000'],
    ['firstName', { firstName: ' ' }, 'Enter your first name'],
    // the form drops the invisible characters a copy can carry: a zero-width space alone is an empty field
    ['firstName', { firstName: '\u200b' }, 'Enter your first name'],
    // what shows as blank though String.trim keeps it (the Hangul fillers, the braille blank) is an empty field too
    ['firstName', { firstName: '\u3164' }, 'Enter your first name'],
    ['firstName', { firstName: ' \uffa0\u2800 ' }, 'Enter your first name'],
    ['lastName', { lastName: '\u115f\u1160' }, 'Enter your last name'],
    ['firstName', { firstName: '김민준' }, undefined],
    ['firstName', { firstName: 'Ana\u202ezeL' }, undefined],
    ['firstName', { firstName: 'מרים' }, undefined],
    ['lastName', { lastName: 'الحسن' }, undefined],
    ['lastName', { lastName: 'مهر\u200cداد' }, undefined],
    ['firstName', { firstName: '1234' }, 'Write your first name in letters'],
    ['firstName', { firstName: 'Zoë' }, undefined],
    ['lastName', { lastName: "O'Brien-李" }, undefined],
    ['lastName', { lastName: 'x'.repeat(51) }, 'Your last name can be at most 50 characters'],
    ['email', { email: '' }, 'Enter your email address'],
    ['email', { email: 'ana@' }, 'Enter an email address like name@example.com'],
    ['email', { email: 'ana@example..org' }, 'Enter an email address like name@example.com'],
    ['email', { email: 'ana@example.org.' }, 'Enter an email address like name@example.com'],
    ['email', { email: 'ana,bo@example.org' }, 'Enter an email address like name@example.com'],
    ['email', { email: 'ana.garcia+loans@mail.example.co.uk' }, undefined],
    ['phone', { phone: '' }, 'Enter your mobile phone number'],
    ['phone', { phone: '123' }, 'Enter a 10-digit US phone number, for example (512) 555-0123'],
    ['phone', { phone: '(٥١٢) ٥٥٥-٠١٢٣' }, undefined],
    ['incomeSource', { incomeSource: 'lottery' }, 'Choose your main source of income'],
    ['incomeSource', { incomeSource: 'benefits' }, undefined],
    ['monthlyIncome', { monthlyIncome: '' }, 'Enter your monthly income after tax'],
    ['monthlyIncome', { monthlyIncome: '0' }, undefined],
    ['monthlyIncome', { monthlyIncome: '2800.50' }, 'Enter your monthly income in whole dollars, for example 2,800'],
    ['monthlyIncome', { monthlyIncome: '100,001' }, 'Enter a monthly income of $100,000 or less'],
    ['payFrequency', { payFrequency: '' }, 'Choose how often you are paid'],
    ['payFrequency', { payFrequency: 'semimonthly' }, undefined],
    ['dateOfBirth', { dobMonth: '', dobDay: '', dobYear: '' }, 'Enter your date of birth'],
    ['dateOfBirth', { dobMonth: '2', dobDay: '30', dobYear: '1990' }, 'Enter a real date of birth: month 1 to 12, day, and a 4-digit year'],
    ['dateOfBirth', { dobMonth: '13', dobDay: '1', dobYear: '1990' }, 'Enter a real date of birth: month 1 to 12, day, and a 4-digit year'],
    // 18 on the day: 2008-11-23 is 18 on 2026-11-23; a day later is 17.
    ['dateOfBirth', { dobMonth: '11', dobDay: '23', dobYear: '2008' }, undefined],
    ['dateOfBirth', { dobMonth: '11', dobDay: '24', dobYear: '2008' }, 'You must be 18 or older to request a loan'],
    ['dateOfBirth', { dobMonth: '1', dobDay: '1', dobYear: '2030' }, 'Enter a real date of birth: month 1 to 12, day, and a 4-digit year'],
    ['dateOfBirth', { dobMonth: '1', dobDay: '1', dobYear: '1890' }, 'Check the year of your date of birth'],
    ['consent', { consent: false }, 'Check the box to give your consent before you send your request'],
    ['consent', { consent: true }, undefined],
  ];
  it.each(cases)('%s with %j → %j', (field, change, message) => expect(fieldError(field, { ...filled, ...change }, today)).toBe(message));

  it('each step lists its required fields; title brands also ask for the purpose and the vehicle', () => {
    expect(Object.keys(stepErrors('request', 'general', EMPTY_VALUES, today))).toEqual(['amount', 'zip']);
    expect(Object.keys(stepErrors('request', 'title', EMPTY_VALUES, today))).toEqual([
      'amount',
      'zip',
      'purpose',
      'vehicleYear',
      'vehicleMake',
      'vehicleModel',
      'vehicleMileage',
    ]);
    expect(Object.keys(stepErrors('contact', 'general', EMPTY_VALUES, today))).toEqual(['firstName', 'lastName', 'email', 'phone']);
    expect(Object.keys(stepErrors('income', 'title', EMPTY_VALUES, today))).toEqual([
      'incomeSource',
      'monthlyIncome',
      'payFrequency',
      'dateOfBirth',
      'consent',
    ]);
    for (const step of ['request', 'contact', 'income'] as const) expect(stepErrors(step, 'title', filled, today)).toEqual({});
  });

  it.each([
    ['/phone: must match pattern', 'phone'],
    ['/vehicle/year: must be >= 1980', 'vehicleYear'],
    ['/vehicle: must have required property make', 'vehicleMake'],
    ['/dateOfBirth: must match pattern', 'dateOfBirth'],
    ['/consent/version: unknown', 'consent'],
    ['/tracking/clickId: bad', undefined],
    ['body: not JSON', undefined],
  ])('fieldOfProblem(%j) → %j', (problem, field) => expect(fieldOfProblem(problem)).toBe(field));

  it('stepOfField', () => {
    expect(stepOfField('vehicleYear', 'title')).toBe('request');
    expect(stepOfField('email', 'general')).toBe('contact');
    expect(stepOfField('consent', 'general')).toBe('income');
  });
});

describe('the request body matches schemas/api/lead.schema.json', () => {
  const schema = JSON.parse(readFileSync(join(process.cwd(), 'schemas/api/lead.schema.json'), 'utf8')) as object;
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  const ctx = {
    idempotencyKey: '0f8b2c4e-6a1d-4b8e-9c3f-2a7d5e1b9c04',
    consentVersion: 'tcpa-2026-11',
    tracking: { source: 'landing-page', source2: '', clickId: '', uuid: '' },
  };

  it('general: no purpose or vehicle; phone digits; dates and numbers typed as the schema says', () => {
    const body = leadRequestBody(filled, { ...ctx, kind: 'general' });
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toMatchObject({
      amount: 2500,
      zip: '78701',
      firstName: 'Ana',
      phone: '5125550123',
      monthlyIncome: 2800,
      dateOfBirth: '1990-03-27',
      consent: { accepted: true, version: 'tcpa-2026-11' },
      tracking: { source: 'landing-page' },
    });
    expect(body).not.toHaveProperty('purpose');
    expect(body).not.toHaveProperty('vehicle');
    expect(body).not.toHaveProperty('website');
  });

  it('names: the direction overrides, marks and zero-width spaces a paste can carry are dropped, the letters of any script kept', () => {
    const body = leadRequestBody(
      { ...filled, firstName: '\u200fמרים\u200f', lastName: 'Gar\u202eaicí\u202c \u2067Ruiz\u2069\u200b' },
      { ...ctx, kind: 'general' },
    );
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toMatchObject({ firstName: 'מרים', lastName: 'Garaicí Ruiz' });
    // what the form would never send, an API caller is refused
    expect(validate({ ...body, firstName: 'Ana\u202ezeL' })).toBe(false);
    expect(validate({ ...body, lastName: 'مهر\u200cداد' })).toBe(true);
    expect(leadRequestBody({ ...filled, firstName: '\u3164김민준\u3164' }, { ...ctx, kind: 'general' })).toMatchObject({ firstName: '김민준' });
    expect(validate({ ...body, firstName: '김민준' })).toBe(true);
    // a name of letters that show nothing: refused as a name without a letter is
    for (const blank of ['\u3164', '\u115f', '\u1160', '\uffa0', '\u3164\u2800']) expect(validate({ ...body, firstName: blank }), blank).toBe(false);
  });

  it('tracking from the URL and storage: control characters and halves of an emoji cut at a limit are left out, never the lead', () => {
    const body = leadRequestBody(filled, {
      ...ctx,
      kind: 'general',
      // v1 from the query, as given; source2 and the click id as an earlier script stored them
      tracking: { source: `spring\u0000${'a'.repeat(93)}\ud83d\ude00`, source2: '/p\u001b[31m', clickId: 'ggG\r\n1', uuid: '' },
    });
    expect(body.tracking).toEqual({ source: `spring${'a'.repeat(93)}`, source2: '/p[31m', clickId: 'ggG1' });
    // the route's own check: JSON, no NUL or lone surrogate, the schema
    expect(() => parseJsonBody(Buffer.from(JSON.stringify(body)), schema)).not.toThrow();
    // a click id of control characters only is left out, not sent as a bare prefix
    expect(leadRequestBody(filled, { ...ctx, kind: 'general', tracking: { source: '\u0001', clickId: 'gg\u0000' } }).tracking).toEqual({
      source: 'landing-page',
    });
  });

  it('title: purpose and vehicle; the honeypot goes along when a bot filled it', () => {
    const body = leadRequestBody(
      { ...filled, website: 'spam.example' },
      { ...ctx, kind: 'title', tracking: { source: 'mailer', clickId: 'ggabc', uuid: `cc${'a'.repeat(32)}` } },
    );
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toMatchObject({
      purpose: 'Auto Repair',
      vehicle: { year: 2016, make: 'Toyota', model: 'Camry', mileage: 85000 },
      website: 'spam.example',
      tracking: { source: 'mailer', clickId: 'ggabc' },
    });
  });
});

describe('step reducer (copy-on-write, immer style)', () => {
  const unavailable = [{ code: 'ny', name: 'New York', reason: 'Brand cannot connect borrowers in New York with a lender.' }];
  const run = (state: FormState, ...actions: FormAction[]) => actions.reduce(formReducer, state);
  const type = (field: keyof ApplyFormValues, value: string | boolean): FormAction => ({ type: 'change', field, value, today });
  const next: FormAction = { type: 'next', today, unavailable };
  const austin = { city: 'Austin', stateCode: 'tx', stateName: 'Texas' };

  it('Continue with errors stays on the step and shows them; the state is not mutated', () => {
    const start = initialFormState('general', '1,000');
    const after = run(start, type('zip', '12'), next);
    expect(after.screen).toBe('request');
    expect(after.errors).toEqual({ zip: 'Enter a 5-digit ZIP code, for example 78701' });
    expect(after.showSummary).toBe(true);
    expect(start.values.zip).toBe('');
  });

  it('an edit leaves the earlier state, its values and errors as they were; an action that changes nothing returns the same state', () => {
    const shown = run(initialFormState('general', '1,000'), type('zip', '12'), next);
    const fixed = run(shown, type('zip', '78701'));
    expect(shown.values.zip).toBe('12');
    expect(shown.errors.zip).toBeDefined();
    expect(fixed.errors.zip).toBeUndefined();
    expect(fixed.values).not.toBe(shown.values);
    // nothing typed, nothing shown: React skips the render
    const start = initialFormState('general', '1,000');
    expect(run(start, { type: 'blur', field: 'zip', today })).toBe(start);
    expect(run(start, { type: 'back' })).toBe(start);
  });

  it('an error shown goes away as the field is fixed; blur on an empty field waits for Continue', () => {
    let s = run(initialFormState('general', '1,000'), type('zip', '12'), next);
    s = run(s, type('zip', '78701'));
    expect(s.errors).toEqual({});
    expect(s.showSummary).toBe(false);
    expect(run(initialFormState('general', '1,000'), { type: 'blur', field: 'zip', today }).errors).toEqual({});
    expect(run(initialFormState('general', '1,000'), type('zip', '7'), { type: 'blur', field: 'zip', today }).errors.zip).toBeDefined();
  });

  it('next and back keep every value', () => {
    let s = run(initialFormState('general', '2,500'), type('zip', '78701'), { type: 'place', zip: '78701', place: austin }, next);
    expect(s.screen).toBe('contact');
    s = run(s, type('firstName', 'Ana'), type('email', 'ana@example.com'), { type: 'back' });
    expect(s.screen).toBe('request');
    expect(s.values).toMatchObject({ amount: '2,500', zip: '78701', firstName: 'Ana', email: 'ana@example.com' });
    s = run(s, next);
    expect(s.screen).toBe('contact');
    expect(s.values.firstName).toBe('Ana');
  });

  it('state gate: a ZIP in an unavailable state never reaches the contact step', () => {
    const ny = { city: 'New York', stateCode: 'ny', stateName: 'New York' };
    let s = run(initialFormState('general', '1,000'), type('zip', '10001'), { type: 'place', zip: '10001', place: ny }, next);
    expect(s.screen).toBe('unavailable');
    expect(s.gate).toEqual({ stateName: 'New York', reason: unavailable[0]!.reason });
    s = run(s, next);
    expect(s.screen).toBe('unavailable');
    s = run(s, { type: 'back' });
    expect(s.screen).toBe('request');
    expect(s.values.zip).toBe('10001');
    // a lookup for another ZIP (or none: failed lookup) lets the visitor on; the server decides
    expect(run(initialFormState('general', '1,000'), type('zip', '78701'), { type: 'place', zip: '10001', place: ny }, next).screen).toBe('contact');
    expect(run(initialFormState('general', '1,000'), type('zip', '10001'), { type: 'place', zip: '10001', place: null }, next).screen).toBe('contact');
  });

  it('a ZIP code the geocoder does not know is refused on step 1 (not by the server after the last step); a new ZIP clears it', () => {
    const refused = run(initialFormState('general', '1,000'), type('zip', '00000'), { type: 'place', zip: '00000', place: UNKNOWN_ZIP }, next);
    expect(refused.screen).toBe('request');
    expect(refused.errors).toEqual({ zip: 'We could not find ZIP code 00000; check it and try again' });
    expect(refused.showSummary).toBe(true);
    // leaving the field unchanged keeps the message; another ZIP takes it away
    expect(run(refused, { type: 'blur', field: 'zip', today }).errors.zip).toBe('We could not find ZIP code 00000; check it and try again');
    const fixed = run(refused, type('zip', '78701'));
    expect(fixed.errors).toEqual({});
    expect(run(fixed, { type: 'place', zip: '78701', place: austin }, next).screen).toBe('contact');
  });

  it('sending: received → thank-you; retry keeps the answers and the step; 400 problems go to their fields', () => {
    const atIncome: FormState = { ...initialFormState('general', '1,000'), screen: 'income', values: filled };
    expect(run(atIncome, { type: 'sending' }).sending).toBe(true);
    const sent = run(atIncome, { type: 'sending' }, { type: 'sent', outcome: { kind: 'received', id: 'lead-1' } });
    expect(sent).toMatchObject({ screen: 'sent', receiptId: 'lead-1', sending: false });
    expect(sent.receivedEarlier).toBeUndefined();
    // a request sent before was taken (its answer lost): the thank-you step follows that one, and says so
    const earlier = run(atIncome, { type: 'sending' }, { type: 'sent', outcome: { kind: 'received', id: 'lead-1', saleToken: 'lead-1.t', earlier: true } });
    expect(earlier).toMatchObject({ screen: 'sent', receiptId: 'lead-1', saleToken: 'lead-1.t', receivedEarlier: true, sending: false });
    expect(earlier.notice).toBeUndefined();
    const retry = run(atIncome, { type: 'sending' }, { type: 'sent', outcome: { kind: 'retry', message: 'again' } });
    expect(retry).toMatchObject({ screen: 'income', sending: false, notice: { kind: 'retry', message: 'again' }, values: filled });
    const invalid = run(atIncome, { type: 'sent', outcome: { kind: 'invalid', message: 'Check', problems: ['/phone: must match pattern'] } });
    expect(invalid.screen).toBe('contact');
    expect(invalid.errors).toEqual({ phone: 'Please check this answer (must match pattern)' });
    expect(invalid.notice).toEqual({ kind: 'invalid', message: 'Check' });
  });
});

describe('browser helpers', () => {
  it.each([
    [201, { id: 'a', status: 'received' }, null, { kind: 'received', id: 'a' }],
    [200, { id: 'a', status: 'received' }, null, { kind: 'received', id: 'a' }],
    [202, { status: 'received' }, null, { kind: 'received' }],
    [400, { error: 'Invalid body', problems: ['/zip: bad'] }, null, { kind: 'invalid', message: 'Invalid body', problems: ['/zip: bad'] }],
    [422, { error: 'Not in New York' }, null, { kind: 'refused', message: 'Not in New York' }],
    [429, {}, '30', { kind: 'retry', message: 'Too many requests came from your connection. Please wait 30 seconds, then try again — your answers are kept.' }],
    [
      429,
      {},
      '600',
      { kind: 'retry', message: 'Too many requests came from your connection. Please wait 10 minutes, then try again — your answers are kept.' },
    ],
    // the form's key was taken by a request sent before (its answer lost): that request, named, is what the form follows
    [
      409,
      { error: 'This idempotency key was already used for a different request (lead a)…', id: 'a', saleToken: 'a.t', certificateUrl: '/certificate/ct_1' },
      null,
      { kind: 'received', id: 'a', saleToken: 'a.t', certificateUrl: '/certificate/ct_1', earlier: true },
    ],
    [409, { error: 'already used', certificateUrl: 'https://elsewhere.example/c' }, null, { kind: 'received', earlier: true }],
    [413, null, null, { kind: 'retry', message: "We couldn't send your request. Your answers are kept — please try again." }],
    [503, null, null, { kind: 'retry', message: "We couldn't send your request. Your answers are kept — please try again." }],
  ])('outcomeOf(%j, %j, %j)', (status, body, retryAfter, out) => expect(outcomeOf(status, body, retryAfter)).toEqual(out));

  it('idempotency keys: randomUUID, or getRandomValues without it; both match the schema', () => {
    const pattern = /^[A-Za-z0-9-]{16,64}$/;
    expect(newIdempotencyKey()).toMatch(pattern);
    const noUuid = {
      getRandomValues: <T extends ArrayBufferView | null>(a: T) => globalThis.crypto.getRandomValues(a as unknown as Uint8Array) as unknown as T,
    };
    const key = newIdempotencyKey(noUuid as Crypto);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey(noUuid as Crypto)).not.toBe(key);
  });

  it('session storage: a reload keeps amount and ZIP; a new query amount wins', () => {
    const store = (v: unknown) => ({ getItem: () => JSON.stringify(v) });
    expect(initialRequest(2500, readStored(store({ amount: '3,000', zip: '78701', queryAmount: 2500 })), '1,000')).toEqual({ amount: '3,000', zip: '78701' });
    expect(initialRequest(500, readStored(store({ amount: '3,000', zip: '78701', queryAmount: 2500 })), '1,000')).toEqual({ amount: '500', zip: '78701' });
    expect(initialRequest(null, readStored(store({ amount: '3,000', zip: '78701', queryAmount: 2500 })), '1,000')).toEqual({ amount: '3,000', zip: '78701' });
    expect(initialRequest(2500, undefined, '1,000')).toEqual({ amount: '2,500', zip: '' });
    expect(initialRequest(null, undefined, '1,000')).toEqual({ amount: '1,000', zip: '' });
    expect(readStored({ getItem: () => 'not json' })).toBeUndefined();
    expect(
      readStored({
        getItem: () => {
          throw new Error('blocked');
        },
      }),
    ).toBeUndefined();
  });

  it('v1: the query, else LoansSource1, else landing-page', () => {
    const stored = (v: string | null) => ({ getItem: () => v });
    expect(readApplySource('?v1=spring', stored('mailer'))).toBe('spring');
    expect(readApplySource('', stored('mailer'))).toBe('mailer');
    expect(readApplySource('?v1=', stored(null))).toBe('landing-page');
    expect(readApplySource('', undefined)).toBe('landing-page');
  });

  it('geocoder v5 answer → city and state', () => {
    const fc = {
      type: 'FeatureCollection',
      features: [
        {
          text: '78701',
          context: [
            { id: 'place.1', text: 'Austin' },
            { id: 'region.2', short_code: 'US-TX', text: 'Texas' },
          ],
        },
      ],
    };
    expect(placeOfFeatureCollection(fc, '78701')).toEqual({ city: 'Austin', stateCode: 'tx', stateName: 'Texas' });
    // an answer without this ZIP: no such ZIP; no answer at all: the lookup failed (the server decides)
    expect(placeOfFeatureCollection(fc, '78702')).toBe(UNKNOWN_ZIP);
    expect(placeOfFeatureCollection({ features: [] }, '78701')).toBe(UNKNOWN_ZIP);
    expect(placeOfFeatureCollection(null, '78701')).toBeNull();
    expect(placeOfFeatureCollection({ message: 'Not Authorized' }, '78701')).toBeNull();
  });
});

describe('the age of majority of the ZIP’s state', () => {
  it.each([
    ['US', 'AL', 19],
    ['US', 'al', 19],
    ['US', 'NE', 19],
    ['US', 'MS', 21],
    ['US', 'ms', 21],
    ['US', 'TX', 18],
    ['US', 'CA', 18],
    ['US', undefined, 18],
    ['CA', 'BC', 19],
    ['CA', 'ON', 18],
    // Alabama's code in another country is not Alabama
    ['CA', 'AL', 18],
    ['AU', 'NT', 18],
  ] as const)('minAgeIn(%s, %s) = %i', (country, region, age) => expect(minAgeIn(country, region)).toBe(age));

  it('the message names the state where the age is not 18', () => {
    expect(tooYoungMessage(19, 'Alabama')).toBe('You must be 19 or older to request a loan in Alabama');
    expect(tooYoungMessage(21, 'Mississippi')).toBe('You must be 21 or older to request a loan in Mississippi');
    expect(tooYoungMessage(18, 'Texas')).toBe('You must be 18 or older to request a loan');
  });

  // 18 on 2026-11-23 (born 2008-11-23), and 20 (born 2006-11-23)
  const eighteen = { ...filled, dobMonth: '11', dobDay: '23', dobYear: '2008' };
  const twenty = { ...eighteen, dobYear: '2006' };
  const birmingham = { city: 'Birmingham', stateCode: 'al', stateName: 'Alabama' };
  const jackson = { city: 'Jackson', stateCode: 'ms', stateName: 'Mississippi' };
  const austin = { city: 'Austin', stateCode: 'tx', stateName: 'Texas' };
  const atIncome = (values: ApplyFormValues, place: FormState['place']): FormState => ({
    ...initialFormState('general', '1,000'),
    screen: 'income',
    values,
    place,
  });

  it('once step 1 has found the ZIP’s state, the date of birth is held to its age', () => {
    const blurred = (values: ApplyFormValues, place: FormState['place']) =>
      formReducer(atIncome(values, place), { type: 'blur', field: 'dateOfBirth', today }).errors.dateOfBirth;
    expect(blurred({ ...eighteen, zip: '35203' }, { zip: '35203', place: birmingham })).toBe('You must be 19 or older to request a loan in Alabama');
    expect(blurred({ ...twenty, zip: '39201' }, { zip: '39201', place: jackson })).toBe('You must be 21 or older to request a loan in Mississippi');
    expect(blurred({ ...twenty, dobYear: '2005', zip: '39201' }, { zip: '39201', place: jackson })).toBeUndefined();
    expect(blurred({ ...eighteen, zip: '78701' }, { zip: '78701', place: austin })).toBeUndefined();
    // a lookup that failed, or one for a ZIP changed since: 18, and the server decides
    expect(blurred({ ...eighteen, zip: '35203' }, { zip: '35203', place: null })).toBeUndefined();
    expect(blurred({ ...eighteen, zip: '78701' }, { zip: '35203', place: birmingham })).toBeUndefined();
    // Submit checks the same
    const submitted = formReducer(atIncome({ ...eighteen, zip: '35203' }, { zip: '35203', place: birmingham }), { type: 'next', today, unavailable: [] });
    expect(submitted.errors).toEqual({ dateOfBirth: 'You must be 19 or older to request a loan in Alabama' });
    expect(stepErrors('income', 'general', eighteen, today, 'US', lookedUpState({ zip: '35203', place: birmingham }, '35203', 'US'))).toEqual({
      dateOfBirth: 'You must be 19 or older to request a loan in Alabama',
    });
  });

  it('the hint under the date of birth gives the age of the state found', () => {
    const income = (zip: string, place: FormState['place']) =>
      renderToStaticMarkup(
        createElement(IncomeStep, {
          values: { ...filled, zip },
          errors: {},
          idOf: (f: string) => `f-${f}`,
          change: () => {},
          blur: () => {},
          consentText: 'I agree',
          notices: [],
          country: 'US',
          usState: lookedUpState(place, zip, 'US'),
        }),
      );
    expect(income('35203', { zip: '35203', place: birmingham })).toContain('You must be 19 or older.');
    expect(income('39201', { zip: '39201', place: jackson })).toContain('You must be 21 or older.');
    expect(income('78701', { zip: '78701', place: austin })).toContain('You must be 18 or older.');
    expect(income('35203', undefined)).toContain('You must be 18 or older.');
  });
});

describe('the form and the lead API agree', () => {
  it('on what an email address and a name are: the schema checks with the form’s own patterns', async () => {
    const { EMAIL_PATTERN, NAME_PATTERN } = await import('../../engine/browser/formRules');
    const schema = (await import('../../schemas/api/lead.schema.json', { with: { type: 'json' } })).default as {
      properties: Record<string, { pattern?: string }>;
    };
    expect(schema.properties.email!.pattern).toBe(EMAIL_PATTERN);
    expect(schema.properties.firstName!.pattern).toBe(NAME_PATTERN);
    expect(schema.properties.lastName!.pattern).toBe(NAME_PATTERN);
  });
});

describe('the name rule, character by character', () => {
  // The rule in words: no control or formatting character other than the two joiners, and at
  // least one letter that is drawn (not a Hangul filler). The pattern is written so that it never
  // backtracks over the whole name (a long name ending in a refused character would otherwise cost
  // seconds of the server's time); this checks that it still says exactly what the words say.
  const FILLERS = new Set(['\u115F', '\u1160', '\u3164', '\uFFA0']);
  const allowed = (c: string) => c === '\u200C' || c === '\u200D' || !/[\p{Cc}\p{Cf}]/u.test(c);
  const inWords = (name: string) => [...name].every(allowed) && [...name].some((c) => /\p{L}/u.test(c) && !FILLERS.has(c));

  it('accepts and refuses what the rule in words does, over every short mix of the characters that matter', async () => {
    const { NAME_PATTERN } = await import('../../engine/browser/formRules');
    const re = new RegExp(NAME_PATTERN, 'u');
    const alphabet = ['a', 'é', '김', 'ب', '\u3164', '\uFFA0', '\u200C', '\u200D', '\u202E', '\u200B', '\u0000', '\n', ' ', '-', "'", '1', '\u2800'];
    let checked = 0;
    const walk = (prefix: string, depth: number) => {
      expect(re.test(prefix), JSON.stringify(prefix)).toBe(inWords(prefix));
      checked++;
      if (depth === 0) return;
      for (const c of alphabet) walk(prefix + c, depth - 1);
    };
    walk('', 4);
    expect(checked).toBe(1 + 17 + 17 ** 2 + 17 ** 3 + 17 ** 4);
  });
});
