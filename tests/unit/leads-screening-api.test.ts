/**
 * POST /api/leads screens each new lead before its sale: the real route on a Node server over a
 * fresh SQLite file. The answers are the ones borrowers always got; the stored screening (score,
 * reason codes, at most 2 KB a lead) is what the operator and the buyers then see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_CONSENT_VERSION } from '../../engine/site/consent';
import { openStore, type Store } from '../../engine/store/db';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer({ LEADS_ENCRYPTION_KEY: 'c'.repeat(64), RATE_LIMIT_LEADS: '100', LEADS_WORKER: 'off', LEAD_DESTINATIONS: '' }, '/api/leads');
  db = openStore({ url: '', file: server.dbFile });
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

let n = 0;
const person = { stepMs: [8000, 21000, 30000], pointerEvents: 12, keyEvents: 96, pastedFields: 0, filledFields: 12, webdriver: false };
const body = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return {
    idempotencyKey: `screen-${Date.now()}-${n}-abcdefghijkl`,
    amount: 800,
    zip: '78701',
    firstName: 'Ana',
    lastName: 'García',
    email: `ana.${n}.${Date.now()}@example.org`,
    phone: `51255501${String(n).padStart(2, '0')}`,
    incomeSource: 'employment',
    monthlyIncome: 3200,
    payFrequency: 'biweekly',
    dateOfBirth: '1990-04-02',
    consent: { accepted: true, version: CURRENT_CONSENT_VERSION },
    tracking: { source: 'spring' },
    signals: person,
    ...extra,
  };
};
const send = (b: unknown, opts: Parameters<typeof post>[2] = {}) =>
  post(server.port, JSON.stringify(b), { path: '/api/leads', ip: `198.51.100.${n}`, ...opts });
const screeningOf = (id: string) => db.selectFrom('lead_screening').selectAll().where('lead_id', '=', id).executeTakeFirstOrThrow();

describe('screening on POST /api/leads', () => {
  it('a person’s request: the usual 201 answer, scored 100 with no reason codes', async () => {
    const res = await send(body());
    expect(res.status).toBe(201);
    const answer = res.json;
    expect(Object.keys(answer).sort()).toEqual(['certificateUrl', 'id', 'saleToken', 'status']);
    expect(await screeningOf(answer.id as string)).toMatchObject({ score: 100, band: 'high', codes: '', routing: 'offer' });
  });

  it('a toll-free phone and a disposable email are stored as reason codes with a low score', async () => {
    const res = await send(body({ phone: '8885550100', email: 'ana@mailinator.com' }));
    expect(res.status).toBe(201);
    const row = await screeningOf(res.json.id as string);
    expect(row).toMatchObject({ score: 30, band: 'low', codes: 'phone-toll-free,email-disposable', routing: 'hold' });
  });

  it('an instant scripted fill that pastes every field scores low', async () => {
    const bot = { stepMs: [200, 300, 250], pointerEvents: 0, keyEvents: 0, pastedFields: 12, filledFields: 12, webdriver: true };
    const res = await send(body({ signals: bot }));
    expect((await screeningOf(res.json.id as string)).codes).toBe('bot-fast,bot-no-input-events,bot-paste-all,bot-webdriver');
  });

  it('a request without signals (an older page) is not judged a bot', async () => {
    const { signals: _, ...without } = body();
    const res = await send(without);
    expect(res.status).toBe(201);
    expect(await screeningOf(res.json.id as string)).toMatchObject({ score: 100, codes: '' });
  });

  it('the same phone on another brand within the hour is flagged for velocity', async () => {
    const first = body();
    expect((await send(first)).status).toBe(201);
    const res = await send(body({ phone: first.phone }), { host: 'usinstallmentloans.localhost' });
    expect(res.status).toBe(201);
    // the sale, started by the post, adds `duplicate` too: the same phone is also a duplicate
    expect((await screeningOf(res.json.id as string)).codes.split(',')).toContain('velocity-1h');
  });

  it('malformed signals are a 400 with the reason', async () => {
    const res = await send(body({ signals: { ...person, keyEvents: -1 } }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain('/signals/keyEvents');
  });

  it('stores at most 2 KB of screening per lead, and no personal data', async () => {
    const res = await send(
      body({
        phone: '8885550100',
        email: 'ana@gmial.com',
        signals: { ...person, stepMs: [1, 1, 1], pointerEvents: 0, keyEvents: 0, pastedFields: 12, webdriver: true },
      }),
    );
    const row = await screeningOf(res.json.id as string);
    expect(Buffer.byteLength(JSON.stringify(row))).toBeLessThanOrEqual(2048);
    expect(JSON.stringify(row)).not.toMatch(/8885550100|gmial|García/);
  });
});
