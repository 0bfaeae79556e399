/**
 * POST /api/events, the route's own code on a Node server over a temp SQLite file: a visit's first
 * batch (its landing, no id) is answered 202 at once with the visit's id, issued by the server,
 * and stored by the traffic writer (visit with the host's brand, the host,
 * the referrer's host, every campaign parameter, the device class; no IP address), an opted-out
 * visitor is counted without click ids, and hostile bodies are refused with a 4xx and store nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../engine/store/db';
import { landingParams } from '../../engine/browser/visit';
import { issueVisitId } from '../../engine/traffic/visitId';
import { sharedTrafficWriter } from '../../engine/traffic/writer';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

let server: TraceServer;
let db: Store;
beforeAll(async () => {
  server = await startTraceServer({ RATE_LIMIT_EVENTS: '1000' }, '/api/events');
  db = openStore({ url: '', file: server.dbFile });
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

const send = (body: unknown, opts: Parameters<typeof post>[2] = {}) =>
  post(server.port, typeof body === 'string' ? body : JSON.stringify(body), { path: '/api/events', ...opts });
const counts = async () => {
  await sharedTrafficWriter().flush();
  const one = async (table: 'traffic_visits' | 'traffic_events' | 'traffic_hourly') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { visits: await one('traffic_visits'), events: await one('traffic_events'), rollups: await one('traffic_hourly') };
};

describe('a batch from a landing', () => {
  it('is answered 202 with the visit’s id before it is written, then stored with the brand and host of the request, the referrer’s host and every campaign parameter', async () => {
    const res = await send(
      {
        landing: {
          path: '/payday-loans/texas',
          referrerHost: 'www.facebook.com',
          params: {
            source1: 'spring',
            utm_source: 'fb',
            utm_medium: 'paid',
            utm_content: 'ad7',
            utm_campaign: 'c9',
            fbclid: 'FB1',
            msclkid: 'MS1',
            gclid: 'G1',
            ttclid: 'T1',
          },
        },
        events: [
          { type: 'page_view', path: '/payday-loans/texas' },
          { type: 'amount_used', path: '/payday-loans/texas' },
        ],
      },
      { host: 'www.ustitleloans.com', ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', ip: '203.0.113.77' },
    );
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ accepted: 2, visitId: expect.stringMatching(/^v[0-9a-f]{32}$/) });
    const id = String(res.json.visitId);
    await sharedTrafficWriter().flush();
    const visit = await db.selectFrom('traffic_visits').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(visit).toMatchObject({
      brand: 'ustitleloans',
      host: 'www.ustitleloans.com',
      landing_path: '/payday-loans/texas',
      referrer_host: 'www.facebook.com',
      source1: 'spring',
      campaign: 'spring',
      source: 'fb',
      gclid: 'G1',
      ttclid: 'T1',
      fbclid: 'FB1',
      msclkid: 'MS1',
      device: 'mobile',
      opted_out: 0,
    });
    expect(JSON.parse(visit.utm)).toEqual({ utm_campaign: 'c9', utm_content: 'ad7', utm_medium: 'paid', utm_source: 'fb' });
    expect(JSON.stringify(visit)).not.toContain('203.0.113');
    const events = await db.selectFrom('traffic_events').selectAll().where('visit_id', '=', id).orderBy('metric').execute();
    expect(events.map((e) => [e.metric, e.brand, e.campaign, e.landing, e.device])).toEqual([
      ['amount_used', 'ustitleloans', 'spring', '/payday-loans/texas', 'mobile'],
      ['page_view', 'ustitleloans', 'spring', '/payday-loans/texas', 'mobile'],
    ]);
  });

  it('stores a campaign of 500 emoji as the browser sends it from a longer landing URL, and refuses 501, counting characters as the browser does', async () => {
    // each is one character (a code point) but two UTF-16 units: the browser, the API and its message count it once
    const landing = { path: '/', params: landingParams(`?utm_campaign=${encodeURIComponent('\u{1F4B5}'.repeat(520))}`, false) };
    const res = await send({ landing, events: [{ type: 'page_view', path: '/' }] });
    expect(res.status).toBe(202);
    await sharedTrafficWriter().flush();
    const visit = await db.selectFrom('traffic_visits').select('campaign').where('id', '=', String(res.json.visitId)).executeTakeFirstOrThrow();
    expect(visit.campaign).toBe('\u{1F4B5}'.repeat(500));
    const longer = await send({ landing: { path: '/', params: { utm_campaign: '\u{1F4B5}'.repeat(501) } }, events: [{ type: 'page_view', path: '/' }] });
    expect(longer.status).toBe(400);
    expect(longer.json.problems).toEqual(['/landing/params/utm_campaign: is too long: at most 500 characters (it has 501)']);
  });

  it('later batches of the visit take its landing’s dimensions; a second landing for the same visit id changes nothing', async () => {
    const first = await send({ landing: { path: '/apply', params: { source1: 'first' } }, events: [{ type: 'apply_view', path: '/apply' }] });
    const id = String(first.json.visitId);
    await sharedTrafficWriter().flush();
    await send({ visitId: id, landing: { path: '/other', params: { source1: 'second' } }, events: [{ type: 'step_completed', step: 1, path: '/apply' }] });
    await send({ visitId: id, events: [{ type: 'state_refused', state: 'NY', path: '/apply' }] });
    await sharedTrafficWriter().flush();
    const rows = await db
      .selectFrom('traffic_events')
      .select(['metric', 'campaign', 'landing', 'state'])
      .where('visit_id', '=', id)
      .orderBy('metric')
      .execute();
    expect(rows).toEqual([
      { metric: 'apply_view', campaign: 'first', landing: '/apply', state: '' },
      { metric: 'state_refused', campaign: 'first', landing: '/apply', state: 'NY' },
      { metric: 'step_1', campaign: 'first', landing: '/apply', state: '' },
    ]);
    expect((await db.selectFrom('traffic_visits').select('landing_path').where('id', '=', id).execute()).map((r) => r.landing_path)).toEqual(['/apply']);
  });

  it('a visitor who opted out (Global Privacy Control, or the Do-Not-Sell cookie) is counted without click ids', async () => {
    for (const headers of [{ 'sec-gpc': '1' }, { cookie: 'a=b; privacy_opt_out=1' }] as Record<string, string>[]) {
      const res = await send(
        {
          landing: { path: '/', params: { gclid: 'G', fbclid: 'F', ttclid: 'T', msclkid: 'M', utm_source: 'g' } },
          events: [{ type: 'page_view', path: '/' }],
        },
        { headers },
      );
      expect(res.status).toBe(202);
      const id = String(res.json.visitId);
      await sharedTrafficWriter().flush();
      const v = await db.selectFrom('traffic_visits').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect([v.gclid, v.fbclid, v.ttclid, v.msclkid, v.opted_out, v.source]).toEqual(['', '', '', '', 1, 'g']);
    }
  });
});

const ok = { visitId: issueVisitId('ipaydayloans'), events: [{ type: 'page_view', path: '/' }] };
const ev = (e: Record<string, unknown>) => ({ ...ok, events: [e] });
const land = (l: unknown) => ({ ...ok, landing: l });
const HOSTILE: [string, unknown, { type?: string; method?: string; host?: string }?][] = [
  ['not JSON', '{"visitId":'],
  ['a form post', 'visitId=x', { type: 'application/x-www-form-urlencoded' }],
  ['text/plain', JSON.stringify(ok), { type: 'text/plain' }],
  ['GET', '', { method: 'GET' }],
  ['an unknown host', ok, { host: 'evil.example' }],
  ['an array', [ok]],
  ['null', null],
  ['a number', 42],
  ['no visitId and no landing', { events: ok.events }],
  ['a visitId the server did not issue', { ...ok, visitId: 'v' + 'a'.repeat(32) }],
  ['another brand’s visitId', { ...ok, visitId: issueVisitId('ustitleloans') }],
  ['visitId upper case', { ...ok, visitId: 'V' + 'A'.repeat(32) }],
  ['visitId too short', { ...ok, visitId: 'v123' }],
  ['visitId with markup', { ...ok, visitId: 'v<script>' + 'a'.repeat(24) }],
  ['visitId a number', { ...ok, visitId: 7 }],
  ['no events', { visitId: ok.visitId }],
  ['empty events', { ...ok, events: [] }],
  ['51 events', { ...ok, events: Array.from({ length: 51 }, () => ok.events[0]) }],
  ['events an object', { ...ok, events: { 0: ok.events[0] } }],
  ['an unknown type', ev({ type: 'purchase', path: '/' })],
  ['a server-only type: stored', ev({ type: 'stored', path: '/' })],
  ['a server-only type: sale', ev({ type: 'sale', path: '/' })],
  ['step_completed without step', ev({ type: 'step_completed', path: '/' })],
  ['step on a page view', ev({ type: 'page_view', path: '/', step: 1 })],
  ['step 0', ev({ type: 'step_completed', path: '/', step: 0 })],
  ['step 4', ev({ type: 'step_completed', path: '/', step: 4 })],
  ['step as text', ev({ type: 'step_completed', path: '/', step: '1' })],
  ['step 1.5', ev({ type: 'step_completed', path: '/', step: 1.5 })],
  ['state refused without state', ev({ type: 'state_refused', path: '/' })],
  ['state in lower case', ev({ type: 'state_refused', path: '/', state: 'ny' })],
  ['state on a page view', ev({ type: 'page_view', path: '/', state: 'NY' })],
  ['a path without a leading slash', ev({ type: 'page_view', path: 'https://evil.example/' })],
  ['a path with a space', ev({ type: 'page_view', path: '/a b' })],
  ['a protocol-relative path', ev({ type: 'page_view', path: '//evil.example/x' })],
  ['a protocol-relative path with a backslash', ev({ type: 'page_view', path: '/\\evil.example/x' })],
  ['a protocol-relative landing', land({ path: '//evil.example/x' })],
  ['visitId given twice', `{"visitId":"${ok.visitId}","visitId":"v${'f'.repeat(32)}","events":${JSON.stringify(ok.events)}}`],
  ['an event field given twice (once escaped)', `{"visitId":"${ok.visitId}","events":[{"type":"page_view","path":"/","p\\u0061th":"/x"}]}`],
  ['a path of 501 characters', ev({ type: 'page_view', path: '/' + 'x'.repeat(500) })],
  ['an extra event field', ev({ type: 'page_view', path: '/', email: 'a@b.c' })],
  ['an extra top-level field', { ...ok, ip: '1.2.3.4' }],
  ['a landing without a path', land({ params: {} })],
  ['a referrer with a path', land({ path: '/', referrerHost: 'evil.example/x?q=1' })],
  ['a referrer with a scheme', land({ path: '/', referrerHost: 'https://evil.example' })],
  ['an unknown parameter', land({ path: '/', params: { email: 'a@b.c' } })],
  ['an upper-case utm key', land({ path: '/', params: { UTM_SOURCE: 'x' } })],
  ['a parameter of 501 characters', land({ path: '/', params: { gclid: 'x'.repeat(501) } })],
  ['a parameter as a number', land({ path: '/', params: { source1: 1 } })],
  // PostgreSQL refuses a NUL: stored, it would fail the writer's batch and every other visitor's events in it
  ['a path with a NUL', ev({ type: 'page_view', path: '/a\u0000b' })],
  ['a landing path with a terminal escape', land({ path: '/\u001b[31mred' })],
  ['a parameter with a NUL', land({ path: '/', params: { utm_source: 'fb\u0000' } })],
  ['a parameter with a line break', land({ path: '/', params: { source1: 'a\r\n[traffic] forged line' } })],
  ['a body over 16 KB', { ...ok, landing: { path: '/', params: { utm_a: 'x'.repeat(17_000) } } }],
];

describe('hostile bodies', () => {
  it('a key given twice is refused with where it is, whichever copy the schema would have checked', async () => {
    const res = await send(`{"visitId":"${ok.visitId}","events":[${JSON.stringify(ok.events[0])},{"type":"page_view","path":"/a","type":"submitted"}]}`);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('The body is not valid: the key at /events/1/type is given twice');
  });
  it(`each of ${HOSTILE.length} is refused with a 4xx and a reason, and nothing is stored`, async () => {
    // the body they are made from is a good one: each is refused for what was changed
    expect((await send(ok)).status).toBe(202);
    const before = await counts();
    for (const [name, body, opts] of HOSTILE) {
      const res = await send(body, opts);
      expect([name, res.status >= 400 && res.status < 500]).toEqual([name, true]);
      expect([name, typeof res.json.error]).toEqual([name, 'string']);
    }
    expect(await counts()).toEqual(before);
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });
});
