/**
 * Visit tracking rules (SPEC §3, §4): what a landing URL stores, first touch, utm fallbacks,
 * click-id prefixes, the uuid's shape, the analytics client-id wait (fake timers), and when a
 * session trace is due.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import schema from '../../schemas/api/trace-session.schema.json' with { type: 'json' };
import { SOURCE_STORAGE_KEY, withApplySource } from '../../engine/browser/applySource';
import {
  clickIdOf,
  gaClientIdFromCookie,
  rememberVisit,
  SESSION_UUID,
  sessionTraceDue,
  sessionUuid,
  STORAGE_KEYS,
  TRACE_LIMITS,
  traceSettled,
  visitOffer,
  waitForClientId,
  type KeyValueStorage,
} from '../../engine/browser/tracking';
import { parseJsonBody, validatorFor } from '../../engine/http/api';
import { landingParams } from '../../engine/browser/visit';
import { visitRow } from '../../engine/store/trafficRules';

class MapStorage implements KeyValueStorage {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  /** the stored values by plain key name */
  plain() {
    const out: Record<string, string> = {};
    for (const [name, key] of Object.entries(STORAGE_KEYS)) if (this.map.has(key)) out[name] = this.map.get(key)!;
    if (this.map.has(SOURCE_STORAGE_KEY)) out[SOURCE_STORAGE_KEY] = this.map.get(SOURCE_STORAGE_KEY)!;
    return out;
  }
}

describe('storage keys', () => {
  it.each(Object.entries(STORAGE_KEYS))('%s is stored under base64 of its name (%s)', (name, key) => {
    expect(Buffer.from(name).toString('base64')).toBe(key);
  });
});

describe('what one landing URL stores (empty storage)', () => {
  it.each([
    ['source1 and source2', '?source1=spring&source2=google', '/payday-loans', { id: 'spring', path: 'google', [SOURCE_STORAGE_KEY]: 'spring' }],
    ['utm_campaign and utm_source', '?utm_campaign=fall&utm_source=bing', '/', { id: 'fall', path: 'bing', [SOURCE_STORAGE_KEY]: 'fall' }],
    ['source1 wins over utm_campaign', '?utm_campaign=fall&source1=spring', '/', { id: 'spring', path: '/', [SOURCE_STORAGE_KEY]: 'spring' }],
    ['source2 wins over utm_source', '?utm_source=bing&source2=google', '/', { path: 'google' }],
    ['no source2: the page path', '?source1=spring', '/title-loans/texas', { id: 'spring', path: '/title-loans/texas', [SOURCE_STORAGE_KEY]: 'spring' }],
    ['nothing: the path only, no LoansSource1', '', '/about', { path: '/about' }],
    ['empty values count as absent', '?source1=&source2=&gclid=', '/x', { path: '/x' }],
    ['gclid', '?gclid=abc', '/', { path: '/', gclid: 'abc' }],
    ['ttclid', '?ttclid=tk1', '/', { path: '/', ttclid: 'tk1' }],
    ['encoded values decoded', '?source1=spring%20sale&gclid=a%2Bb', '/', { id: 'spring sale', path: '/', gclid: 'a+b', [SOURCE_STORAGE_KEY]: 'spring sale' }],
  ])('%s', (_label, search, path, expected) => {
    const store = new MapStorage();
    rememberVisit(store, search, path);
    expect(store.plain()).toEqual(expected);
  });

  it('cuts values to what the session-trace schema accepts', () => {
    const offer = visitOffer(`?source1=${'a'.repeat(900)}&source2=${'b'.repeat(900)}&gclid=${'c'.repeat(900)}`, '/');
    expect(offer.id).toHaveLength(TRACE_LIMITS.source1);
    expect(offer.path).toHaveLength(TRACE_LIMITS.source2);
    expect(clickIdOf(offer)).toHaveLength(TRACE_LIMITS.clickId);
  });
});

describe('the stored source and the counted visit name the same campaign', () => {
  // The visit the overview counts (engine/browser/visit.ts) reads parameter names in any case and
  // a repeated one's first value; the source the lead and its apply links carry must read the same.
  it.each([
    ['names in capitals', '?UTM_Campaign=Spring%20Sale&UTM_SOURCE=Google&GCLID=g1', { id: 'Spring Sale', path: 'Google', gclid: 'g1' }],
    ['Source1 over utm_campaign, in any case', '?utm_campaign=b&Source1=a&SOURCE2=fb', { id: 'a', path: 'fb' }],
    ['a repeated name: its first value', '?utm_campaign=first&utm_campaign=second', { id: 'first', path: '/' }],
    ['a repeated name whose first value is empty: the first that is not', '?utm_campaign=&utm_campaign=fall&utm_source=%20', { id: 'fall', path: '/' }],
    ['Unicode, percent-encoded', '?utm_campaign=pr%C3%A9stamos%20%F0%9F%98%80', { id: 'préstamos 😀', path: '/' }],
  ])('%s', (_label, search, expected) => {
    const store = new MapStorage();
    rememberVisit(store, search, '/');
    expect(store.plain()).toMatchObject({ ...expected, [SOURCE_STORAGE_KEY]: expected.id });
    const visit = visitRow(
      'v0',
      { path: '/', params: landingParams(search, false) },
      { brand: 'b', host: 'h', userAgent: '', optedOut: false, now: new Date() },
    );
    expect(visit.campaign).toBe(store.plain().id);
    expect(visit.source || '/').toBe(store.plain().path);
  });
});

