/**
 * POST /api/leads as a borrower's browser and an attacker meet it: the real route on a Node
 * server over a fresh SQLite file. A valid request is stored once with the consent snapshot;
 * every malformed one is a 4xx with the reason and stores nothing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentText, CONSENT_VERSION_OF, CURRENT_CONSENT_VERSION } from '../../engine/site/consent';
import { getStore, openStore, type Store } from '../../engine/store/db';
import { writeTraffic } from '../../engine/store/traffic';
import { visitRow } from '../../engine/store/trafficRules';
import { issueVisitId } from '../../engine/traffic/visitId';
import { sharedTrafficWriter } from '../../engine/traffic/writer';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer({ LEADS_ENCRYPTION_KEY: 'b'.repeat(64), RATE_LIMIT_LEADS: '50', LEADS_WORKER: 'off', LEAD_DESTINATIONS: '' }, '/api/leads');
  db = openStore({ url: '', file: server.dbFile });
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

let ipN = 0;
const send = (body: unknown, opts: Parameters<typeof post>[2] = {}) =>
  post(server.port, typeof body === 'string' ? body : JSON.stringify(body), { path: '/api/leads', ip: `198.51.100.${(ipN++ % 200) + 1}`, ...opts });

let keyN = 0;
const valid = (extra: Record<string, unknown> = {}) => ({
  idempotencyKey: `k${Date.now()}-${++keyN}-abcdefghijkl`,
  amount: 2500,
  zip: '78701',
  firstName: 'Ana',
  lastName: 'García',
  email: 'ana@example.org',
  phone: '5125550123',
  incomeSource: 'employment',
  monthlyIncome: 3200,
  payFrequency: 'biweekly',
  dateOfBirth: '1990-04-02',
  consent: { accepted: true, version: CURRENT_CONSENT_VERSION },
  tracking: { source: 'spring', source2: '/payday-loans', clickId: 'ggabc', uuid: 'cc' + 'a'.repeat(32) },
  ...extra,
});
const leadCount = async () =>
  Number(
    (
      await db
        .selectFrom('leads')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const eighteenYearsAgoPlusOneDay = (() => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - 18);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
})();

const eighteenAndAWeek = (() => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - 18);
  d.setUTCDate(d.getUTCDate() - 7);
  return d.toISOString().slice(0, 10);
})();

describe('POST /api/leads refuses bad input with a reason and stores nothing', () => {
  const v = valid();
  const without = (key: string) => Object.fromEntries(Object.entries(valid()).filter(([k]) => k !== key));
  const cases: [string, unknown, number, string, Parameters<typeof post>[2]?][] = [
    ['not JSON', '{"amount":', 400, 'not valid JSON'],
    ['an array', '[]', 400, 'not valid'],
    ['an empty object', {}, 400, 'idempotencyKey'],
    ['no idempotency key', without('idempotencyKey'), 400, 'idempotencyKey'],
    ['a short idempotency key', valid({ idempotencyKey: 'abc' }), 400, '/idempotencyKey'],
    ['amount 99', valid({ amount: 99 }), 400, '/amount'],
    ['amount 35001', valid({ amount: 35001 }), 400, '/amount'],
    ['amount as text', valid({ amount: '1000' }), 400, '/amount'],
    ['amount with cents', valid({ amount: 1000.5 }), 400, '/amount'],
    ['a four-digit ZIP', valid({ zip: '7870' }), 400, '/zip'],
    ['letters for a ZIP', valid({ zip: 'ABCDE' }), 400, '/zip'],
    ['an empty first name', valid({ firstName: '' }), 400, '/firstName'],
    ['a blank last name', valid({ lastName: '   ' }), 400, '/lastName'],
    ['a 51-character name', valid({ firstName: 'x'.repeat(51) }), 400, '/firstName'],
    ['an email without @', valid({ email: 'ana.example.org' }), 400, '/email'],
    ['an email without a domain', valid({ email: 'ana@example' }), 400, '/email'],
    ['a nine-digit phone', valid({ phone: '512555012' }), 400, '/phone'],
    ['a phone with punctuation', valid({ phone: '(512) 555-0123' }), 400, '/phone'],
    ['a phone with area code 1xx', valid({ phone: '1125550123' }), 400, '/phone'],
    ['an unknown income source', valid({ incomeSource: 'lottery' }), 400, '/incomeSource'],
    ['negative income', valid({ monthlyIncome: -1 }), 400, '/monthlyIncome'],
    ['a daily pay frequency', valid({ payFrequency: 'daily' }), 400, '/payFrequency'],
    ['a first name that is a zero-width space', valid({ firstName: '\u200b' }), 400, '/firstName'],
    ['a first name with a NUL', valid({ firstName: 'An\u0000a' }), 400, '/firstName'],
    ['a last name with a line break', valid({ lastName: 'García\r\nBcc: x' }), 400, '/lastName'],
    // shown as "AnaLez" where it is displayed: the override reverses what follows it
    [
      'a first name with a right-to-left override',
      valid({ firstName: 'Ana\u202ezeL' }),
      400,
      '/firstName: \\"Ana\\\\u202ezeL\\" is not valid: expected a name with a visible letter at least, in any script, and no control or invisible formatting character',
    ],
    // a Hangul filler is a letter to Unicode but shows nothing: the name would be blank wherever it is shown
    [
      'a first name that is a Hangul filler',
      valid({ firstName: '\u3164' }),
      400,
      '/firstName: \\"\\\\u3164\\" is not valid: expected a name with a visible letter at least',
    ],
    [
      'a first name that is a halfwidth Hangul filler',
      valid({ firstName: '\uffa0' }),
      400,
      '/firstName: \\"\\\\uffa0\\" is not valid: expected a name with a visible letter',
    ],
    [
      'a last name of Hangul jamo fillers',
      valid({ lastName: '\u115f\u1160' }),
      400,
      '/lastName: \\"\\\\u115f\\\\u1160\\" is not valid: expected a name with a visible letter',
    ],
    [
      'a last name of a filler and a braille blank',
      valid({ lastName: '\u3164\u2800' }),
      400,
      '/lastName: \\"\\\\u3164\\\\u2800\\" is not valid: expected a name with a visible letter',
    ],
    [
      'a first name that is a braille blank',
      valid({ firstName: '\u2800' }),
      400,
      '/firstName: \\"\\\\u2800\\" is not valid: expected a name with a visible letter',
    ],
    ['a last name in a direction isolate', valid({ lastName: '\u2067García\u2069' }), 400, '/lastName'],
    ['a last name with a right-to-left mark', valid({ lastName: 'כהן\u200f' }), 400, '/lastName'],
    ['a first name with a zero-width space inside', valid({ firstName: 'An\u200ba' }), 400, '/firstName'],
    ['an email with two dots in a row', valid({ email: 'ana@example..org' }), 400, '/email'],
    ['two emails', valid({ email: 'ana@example.org,bo@example.org' }), 400, '/email'],
    ['an email ending in a dot', valid({ email: 'ana@example.org.' }), 400, '/email'],
    [
      'a step left before it was shown',
      valid({ evidence: { page: '/apply', steps: [{ step: 1, shownMs: 5000, doneMs: 100 }], submitMs: 6000, fields: {} } }),
      400,
      '/evidence/steps/0/doneMs: left before it was shown',
    ],
    [
      'a step left after the submit',
      valid({ evidence: { page: '/apply', steps: [{ step: 1, shownMs: 100, doneMs: 5000 }], submitMs: 0, fields: {} } }),
      400,
      '/evidence/steps/0/doneMs: left after the form was submitted',
    ],
    [
      'a step shown before the one before it was left',
      valid({
        evidence: {
          page: '/apply',
          steps: [
            { step: 1, shownMs: 100, doneMs: 5000 },
            { step: 2, shownMs: 200, doneMs: 6000 },
          ],
          submitMs: 7000,
          fields: {},
        },
      }),
      400,
      '/evidence/steps/1/shownMs',
    ],
    [
      // the reason names the form such a name takes (a hyphen is not part of it), not another schema's
      'an evidence field named with a hyphen',
      valid({ evidence: { page: '/apply', steps: [], submitMs: 10, fields: { 'first-name': { typed: 1, pasted: 0, autofilled: 0 } } } }),
      400,
      '/evidence/fields/first-name: name \\"first-name\\" is not valid: expected a field name of up to 40 letters and digits, starting with a letter, such as firstName',
    ],
    ['a slashed date of birth', valid({ dateOfBirth: '1990/04/02' }), 400, '/dateOfBirth'],
    ['30 February', valid({ dateOfBirth: '1990-02-30' }), 400, 'is not a date'],
    ['a borrower of 17', valid({ dateOfBirth: eighteenYearsAgoPlusOneDay }), 422, '18 or older'],
    ['a date of birth next year', valid({ dateOfBirth: `${new Date().getUTCFullYear() + 1}-04-02` }), 400, 'is a day still to come'],
    ['consent not given', valid({ consent: { accepted: false, version: CURRENT_CONSENT_VERSION } }), 400, '/consent/accepted'],
    ['no consent', without('consent'), 400, 'consent'],
    ['a consent version never shown', valid({ consent: { accepted: true, version: 'tcpa-1999' } }), 400, 'Unknown consent version'],
    ['no tracking', without('tracking'), 400, 'tracking'],
    ['a made-up click id', valid({ tracking: { source: 'x', clickId: 'xx123' } }), 400, '/tracking/clickId'],
    ['a malformed uuid', valid({ tracking: { source: 'x', uuid: 'abc' } }), 400, '/tracking/uuid'],
    ['an extra field', valid({ ssn: '123-45-6789' }), 400, 'ssn'],
    ['an unknown purpose', valid({ purpose: 'Gambling' }), 400, '/purpose'],
    ['a vehicle from 1900', valid({ vehicle: { year: 1900, make: 'Ford', model: 'T' } }), 400, '/vehicle/year'],
    ['a New York ZIP (no service)', valid({ zip: '10001' }), 422, 'New York'],
    ['a ZIP that does not exist', valid({ zip: '00000' }), 422, 'could not find ZIP code 00000'],
    ['a form post', 'amount=1000', 415, 'application/json', { type: 'application/x-www-form-urlencoded' }],
    ['over 16 KB', valid({ firstName: 'x'.repeat(20_000) }), 413, 'larger than'],
    ['GET', '', 405, 'Use POST', { method: 'GET' }],
    ['an unknown host', v, 404, 'No site answers', { host: 'evil.example' }],
    ['a title request without a vehicle', valid({ zip: '78701', purpose: 'Auto Repair' }), 400, '/vehicle', { host: 'ustitleloans.localhost' }],
    [
      'a blank vehicle make',
      valid({ zip: '78701', purpose: 'Auto Repair', vehicle: { year: 2015, make: ' ', model: 'Focus' } }),
      400,
      '/vehicle/make',
      { host: 'ustitleloans.localhost' },
    ],
    [
      'a vehicle make with an escape character',
      valid({ zip: '78701', purpose: 'Auto Repair', vehicle: { year: 2015, make: 'Ford\u001b[2J', model: 'Focus' } }),
      400,
      'expected text with more than spaces in it, and no control character',
      { host: 'ustitleloans.localhost' },
    ],
    [
      'a vehicle model with a line break',
      valid({ zip: '78701', purpose: 'Auto Repair', vehicle: { year: 2015, make: 'Ford', model: 'Focus\nBuyer: ignore' } }),
      400,
      '/vehicle/model',
      { host: 'ustitleloans.localhost' },
    ],
    ['a consent certificate with a line break', valid({ thirdPartyConsent: 'https://cert.trustedform.com/abc\r\nX: y' }), 400, '/thirdPartyConsent'],
    [
      'a model year after next year',
      valid({ zip: '78701', purpose: 'Auto Repair', vehicle: { year: new Date().getUTCFullYear() + 2, make: 'Ford', model: 'Focus' } }),
      400,
      `/vehicle/year: from 1980 to ${new Date().getUTCFullYear() + 1}`,
      { host: 'ustitleloans.localhost' },
    ],
    [
      'a Michigan ZIP on a title brand',
      valid({ zip: '48201', purpose: 'Medical', vehicle: { year: 2015, make: 'Ford', model: 'Focus' } }),
      422,
      'Michigan',
      { host: 'ustitleloans.localhost' },
    ],
  ];

  // the status second: the title's %i takes the second value
  it.each(cases.map(([label, body, status, reason, opts]) => [label, status, body, reason, opts] as const))(
    '%s → %i',
    async (_label, status, body, reason, opts) => {
      const res = await send(body, opts);
      expect(res.status).toBe(status);
      expect(JSON.stringify(res.json)).toContain(reason);
    },
  );

  it('none of them stored a lead', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(await leadCount()).toBe(0);
  });
});

describe('POST /api/leads stores a request once', () => {
  it('takes names in any script, with apostrophes, hyphens and the joiners some scripts write with', async () => {
    for (const [firstName, lastName] of [
      ['Zoë', "O'Brien"],
      ['李', '小龙'],
      ['مهر\u200cداد', 'Rahimi-Nasr'],
      ['José María', 'de la Cruz'],
      // right to left by their letters, with no direction character
      ['מרים', 'כהן'],
      ['مريم', 'الحسن'],
      ['김민준', '박'],
    ]) {
      const res = await send(valid({ firstName, lastName, email: `names${++keyN}@example.org` }));
      expect(res.status, `${firstName} ${lastName}`).toBe(201);
    }
  });

  it('201 with an id; the same key again (a double click, a retry) is 200 with the same id', async () => {
    const body = valid();
    const [a, b] = await Promise.all([send(body), send(body)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.json.id).toBe(b.json.id);
    const again = await send(body);
    expect(again).toMatchObject({ status: 200, json: { id: a.json.id, status: 'received' } });
    const rows = await db.selectFrom('leads').selectAll().where('idempotency_key', '=', body.idempotencyKey).execute();
    expect(rows).toHaveLength(1);
  });

  it('the same key with a different body is 409 with the reason, and the first lead stays as it was', async () => {
    const body = valid();
    const first = await send(body);
    expect(first.status).toBe(201);
    const changed = await send({ ...body, amount: 5000 });
    expect(changed.status).toBe(409);
    expect(JSON.stringify(changed.json)).toContain('already used for a different request');
    // the same fields in another order are the same request
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(await send(reordered)).toMatchObject({ status: 200, json: { id: first.json.id } });
    const rows = await db.selectFrom('leads').selectAll().where('idempotency_key', '=', body.idempotencyKey).execute();
    expect(rows.map((r) => r.amount)).toEqual([2500]);
  });

  it('the 409 names the lead already stored as the 201 did (id, sale token, certificate page), so a browser that lost that answer can follow it', async () => {
    const body = valid();
    const first = await send(body);
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ saleToken: expect.any(String), certificateUrl: expect.stringMatching(/^\/certificate\//) });
    // the borrower changed an answer after the first answer was lost, and sent again with the form's key
    const changed = await send({ ...body, monthlyIncome: 3400 });
    expect(changed.status).toBe(409);
    expect(changed.json).toEqual({
      error: `This idempotency key was already used for a different request (lead ${first.json.id}); nothing was changed. Send a changed request with a new idempotency key.`,
      id: first.json.id,
      saleToken: first.json.saleToken,
      certificateUrl: first.json.certificateUrl,
    });
    // the same answer to the same body sent again, as a retry of it gets
    expect(await send(body)).toMatchObject({ status: 200, json: first.json });
    expect(await db.selectFrom('leads').select('id').where('idempotency_key', '=', body.idempotencyKey).execute()).toEqual([{ id: first.json.id }]);
  });

  it('records the host and its environment; a lead from a dev. or test123. host is a test lead, outboxed only for buyers that take test leads', async () => {
    process.env.LEAD_DESTINATIONS = JSON.stringify({
      ipaydayloans: [
        { name: 'real-buyer', url: 'http://127.0.0.1:9/leads', secret: 'x'.repeat(16) },
        { name: 'sandbox-buyer', url: 'http://127.0.0.1:9/leads', secret: 'x'.repeat(16), acceptsTestLeads: true },
      ],
    });
    try {
      const outbox = async (host: string) => {
        const res = await send(valid(), { host });
        expect(res.status).toBe(201);
        const lead = await db.selectFrom('leads').select(['host', 'environment']).where('id', '=', String(res.json.id)).executeTakeFirstOrThrow();
        const rows = await db.selectFrom('lead_deliveries').select('destination').where('lead_id', '=', String(res.json.id)).orderBy('destination').execute();
        return { ...lead, to: rows.map((r) => r.destination) };
      };
      expect(await outbox('ipaydayloans.com')).toEqual({ host: 'ipaydayloans.com', environment: 'production', to: ['real-buyer', 'sandbox-buyer'] });
      expect(await outbox('dev.ipaydayloans.com')).toEqual({ host: 'dev.ipaydayloans.com', environment: 'test', to: ['sandbox-buyer'] });
      expect(await outbox('TEST123.ipaydayloans.com:443')).toEqual({ host: 'test123.ipaydayloans.com', environment: 'test', to: ['sandbox-buyer'] });
      expect(await outbox('ipaydayloans.localhost')).toEqual({ host: 'ipaydayloans.localhost', environment: 'development', to: ['sandbox-buyer'] });
    } finally {
      process.env.LEAD_DESTINATIONS = '';
      await db.deleteFrom('lead_deliveries').execute();
    }
  });

  it('keeps the consent snapshot, the visit, a truncated IP and the user agent; seals date of birth and income', async () => {
    const body = valid();
    const res = await send(body, { ip: '203.0.113.77', ua: 'Mozilla/5.0 test' });
    expect(res.status).toBe(201);
    const row = await db.selectFrom('leads').selectAll().where('id', '=', String(res.json.id)).executeTakeFirstOrThrow();
    const text = consentText(CURRENT_CONSENT_VERSION, 'iPaydayLoans');
    expect(row).toMatchObject({
      brand: 'ipaydayloans',
      state: 'tx',
      city: 'Austin',
      amount: 2500,
      consent_version: CURRENT_CONSENT_VERSION,
      consent_text: text,
      consent_hash: createHash('sha256').update(text).digest('hex'),
      source: 'spring',
      click_id: 'ggabc',
      session_uuid: 'cc' + 'a'.repeat(32),
      ip: '203.0.113.0',
      user_agent: 'Mozilla/5.0 test',
      privacy_opt_out: 0,
    });
    expect(row.consent_text).toContain('not a condition');
    expect(row.sealed).not.toContain('1990');
    expect(row.sealed).not.toContain('3200');
  });

  it('keeps the first-party visit id it came with (issued by the server), and counts the stored lead under that visit’s campaign and the lead’s state', async () => {
    const visitId = issueVisitId('ipaydayloans');
    await writeTraffic(await getStore(), {
      visits: [
        visitRow(
          visitId,
          { path: '/payday-loans', params: { source1: 'autumn' } },
          { brand: 'ipaydayloans', host: 'x', userAgent: '', optedOut: false, now: new Date() },
        ),
      ],
      events: [],
    });
    const res = await send(valid({ tracking: { source: 'spring', visitId } }));
    expect(res.status).toBe(201);
    const lead = await db.selectFrom('leads').select('visit_id').where('id', '=', String(res.json.id)).executeTakeFirstOrThrow();
    expect(lead.visit_id).toBe(visitId);
    await sharedTrafficWriter().flush();
    const stored = await db.selectFrom('traffic_events').select(['metric', 'campaign', 'landing', 'state']).where('visit_id', '=', visitId).execute();
    expect(stored).toEqual([{ metric: 'stored', campaign: 'autumn', landing: '/payday-loans', state: 'TX' }]);
    expect((await send(valid({ tracking: { source: 'spring', visitId: 'not-a-visit' } }))).status).toBe(400);
  });

  it('keeps a lead whose visit id the server did not issue for the brand, without linking it or counting it under that visit', async () => {
    for (const visitId of ['v' + 'd'.repeat(32), issueVisitId('ustitleloans')]) {
      const res = await send(valid({ tracking: { source: 'spring', visitId } }));
      expect(res.status).toBe(201);
      const lead = await db.selectFrom('leads').select('visit_id').where('id', '=', String(res.json.id)).executeTakeFirstOrThrow();
      expect(lead.visit_id).toBeNull();
      await sharedTrafficWriter().flush();
      expect(await db.selectFrom('traffic_events').select('id').where('visit_id', '=', visitId).execute()).toEqual([]);
    }
  });

  it('a browser with Global Privacy Control is recorded as opted out', async () => {
    const res = await send(valid(), { headers: { 'sec-gpc': '1' } });
    const row = await db.selectFrom('leads').select('privacy_opt_out').where('id', '=', String(res.json.id)).executeTakeFirstOrThrow();
    expect(row.privacy_opt_out).toBe(1);
  });

  it('a title brand stores the purpose and the vehicle', async () => {
    const res = await send(valid({ purpose: 'Auto Repair', vehicle: { year: 2016, make: 'Toyota', model: 'Camry', mileage: 88000 } }), {
      host: 'ustitleloans.localhost',
    });
    expect(res.status).toBe(201);
    const row = await db.selectFrom('leads').selectAll().where('id', '=', String(res.json.id)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ brand: 'ustitleloans', loan_kind: 'title', purpose: 'Auto Repair' });
    expect(JSON.parse(row.vehicle)).toEqual({ year: 2016, make: 'Toyota', model: 'Camry', mileage: 88000 });
  });

  it('the honeypot filled: 202, nothing stored', async () => {
    const before = await leadCount();
    const res = await send(valid({ website: 'http://spam.example' }));
    expect(res.status).toBe(202);
    expect(await leadCount()).toBe(before);
  });

  it('rate-limited per client: the 51st request in a minute is 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) statuses.push((await send({}, { ip: '192.0.2.99' })).status);
    expect(statuses.slice(0, 50).every((s) => s === 400)).toBe(true);
    const last = await send({}, { ip: '192.0.2.99' });
    expect(last.status).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('POST /api/leads: the age of majority of the ZIP’s state', () => {
  const yearsAndAWeek = (years: number) => {
    const d = new Date();
    d.setUTCFullYear(d.getUTCFullYear() - years);
    d.setUTCDate(d.getUTCDate() - 7);
    return d.toISOString().slice(0, 10);
  };

  it('refuses a borrower under it with a 422 naming the state, and stores nothing', async () => {
    const before = await leadCount();
    const cases: [Record<string, unknown>, string][] = [
      // Jackson, Mississippi: 21
      [valid({ zip: '39201', dateOfBirth: yearsAndAWeek(19) }), 'You must be 21 or older to request a loan in Mississippi'],
      [valid({ zip: '39201', dateOfBirth: yearsAndAWeek(20) }), 'You must be 21 or older to request a loan in Mississippi'],
      // Birmingham, Alabama, and Omaha, Nebraska: 19
      [valid({ zip: '35203', dateOfBirth: eighteenAndAWeek }), 'You must be 19 or older to request a loan in Alabama'],
      [valid({ zip: '68102', dateOfBirth: eighteenAndAWeek }), 'You must be 19 or older to request a loan in Nebraska'],
    ];
    for (const [body, reason] of cases) {
      const res = await send(body);
      expect(res.status, reason).toBe(422);
      expect(res.json.error, reason).toBe(reason);
    }
    expect(await leadCount()).toBe(before);
  });

  it('takes a borrower of that age there, and an 18-year-old in Texas', async () => {
    expect((await send(valid({ zip: '39201', dateOfBirth: yearsAndAWeek(21) }))).status).toBe(201);
    expect((await send(valid({ zip: '35203', dateOfBirth: yearsAndAWeek(19) }))).status).toBe(201);
    expect((await send(valid({ zip: '78701', dateOfBirth: eighteenAndAWeek }))).status).toBe(201);
  });
});

describe('POST /api/leads in Canada and Australia', () => {
  const ca = (extra: Record<string, unknown> = {}) =>
    valid({ country: 'CA', zip: 'M5V 2T6', phone: '4165550187', amount: 1500, consent: { accepted: true, version: CONSENT_VERSION_OF.CA }, ...extra });
  const au = (extra: Record<string, unknown> = {}) =>
    valid({ country: 'AU', zip: '2000', phone: '0412345678', amount: 1800, consent: { accepted: true, version: CONSENT_VERSION_OF.AU }, ...extra });
  const WE = { host: 'weloans.localhost' };
  const AU = { host: 'fastloansau.localhost' };

  it('WeLoans: M5V 2T6 is stored as Ontario, in CAD, with the CASL consent naming who asks', async () => {
    const res = await send(ca(), WE);
    expect(res.status).toBe(201);
    const row = await db.selectFrom('leads').selectAll().where('id', '=', String(res.json.id)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ brand: 'weloans', country: 'CA', region: 'ON', state: 'on', currency: 'CAD', zip: 'M5V 2T6', amount: 1500, city: '' });
    expect(row.consent_version).toBe('casl-2026-11');
    expect(row.consent_text).toContain('sought by WeLoans (240 Richmond Street West');
  });

  it('Fast Loans Australia: 2000 is stored as NSW, in AUD, with the mobile as dialled in Australia', async () => {
    const res = await send(au(), AU);
    expect(res.status).toBe(201);
    const row = await db.selectFrom('leads').selectAll().where('id', '=', String(res.json.id)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ brand: 'fastloansau', country: 'AU', region: 'NSW', currency: 'AUD', zip: '2000', phone: '0412345678' });
  });

  it('an 18-year-old in Ontario, where the age of majority is 18, is taken', async () => {
    expect((await send(ca({ dateOfBirth: eighteenAndAWeek }), WE)).status).toBe(201);
  });

  it('refuses what does not fit the country, with the reason, and stores nothing', async () => {
    const before = await leadCount();
    const cases: [Record<string, unknown>, { host: string }, number, string][] = [
      [ca({ zip: 'H2X 1Y4' }), WE, 422, 'cannot connect borrowers in Quebec'],
      [ca({ zip: 'X2A 1A1' }), WE, 422, 'could not find postal code X2A 1A1'],
      [ca({ zip: '78701' }), WE, 400, '/zip'],
      [ca({ phone: '0412345678' }), WE, 400, '/phone'],
      [ca({ consent: { accepted: true, version: CURRENT_CONSENT_VERSION } }), WE, 400, '/consent/version'],
      [ca({ country: 'US' }), WE, 400, '/country'],
      // 18, but the age of majority in British Columbia is 19
      [ca({ zip: 'V6B 1A1', dateOfBirth: eighteenAndAWeek }), WE, 422, 'You must be 19 or older to request a loan in British Columbia'],
      [ca({ zip: 'X1A 2P8', dateOfBirth: eighteenAndAWeek }), WE, 422, 'You must be 19 or older to request a loan in Northwest Territories'],
      [au({ zip: '2899' }), AU, 422, 'could not find postcode 2899'],
      [au({ phone: '5125550123' }), AU, 400, '/phone'],
      // the schema's own rules, said in words rather than as its pattern
      [au({ zip: '800' }), AU, 400, '/zip: \\"800\\" is not valid: expected the postal code as the brand\'s country writes it'],
      [au({ phone: '+61412345678' }), AU, 400, '/phone: \\"+61412345678\\" is not valid: expected digits only'],
      [ca({ zip: 'm5v 2t6' }), WE, 400, 'a Canadian postal code in capitals with its space (M5V 2T6)'],
      [valid({ country: 'CA' }), { host: 'ipaydayloans.localhost' }, 400, '/country'],
    ];
    for (const [body, opts, status, reason] of cases) {
      const res = await send(body, opts);
      expect(res.status, reason).toBe(status);
      expect(JSON.stringify(res.json), reason).toContain(reason);
    }
    expect(await leadCount()).toBe(before);
  });
});

describe('npm run leads (operators)', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/leads.ts', ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, LOANSITES_DB_FILE: server.dbFile, DATABASE_URL: '' },
    });

  it('lists the stored leads with their delivery status, as a table, CSV or JSON', async () => {
    const stored = await db.selectFrom('leads').select(['id']).execute();
    expect(stored.length).toBeGreaterThan(0);
    const table = run(['--since', '1h']);
    expect(table.status).toBe(0);
    expect(table.stdout).toContain(`Leads since`);
    expect(table.stdout).toContain(stored[0]!.id);
    expect(table.stdout).toContain('Austin, TX 78701');
    expect(table.stdout).toContain('stored only');
    // each country as it writes amounts, places and phones
    expect(table.stdout).toContain('$1,500 CAD');
    expect(table.stdout).toContain('ON M5V 2T6 CA');
    expect(table.stdout).toContain('416-555-0187');
    expect(table.stdout).toContain('NSW 2000 AU');
    expect(table.stdout).toContain('0412 345 678');
    expect(table.stdout).toContain('$2,500 USD');
    const csvOut = run(['--since', '1h', '--csv']);
    const lines = csvOut.stdout.trim().split('\r\n');
    expect(lines[0]).toMatch(/^created_at,brand,id,/);
    expect(lines[0]).toContain(',country,amount,currency,');
    expect(lines[0]).toContain(',region,');
    expect(lines.some((l) => /,CA,1500,CAD,M5V 2T6,,ON,ON,/.test(l))).toBe(true);
    // the header, a line a lead, and the converted totals with the rates used
    expect(lines).toHaveLength(stored.length + 2);
    expect(lines.at(-1)).toMatch(/^total,.*0 sold; 0 returned; revenue 0.00 USD/);
    const json = (
      JSON.parse(run(['--since', '1h', '--json']).stdout) as { leads: { id: string; sealed?: string; country: string; region: string; currency: string }[] }
    ).leads;
    expect(json.filter((l) => l.country === 'AU').map((l) => [l.region, l.currency])).toContainEqual(['NSW', 'AUD']);
    expect(json.map((l) => l.id).sort()).toEqual(stored.map((l) => l.id).sort());
    expect(json[0]!.sealed).toBeUndefined();
    const bad = run(['--since', 'yesterday']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--since yesterday: give a number and a unit');
    // Four real CLI processes (npx tsx each): seconds apiece, more on a loaded machine.
  }, 180_000);
});
