import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  cspHeaderName,
  errorReportOrigin,
  INLINE_SCRIPT_HASHES,
  inlineScripts,
  originOf,
  sha256Source,
} from '../../engine/site/csp.mjs';
import { REPORTER_SCRIPT } from '../../engine/errors/reporterScript.mjs';
import { pagePolicy } from '../../engine/site/pagePolicy';
import { MAX_OUTLINED_BOUNDARIES } from '../../engine/site/reactInlineScripts.mjs';

const directives = (policy: string): Record<string, string[]> => Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
const reporterHash = `'sha256-${createHash('sha256').update(REPORTER_SCRIPT).digest('base64')}'`;

describe('contentSecurityPolicy', () => {
  it('by default allows our own origin and the inline error reporter by its hash, nothing third-party, no nonce, no unsafe script', () => {
    const d = directives(contentSecurityPolicy());
    expect(d['default-src']).toEqual(["'self'"]);
    expect(d['script-src']!.slice(0, 2)).toEqual(["'self'", reporterHash]);
    expect(d['script-src']!.slice(2).every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s))).toBe(true);
    expect(d['connect-src']).toEqual(["'self'"]);
    expect(d['img-src']).toEqual(["'self'", 'data:']);
    expect(d['frame-src']).toEqual(["'none'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['frame-ancestors']).toEqual(["'self'"]);
    expect(contentSecurityPolicy()).not.toMatch(/nonce|unsafe-eval|'unsafe-inline'.*script|script-src[^;]*unsafe-inline/);
    expect(INLINE_SCRIPT_HASHES[0]).toBe(reporterHash);
  });

  it.each([
    [
      'tag manager',
      { tagManager: true },
      {
        'script-src': ['https://www.googletagmanager.com'],
        'connect-src': ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
        'img-src': ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
      },
    ],
    [
      'pixel',
      { pixel: true },
      { 'script-src': ['https://analytics.tiktok.com'], 'connect-src': ['https://analytics.tiktok.com'], 'img-src': ['https://analytics.tiktok.com'] },
    ],
    ['geocoder', { connect: ['https://api.mapbox.com'] }, { 'script-src': [], 'connect-src': ['https://api.mapbox.com'], 'img-src': [] }],
    [
      'form loader',
      { scripts: ['https://forms.example'], frames: ['https://forms.example'] },
      { 'script-src': ['https://forms.example'], 'connect-src': [], 'img-src': [], 'frame-src': ['https://forms.example'] },
    ],
  ])('adds exactly what the %s needs', (_name, page, added) => {
    const base = directives(contentSecurityPolicy());
    const d = directives(contentSecurityPolicy(page));
    for (const [name, extra] of Object.entries(added)) {
      const before = name === 'frame-src' ? [] : base[name]!;
      if (name === 'script-src') expect(d[name]!.slice(0, before.length)).toEqual(before);
      expect(d[name], name).toEqual([...before, ...extra]);
    }
  });

  it('lists a source once when two parts need it', () => {
    const d = directives(contentSecurityPolicy({ tagManager: true, pixel: true, connect: ['https://analytics.tiktok.com'] }));
    expect(d['connect-src']!.filter((s) => s === 'https://analytics.tiktok.com')).toHaveLength(1);
  });

  it.each([
    [undefined, 'Content-Security-Policy'],
    ['enforce', 'Content-Security-Policy'],
    ['report-only', 'Content-Security-Policy-Report-Only'],
    [' Report-Only ', 'Content-Security-Policy-Report-Only'],
    ['off', undefined],
  ])('CSP_MODE=%s → %s', (mode, header) => expect(cspHeaderName(mode)).toBe(header));

  it.each([
    ['https://api.mapbox.com/geocoding/v5', 'https://api.mapbox.com'],
    ['http://127.0.0.1:4010/geocoding/v5', 'http://127.0.0.1:4010'],
    ['/api/geocoding/v5', undefined],
    ['javascript:alert(1)', undefined],
    [undefined, undefined],
  ])('originOf(%s) = %s', (url, origin) => expect(originOf(url)).toBe(origin));
});