describe('first touch wins', () => {
  it.each([
    [
      'a second campaign keeps the first id and path; LoansSource1 follows this visit',
      ['?source1=spring&source2=google', '?source1=summer&source2=bing'],
      { id: 'spring', path: 'google', [SOURCE_STORAGE_KEY]: 'summer' },
    ],
    ['a later visit without source keeps everything', ['?utm_campaign=fall&utm_source=fb', ''], { id: 'fall', path: 'fb', [SOURCE_STORAGE_KEY]: 'fall' }],
    [
      'first visit without source: path is the first page; a later source1 still fills id',
      ['', '?source1=late'],
      { id: 'late', path: '/p0', [SOURCE_STORAGE_KEY]: 'late' },
    ],
    ['click ids are saved whenever present (the newest kept)', ['?gclid=one', '?gclid=two&ttclid=t'], { path: '/p0', gclid: 'two', ttclid: 't' }],
  ])('%s', (_label, searches, expected) => {
    const store = new MapStorage();
    searches.forEach((search, i) => rememberVisit(store, search, `/p${i}`));
    expect(store.plain()).toEqual(expected);
  });

  it('storage that throws breaks nothing', () => {
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => rememberVisit(broken, '?source1=x', '/')).not.toThrow();
    expect(() => rememberVisit(undefined, '?source1=x', '/')).not.toThrow();
  });
});

describe('click id', () => {
  it.each([
    [{ gclid: 'abc' }, 'ggabc'],
    [{ ttclid: 'xyz' }, 'ttxyz'],
    [{ gclid: 'abc', ttclid: 'xyz' }, 'ggabc'],
    [{ gclid: '', ttclid: 'xyz' }, 'ttxyz'],
    [{ gclid: null, ttclid: null }, ''],
    [{}, ''],
  ])('%j → "%s"', (ids, out) => expect(clickIdOf(ids)).toBe(out));
});

describe('session uuid', () => {
  it('is "cc" + 32 lower-case hex digits of a version 4 UUID, no dashes', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const id = sessionUuid(crypto.getRandomValues(new Uint8Array(16)));
      expect(id).toMatch(SESSION_UUID);
      expect(id).toMatch(/^cc[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(200);
  });
  it.each([
    [new Uint8Array(16).fill(0), 'cc00000000000040008000000000000000'],
    [new Uint8Array(16).fill(255), 'ccffffffffffff4fffbfffffffffffffff'],
  ])('from fixed bytes %#', (bytes, out) => expect(sessionUuid(bytes)).toBe(out));
  it('needs 16 bytes', () => expect(() => sessionUuid(new Uint8Array(8))).toThrow());
});

describe('GA client id from the _ga cookie', () => {
  it.each([
    ['_ga=GA1.1.123456789.1700000000', '123456789.1700000000'],
    ['a=1; _ga=GA1.2.42.17; b=2', '42.17'],
    ['_ga_ABC=GS1.1.x; _ga=GA1.1.5.6', '5.6'],
    ['_ga_ABC=GS1.1.1.2', ''],
    ['', ''],
    ['x_ga=GA1.1.1.2', ''],
  ])('%s → "%s"', (cookie, out) => expect(gaClientIdFromCookie(cookie)).toBe(out));
});

describe('waiting for the analytics client id (every 200 ms, 10 tries)', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    ['there at once', 1, 'cid', 0],
    ['arrives on the 4th try', 4, 'cid', 600],
    ['arrives on the 10th try', 10, 'cid', 1800],
    ['never arrives', 99, '', 1800],
  ])('%s', async (_label, arrivesOnTry, expected, elapsedMs) => {
    vi.useFakeTimers();
    const start = Date.now();
    const reads: number[] = [];
    const read = () => {
      reads.push(Date.now() - start);
      return reads.length >= arrivesOnTry ? 'cid' : '';
    };
    let result: string | undefined;
    const done = waitForClientId(read).then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(5_000);
    await done;
    expect(result).toBe(expected);
    const tries = Math.min(arrivesOnTry, 10);
    expect(reads).toEqual(Array.from({ length: tries }, (_, i) => i * 200));
    expect(reads.at(-1)).toBe(elapsedMs);
  });

  it('a reader that throws counts as "not yet"', async () => {
    vi.useFakeTimers();
    let n = 0;
    const done = waitForClientId(() => {
      if (++n < 3) throw new Error('no ga yet');
      return 'late';
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await done).toBe('late');
  });
});

