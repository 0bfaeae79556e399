import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { browserEnvelopeUrl } from '../../engine/errors/dsn.mjs';
import { envelopeOf, fingerprint, parseDsn, serverEvent, stackFrames, type SentryEvent } from '../../engine/errors/envelope';
import { admit, newGate } from '../../engine/errors/report';
import { MAX_REPORTS_PER_PAGE_VIEW, REPORTER_SCRIPT, REPORTING_CONFIG_PATH } from '../../engine/errors/reporterScript.mjs';

describe('parseDsn', () => {
  it.each([
    [
      'https://abc123@o1.ingest.sentry.io/4505',
      { envelopeUrl: 'https://o1.ingest.sentry.io/api/4505/envelope/', publicKey: 'abc123', projectId: '4505', origin: 'https://o1.ingest.sentry.io' },
    ],
    [
      'https://key@glitchtip.example.com/7',
      { envelopeUrl: 'https://glitchtip.example.com/api/7/envelope/', publicKey: 'key', projectId: '7', origin: 'https://glitchtip.example.com' },
    ],
    [
      'http://key@127.0.0.1:9000/sub/path/3',
      { envelopeUrl: 'http://127.0.0.1:9000/sub/path/api/3/envelope/', publicKey: 'key', projectId: '3', origin: 'http://127.0.0.1:9000' },
    ],
  ])('%s', (dsn, expected) => expect(parseDsn(dsn)).toEqual({ ...expected, dsn }));

  it('the browser posts to the envelope endpoint with the key in the query, as the Sentry SDK does', () => {
    expect(browserEnvelopeUrl(parseDsn('https://abc123@o1.ingest.sentry.io/4505')!)).toBe(
      'https://o1.ingest.sentry.io/api/4505/envelope/?sentry_key=abc123&sentry_version=7&sentry_client=loansites-browser%2F1.0',
    );
  });

  it.each([undefined, '', '   ', 'not a url', 'https://o1.ingest.sentry.io/4505', 'https://key@host/', 'https://key@host/abc', 'ftp://key@host/1'])(
    '%s is no DSN',
    (dsn) => expect(parseDsn(dsn)).toBeUndefined(),
  );
});