describe('pagePolicy: what a brand page uses', () => {
  const config = { theme: '#000000', progressColor: '#000000', pageTitle: 'X', mapKey: 'pk.x', siteKey: 's', layout: 'full' as const };
  const search = { blocks: [{ type: 'hero', heading: 'H' }, { type: 'locationSearch' }] } as never;
  const plain = { blocks: [{ type: 'hero', heading: 'H' }] } as never;

  it.each([
    ['no third parties', {}, plain, {}, { tagManager: false, pixel: false }],
    ['a container', { gtmId: 'GTM-ABC1234' }, plain, {}, { tagManager: true, pixel: false }],
    ['a pixel', { tiktokPixelId: 'C4ABCDEFGHIJKLMN0123' }, plain, {}, { tagManager: false, pixel: true }],
    ['the embedded geocoder (same origin)', {}, search, {}, { tagManager: false, pixel: false }],
    ['Mapbox, on a page with location search', {}, search, { GEOCODER: 'mapbox' }, { tagManager: false, pixel: false, connect: ['https://api.mapbox.com'] }],
    [
      'Mapbox at another address',
      {},
      search,
      { GEOCODER: 'mapbox', MAPBOX_GEOCODING_URL: 'http://127.0.0.1:4011/geocoding/v5' },
      { tagManager: false, pixel: false, connect: ['http://127.0.0.1:4011'] },
    ],
    ['Mapbox, on a page without a geocoder block', {}, plain, { GEOCODER: 'mapbox' }, { tagManager: false, pixel: false }],
    [
      'a third-party application form: its loader and the address it posts leads to',
      {},
      {
        blocks: [
          { type: 'hero', heading: 'H' },
          {
            type: 'applyForm',
            provider: 'script',
            script: { src: 'https://forms.partner.test/loader.js', containerId: 'f', campaign: 'theme', leadUrl: 'https://leads.partner.test/post' },
          },
        ],
      } as never,
      {},
      { tagManager: false, pixel: false, scripts: ['https://forms.partner.test'], connect: ['https://forms.partner.test', 'https://leads.partner.test'] },
    ],
    [
      'the embedded application form: nothing from outside',
      {},
      {
        blocks: [
          { type: 'hero', heading: 'H' },
          { type: 'applyForm', loanKind: 'general' },
        ],
      } as never,
      {},
      { tagManager: false, pixel: false },
    ],
  ])('%s', (_name, extra, layout, env, expected) => {
    expect(pagePolicy({ config: { ...config, ...extra } }, layout, env)).toEqual(expected);
  });

  it('the policy of a page is the pure function of those parts', () => {
    // as server.mjs builds the header from the front door's decision
    expect(contentSecurityPolicy(pagePolicy({ config: { ...config, gtmId: 'GTM-ABC1234' } }, plain, {}))).toBe(
      contentSecurityPolicy({ tagManager: true, pixel: false }),
    );
  });
});

describe("React's inline scripts for outlined Suspense boundaries", () => {
  it('every one the installed React writes (up to the limit) is allowed by hash', async () => {
    const { renderToReadableStream } = await import('react-dom/server.edge');
    const { createElement: h, Suspense } = await import('react');
    const big = 'x'.repeat(600);
    const boundaries = Array.from({ length: MAX_OUTLINED_BOUNDARIES }, (_, i) => h(Suspense, { key: i, fallback: null }, h('p', null, big)));
    const stream = await renderToReadableStream(h('div', null, ...boundaries), { progressiveChunkSize: 0 });
    await stream.allReady;
    const html = await new Response(stream).text();
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(MAX_OUTLINED_BOUNDARIES + 1);
    for (const text of scripts) expect(INLINE_SCRIPT_HASHES, text.slice(-40)).toContain(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
  });
});

describe("the build's inline scripts", () => {
  it('are the executable inline scripts of a page: not src scripts, not JSON or JSON-LD data', () => {
    const html =
      '<script data-release="x">one()</script><script src="/a.js" defer=""></script><script id="__NEXT_DATA__" type="application/json">{}</script><script type="application/ld+json">{}</script><script>(globalThis.TURBOPACK||[]).push(1)</script><script type="module">m()</script>';
    expect(inlineScripts(html)).toEqual(['one()', '(globalThis.TURBOPACK||[]).push(1)', 'm()']);
  });

  it('are allowed by the hashes passed in (server.mjs hashes the prerendered pages)', () => {
    const extra = sha256Source('(globalThis.TURBOPACK||[]).push(1)');
    expect(contentSecurityPolicy({}, [extra])).toContain(extra);
    expect(contentSecurityPolicy({}, [])).not.toContain(extra);
  });
});

describe('the error-report DSN in connect-src', () => {
  it('is exactly the DSN host’s origin (scheme, host and port; no key, no path), on the base and every page policy', () => {
    expect(errorReportOrigin('https://abc@o1.ingest.sentry.io/4505')).toBe('https://o1.ingest.sentry.io');
    expect(errorReportOrigin('http://k@127.0.0.1:9000/sub/3')).toBe('http://127.0.0.1:9000');
    const origin = errorReportOrigin('https://abc@o1.ingest.sentry.io/4505');
    for (const page of [{}, { tagManager: true, pixel: true }, { connect: ['https://api.mapbox.com'] }]) {
      const connect = directives(contentSecurityPolicy(page, [], origin))['connect-src']!;
      expect(connect.slice(0, 2)).toEqual(["'self'", 'https://o1.ingest.sentry.io']);
      expect(connect.join(' ')).not.toMatch(/abc|4505/);
    }
  });

  it('adds nothing without a DSN, or with something that is not one', () => {
    for (const dsn of [undefined, '', 'not a dsn', 'https://o1.ingest.sentry.io/4505']) {
      expect(errorReportOrigin(dsn)).toBeUndefined();
      expect(directives(contentSecurityPolicy({}, [], errorReportOrigin(dsn)))['connect-src']).toEqual(["'self'"]);
    }
  });
});
