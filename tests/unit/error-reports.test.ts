import { describe, expect, it } from 'vitest';
import { envelopeOf, eventOfEnvelope, EnvelopeError, fingerprint, parseDsn, serverEvent, stackFrames, type SentryEvent } from '../../engine/errors/envelope';
import { admit, newGate } from '../../engine/errors/report';
import { MAX_REPORTS_PER_PAGE_VIEW, REPORTER_SCRIPT } from '../../engine/errors/reporterScript.mjs';

describe('parseDsn', () => {
  it.each([
    ['https://abc123@o1.ingest.sentry.io/4505', { envelopeUrl: 'https://o1.ingest.sentry.io/api/4505/envelope/', publicKey: 'abc123', projectId: '4505' }],
    ['https://key@glitchtip.example.com/7', { envelopeUrl: 'https://glitchtip.example.com/api/7/envelope/', publicKey: 'key', projectId: '7' }],
    ['http://key@127.0.0.1:9000/sub/path/3', { envelopeUrl: 'http://127.0.0.1:9000/sub/path/api/3/envelope/', publicKey: 'key', projectId: '3' }],
  ])('%s', (dsn, expected) => expect(parseDsn(dsn)).toEqual({ ...expected, dsn }));

  it.each([undefined, '', '   ', 'not a url', 'https://o1.ingest.sentry.io/4505', 'https://key@host/', 'https://key@host/abc', 'ftp://key@host/1'])('%s is no DSN', (dsn) =>
    expect(parseDsn(dsn)).toBeUndefined(),
  );
});

describe('envelopes', () => {
  const event: SentryEvent = serverEvent(new Error('boom'), { release: 'abc', environment: 'test', tags: { brand: 'ipaydayloans', kind: 'api' }, url: '/api/x', method: 'POST', now: new Date('2025-01-01T00:00:00Z') });

  it('an error becomes an event with the message, release, brand tag and a stack', () => {
    expect(event).toMatchObject({ platform: 'node', level: 'error', release: 'abc', environment: 'test', tags: { brand: 'ipaydayloans', kind: 'api' }, timestamp: 1735689600, request: { url: '/api/x', method: 'POST' } });
    expect(event.event_id).toMatch(/^[0-9a-f]{32}$/);
    expect(event.exception!.values[0]).toMatchObject({ type: 'Error', value: 'boom' });
    expect(event.exception!.values[0]!.stacktrace!.frames.length).toBeGreaterThan(0);
  });

  it('round-trips through the envelope text (header with the DSN, item header, payload)', () => {
    const dsn = parseDsn('https://k@h.example/1')!;
    const text = envelopeOf(event, dsn, new Date('2025-01-01T00:00:01Z'));
    const [header, item, payload] = text.split('\n');
    expect(JSON.parse(header!)).toEqual({ event_id: event.event_id, sent_at: '2025-01-01T00:00:01.000Z', dsn: 'https://k@h.example/1' });
    expect(JSON.parse(item!)).toEqual({ type: 'event' });
    expect(JSON.parse(payload!)).toEqual(event);
    expect(eventOfEnvelope(text)).toEqual(event);
  });

  it('reads an item by its length when the header gives one', () => {
    const payload = JSON.stringify({ event_id: 'a'.repeat(32), message: 'line\nbreak?' });
    const text = `{}\n${JSON.stringify({ type: 'event', length: Buffer.byteLength(payload) })}\n${payload}\n`;
    expect(eventOfEnvelope(text)).toEqual({ event_id: 'a'.repeat(32), message: 'line\nbreak?' });
  });

  it.each([
    ['one line', '{}'],
    ['headers not JSON', 'x\ny\nz'],
    ['not an event item', '{}\n{"type":"attachment"}\n{}'],
    ['payload not JSON', '{}\n{"type":"event"}\n{oops'],
    ['payload not an object', '{}\n{"type":"event"}\n[1]'],
    ['no event id', '{}\n{"type":"event"}\n{"message":"x"}'],
  ])('refuses %s', (_name, text) => expect(() => eventOfEnvelope(text)).toThrow(EnvelopeError));

  it('stack lines become frames, oldest first', () => {
    expect(stackFrames('Error: x\n    at inner (/app/a.js:10:5)\n    at /app/b.js:20:7')).toEqual([
      { filename: '/app/b.js', lineno: 20, colno: 7 },
      { function: 'inner', filename: '/app/a.js', lineno: 10, colno: 5 },
    ]);
  });

  it('the same error in the same brand has one fingerprint; another brand or message another', () => {
    const again = { ...event, event_id: 'b'.repeat(32) };
    expect(fingerprint(again)).toBe(fingerprint(event));
    expect(fingerprint({ ...event, tags: { brand: 'cocoloan' } })).not.toBe(fingerprint(event));
    expect(fingerprint({ ...event, exception: { values: [{ type: 'Error', value: 'other' }] } })).not.toBe(fingerprint(event));
  });
});

describe('the server gate: deduplicated for a minute, capped per minute', () => {
  it('admits a report once a minute, others until the cap, then nothing until the next minute', () => {
    const gate = newGate();
    const t0 = 1_000_000;
    expect(admit(gate, 'a', t0, 3)).toBe(true);
    expect(admit(gate, 'a', t0 + 1000, 3)).toBe(false);
    expect(admit(gate, 'b', t0 + 2000, 3)).toBe(true);
    expect(admit(gate, 'c', t0 + 3000, 3)).toBe(true);
    expect(admit(gate, 'd', t0 + 4000, 3)).toBe(false);
    expect(admit(gate, 'a', t0 + 60_000, 3)).toBe(true);
    expect(admit(gate, 'd', t0 + 60_001, 3)).toBe(true);
  });
});

describe('the inline reporter', () => {
  it('is small (every page carries it) and parses', () => {
    expect(Buffer.byteLength(REPORTER_SCRIPT)).toBeLessThan(1300);
    expect(() => new Function(REPORTER_SCRIPT)).not.toThrow();
    expect(REPORTER_SCRIPT).toContain(`n>=${MAX_REPORTS_PER_PAGE_VIEW}`);
    expect(REPORTER_SCRIPT).not.toMatch(/<\/script/i);
  });
});