describe('envelopes', () => {
  const event: SentryEvent = serverEvent(new Error('boom'), {
    release: 'abc',
    environment: 'test',
    tags: { brand: 'ipaydayloans', kind: 'api' },
    url: '/api/x',
    method: 'POST',
    now: new Date('2025-01-01T00:00:00Z'),
  });

  it('an error becomes an event with the message, release, brand tag and a stack', () => {
    expect(event).toMatchObject({
      platform: 'node',
      level: 'error',
      release: 'abc',
      environment: 'test',
      tags: { brand: 'ipaydayloans', kind: 'api' },
      timestamp: 1735689600,
      request: { url: '/api/x', method: 'POST' },
    });
    expect(event.event_id).toMatch(/^[0-9a-f]{32}$/);
    expect(event.exception!.values[0]).toMatchObject({ type: 'Error', value: 'boom' });
    expect(event.exception!.values[0]!.stacktrace!.frames.length).toBeGreaterThan(0);
  });

  it('becomes envelope text: header with the DSN, item header, payload', () => {
    const dsn = parseDsn('https://k@h.example/1')!;
    const text = envelopeOf(event, dsn, new Date('2025-01-01T00:00:01Z'));
    const [header, item, payload] = text.split('\n');
    expect(JSON.parse(header!)).toEqual({ event_id: event.event_id, sent_at: '2025-01-01T00:00:01.000Z', dsn: 'https://k@h.example/1' });
    expect(JSON.parse(item!)).toEqual({ type: 'event' });
    expect(JSON.parse(payload!)).toEqual(event);
  });

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
    expect(Buffer.byteLength(REPORTER_SCRIPT)).toBeLessThanOrEqual(1190);
    expect(() => new Function(REPORTER_SCRIPT)).not.toThrow();
    expect(REPORTER_SCRIPT).toContain(`n>=${MAX_REPORTS_PER_PAGE_VIEW}`);
    expect(REPORTER_SCRIPT).not.toMatch(/<\/script/i);
  });

  /** The reporter in a sandbox: a window, a location, and a fetch that records what it is asked. */
  function sandbox(config: { status: number; body?: unknown }) {
    const requests: { url: string; init?: { method?: string; keepalive?: boolean; headers?: unknown; body?: string } }[] = [];
    const listeners: Record<string, ((e: unknown) => void)[]> = {};
    const fetch = (url: string, init?: (typeof requests)[number]['init']) => {
      requests.push({ url, ...(init ? { init } : {}) });
      const status = url === REPORTING_CONFIG_PATH ? config.status : 200;
      return Promise.resolve({ ok: status < 300, status, json: () => Promise.resolve(config.body) });
    };
    const window = { addEventListener: (type: string, fn: (e: unknown) => void) => (listeners[type] ??= []).push(fn) } as Record<string, unknown>;
    const location = { pathname: '/a', href: 'https://brand.example/a' };
    const document = { currentScript: { dataset: { release: 'r1', brand: 'ipaydayloans' } } };
    runInNewContext(REPORTER_SCRIPT, { window, document, location, navigator: { userAgent: 'test' }, fetch, Date, Math, JSON, String, Promise });
    const report = window.__reportError as (e: unknown, kind: string) => void;
    const settle = () => new Promise((r) => setTimeout(r, 0));
    return { requests, report, settle, location };
  }

  it('asks this site where to post once per page load, then posts each report straight there: keepalive, a string body (text/plain, no preflight), release, brand, environment', async () => {
    const url = 'https://o1.ingest.sentry.io/api/1/envelope/?sentry_key=k&sentry_version=7';
    const { requests, report, settle } = sandbox({ status: 200, body: { url, environment: 'production' } });
    report(new Error('first'), 'boundary');
    report(new Error('second'), 'error');
    await settle();
    expect(requests.map((r) => r.url)).toEqual([REPORTING_CONFIG_PATH, url, url]);
    const post = requests[1]!.init!;
    expect(post).toMatchObject({ method: 'POST', keepalive: true });
    expect(post.headers).toBeUndefined(); // a string body: fetch sends text/plain;charset=UTF-8
    const [header, item, payload] = post.body!.split('\n');
    const event = JSON.parse(payload!);
    expect(JSON.parse(header!).event_id).toBe(event.event_id);
    expect(JSON.parse(item!)).toEqual({ type: 'event' });
    expect(event).toMatchObject({
      release: 'r1',
      environment: 'production',
      tags: { brand: 'ipaydayloans', kind: 'boundary' },
      exception: { values: [{ type: 'Error', value: 'first' }] },
    });
  });

  it('deduplicates, caps each page view at 5, and counts again on a new path', async () => {
    const { requests, report, settle, location } = sandbox({ status: 200, body: { url: 'https://dsn.example/api/1/envelope/' } });
    const same = new Error('same');
    report(same, 'error');
    report(same, 'error');
    for (let i = 0; i < 10; i++) report(new Error(`e${i}`), 'error');
    await settle();
    expect(requests.filter((r) => r.init?.method === 'POST')).toHaveLength(MAX_REPORTS_PER_PAGE_VIEW);
    location.pathname = '/b';
    report(new Error('next page'), 'error');
    await settle();
    expect(requests.filter((r) => r.init?.method === 'POST')).toHaveLength(MAX_REPORTS_PER_PAGE_VIEW + 1);
    expect(requests.filter((r) => r.url === REPORTING_CONFIG_PATH)).toHaveLength(1);
  });

  it('without a DSN (404) it sends nothing, and asks only once', async () => {
    const { requests, report, settle, location } = sandbox({ status: 404, body: { error: 'off' } });
    report(new Error('x'), 'error');
    location.pathname = '/c';
    report(new Error('y'), 'error');
    await settle();
    expect(requests.map((r) => r.url)).toEqual([REPORTING_CONFIG_PATH]);
  });
});