describe('is a session trace due?', () => {
  it.each([
    ['click id, no uuid', { id: 's', path: '/p', gclid: 'g' }, { source1: 's', source2: '/p', clickId: 'ggg' }],
    ['ttclid', { path: '/p', ttclid: 't' }, { source1: '', source2: '/p', clickId: 'ttt' }],
    ['no click id', { id: 's', path: '/p' }, undefined],
    ['uuid stored: never again', { id: 's', path: '/p', gclid: 'g', uuid: 'cc' + '0'.repeat(32) }, undefined],
  ])('%s', (_label, stored, due) => expect(sessionTraceDue(stored)).toEqual(due));

  it.each([
    [201, true],
    [200, true],
    [400, true],
    [413, true],
    [429, false],
    [500, false],
    [503, false],
    [undefined, false],
  ])('answer %s → uuid stored: %s', (status, settled) => expect(traceSettled(status)).toBe(settled));
});

describe('the schema and the browser agree', () => {
  const props = schema.properties as Record<string, { maxLength?: number; description?: string }>;
  it.each(Object.entries(TRACE_LIMITS))('%s is capped at %i in both', (field, max) => expect(props[field]!.maxLength).toBe(max));
  it('closed, every property described and required', () => {
    expect(schema.additionalProperties).toBe(false);
    for (const [name, p] of Object.entries(props)) expect(p.description, name).toBeTruthy();
    expect([...schema.required].sort()).toEqual(Object.keys(props).sort());
  });
  it('accepts what the browser sends from a long landing URL', () => {
    const store = new MapStorage();
    rememberVisit(store, `?source1=${'a'.repeat(900)}&gclid=${'c'.repeat(900)}`, `/${'p'.repeat(900)}`);
    const due = sessionTraceDue(Object.fromEntries(Object.entries(STORAGE_KEYS).map(([n, k]) => [n, store.getItem(k)])))!;
    const body = { ...due, uuid: sessionUuid(new Uint8Array(16)), ggClientId: '1.2' };
    const validate = validatorFor(schema);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(4096);
  });
  it('accepts what the browser sends from a landing URL with control characters, and an emoji across a limit', async () => {
    const store = new MapStorage();
    // the emoji is two UTF-16 units: after 199 letters, source1's limit of 200 falls between them
    rememberVisit(store, `?source1=${'a'.repeat(199)}%F0%9F%98%80&source2=fb%00%1B%5B31m&gclid=G%0D%0A1`, '/');
    const due = sessionTraceDue(Object.fromEntries(Object.entries(STORAGE_KEYS).map(([n, k]) => [n, store.getItem(k)])))!;
    expect(due).toEqual({ source1: 'a'.repeat(199), source2: 'fb[31m', clickId: 'ggG1' });
    const ggClientId = await waitForClientId(() => '11.22\u0000', { tries: 1 });
    const body = { ...due, uuid: sessionUuid(new Uint8Array(16)), ggClientId };
    // the route's own check: JSON, no NUL or lone surrogate, the schema
    expect(parseJsonBody(Buffer.from(JSON.stringify(body)), schema)).toEqual({ ...body, ggClientId: '11.22' });
  });
  it('a trace from values an earlier script stored leaves out what the route refuses', () => {
    expect(sessionTraceDue({ id: 'spring\u0000', path: `/p\u001b${'x'.repeat(497)}\ud83d\ude00`, gclid: 'G\u0001' })).toEqual({
      source1: 'spring',
      source2: `/p${'x'.repeat(497)}`,
      clickId: 'ggG',
    });
  });
  it.each([
    ['a clickId without a known prefix', { clickId: 'xxabc' }],
    ['a bare prefix', { clickId: 'gg' }],
    ['an upper-case uuid', { uuid: 'CC' + 'A'.repeat(32) }],
    ['a dashed uuid', { uuid: 'cc' + '0'.repeat(8) + '-' + '0'.repeat(23) }],
    ['an extra field', { brand: 'other' }],
    ['a long source1', { source1: 'x'.repeat(201) }],
  ])('refuses %s', (_label, change) => {
    const body = { source1: 's', source2: '/', clickId: 'ggabc', uuid: 'cc' + '0'.repeat(32), ggClientId: '', ...change };
    expect(validatorFor(schema)(body)).toBe(false);
  });
});

describe('apply links rendered on the server get the stored source after mount', () => {
  it.each([
    ['/apply?v1=landing-page', 'spring', '/apply?v1=spring'],
    ['/apply-title-loans?v1=landing-page&requestedamount=2500', 'tt-campaign', '/apply-title-loans?v1=tt-campaign&requestedamount=2500'],
    ['/apply?x=1&v1=landing-page#top', 'a&b=c', '/apply?x=1&v1=a%26b%3Dc#top'],
    ['/apply?v1=landing-page', null, '/apply?v1=landing-page'],
    ['/apply?v1=landing-page', '  ', '/apply?v1=landing-page'],
    ['/loan-application', 'spring', '/loan-application'],
    ['https://partner.example/form?id=7', 'spring', 'https://partner.example/form?id=7'],
  ])('%s + %j → %s', (href, source, out) => expect(withApplySource(href, source)).toBe(out));
});
