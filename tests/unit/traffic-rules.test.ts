/**
 * First-party visit rules as tables: device classes, the referrer's host, a landing as a stored
 * visit (click ids dropped when opted out), the browser's visit decision and landing parameters,
 * the funnel event of an apply-form move, and batching.
 */
import { describe, expect, it } from 'vitest';
import { batchesOf, formMoveEvent, landingParams, parseStoredVisit, referrerHostOf, storedVisitFor, visitFor, VISIT_IDLE_MS } from '../../engine/browser/visit';
import { deviceClass, metricOf, referrerHost, visitRow } from '../../engine/store/trafficRules';

describe('deviceClass', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 Chrome/120 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15', 'tablet'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15', 'desktop'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'bot'],
    ['Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/120', 'bot'],
    ['curl/8.5.0', 'bot'],
    ['', 'other'],
    ['something else', 'other'],
  ])('%s → %s', (ua, want) => expect(deviceClass(ua)).toBe(want));

  // The user agents their owners publish (Chrome's version as one real one). Several are a phone's or
  // a desktop browser's with the crawler's name at the end: a visit from one is no person's.
  const nexus = 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
  const windows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
  it.each([
    // Google
    `${nexus} (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`,
    `${nexus} (compatible; Google-InspectionTool/1.0;)`,
    'Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)',
    `${nexus} (compatible; GoogleOther)`,
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GoogleOther) Chrome/120.0.0.0 Safari/537.36',
    'GoogleOther-Image/1.0',
    'GoogleOther-Video/1.0',
    'Googlebot-Image/1.0',
    'Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Linux; Android 5.0; SM-G920A) AppleWebKit (KHTML, like Gecko) Chrome Mobile Safari (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)',
    'AdsBot-Google (+http://www.google.com/adsbot.html)',
    'Mediapartners-Google',
    'APIs-Google (+https://developers.google.com/webmasters/APIs-Google.html)',
    'FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)',
    'Mozilla/5.0 (Linux; Android 7.0; SM-G930V Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/59.0.3071.125 Mobile Safari/537.36 (compatible; Google-Read-Aloud; +https://support.google.com/webmasters/answer/1061943)',
    'Mozilla/5.0 (compatible; Google-Site-Verification/1.0)',
    'Google-Safety',
    'Mozilla/5.0 (Linux; Android 11; Pixel 2; DuplexWeb-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.193 Mobile Safari/537.36',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.75 Safari/537.36 Google Favicon',
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
    // Bing
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
    `${nexus} (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)`,
    'Mozilla/5.0 (compatible; adidxbot/2.0; +http://www.bing.com/bingbot.htm)',
    `${windows} BingPreview/1.0b`,
    `${windows} Edg/120.0.0.0 MicrosoftPreview/2.0 +https://aka.ms/MicrosoftPreview`,
    // Apple
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    // Meta
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'facebookexternalhit/1.1',
    'facebookcatalog/1.0',
    'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    'meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    'meta-externalads/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    'meta-webindexer/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    // SEO tools
    'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
    'Mozilla/5.0 (compatible; AhrefsSiteAudit/6.1; +http://ahrefs.com/robot/site-audit)',
    'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
    'Mozilla/5.0 (compatible; SiteAuditBot/0.97; +http://www.semrush.com/bot.html)',
    'Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)',
    'Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)',
    'rogerbot/1.2 (https://moz.com/help/guides/moz-procedures/what-is-rogerbot, rogerbot-crawler+aardwolf-production-crawler-01@moz.com)',
    'Screaming Frog SEO Spider/19.0',
    `${windows} Sitebulb/7.0`,
    'Mozilla/5.0 (compatible; DataForSeoBot/1.0; +https://dataforseo.com/dataforseo-bot)',
    'Mozilla/5.0 (compatible; serpstatbot/2.1; +https://serpstatbot.com/)',
    'Mozilla/5.0 (compatible; BLEXBot/1.0; +http://webmeup-crawler.com/)',
    'Mozilla/5.0 (compatible; Barkrowler/0.9; +https://babbar.tech/crawler)',
    'Mozilla/5.0 (compatible; DuckDuckBot-Https/1.1; https://duckduckgo.com/duckduckbot)',
    'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  ])('a crawler’s published user agent is a bot: %s', (ua) => expect(deviceClass(ua)).toBe('bot'));

  it.each([
    [nexus, 'mobile'],
    [windows, 'desktop'],
    // the Google app, Gmail's and Facebook's in-app browsers: people, not Google's or Meta's fetchers
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/300.0.598994205 Mobile/15E148 Safari/604.1',
      'mobile',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/121.0.6167.178 Mobile Safari/537.36 GoogleApp/15.6',
      'mobile',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/450.0.0.38.108;FBBV/564431005]',
      'mobile',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 [FB_IAB/FB4A;FBAV/450.0.0.44.109;]',
      'tablet',
    ],
    // a phone maker whose name ends in "bot"
    ['Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 11; CUBOT TAB 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Safari/537.36', 'tablet'],
  ])('a person’s browser is not a bot: %s → %s', (ua, want) => expect(deviceClass(ua)).toBe(want));

  it('classes a header of one word repeated up to the header limit as it would a short one', () => {
    // what it costs is the bench's (scripts/bench/userAgentClass.ts, producer `user agent class`): here, only the answer
    const size = 16 * 1024;
    expect(deviceClass(`${'android '.repeat(size / 8 - 1)}mobile`)).toBe('mobile');
    expect(deviceClass(`${'android '.repeat(size / 8 - 1)}tablet`)).toBe('tablet');
  });
});

describe('the referrer, as its host only', () => {
  it.each([
    ['https://www.google.com/search?q=payday+loans', 'www.google.com'],
    ['www.facebook.com', 'www.facebook.com'],
    ['WWW.BING.COM:443', 'www.bing.com'],
    ['javascript:alert(1)', ''],
    ['', ''],
    [undefined, ''],
  ])('server: %s → %s', (ref, want) => expect(referrerHost(ref)).toBe(want));
  it.each([
    ['https://www.google.com/search?q=x', 'ipaydayloans.com', 'www.google.com'],
    ['https://ipaydayloans.com/payday-loans', 'ipaydayloans.com', ''],
    ['android-app://com.google.android.gm/', 'x.com', ''],
    ['', 'x.com', ''],
  ])('browser: %s on %s → %s', (ref, own, want) => expect(referrerHostOf(ref, own)).toBe(want));
});

describe('a landing as a stored visit', () => {
  const landing = { path: '/payday-loans', referrerHost: 'm.facebook.com', params: { utm_campaign: 'spring', utm_source: 'fb', fbclid: 'F', gclid: 'G' } };
  const ctx = { brand: 'ipaydayloans', host: 'ipaydayloans.com', userAgent: 'Mozilla/5.0 (Windows NT 10.0)', now: new Date('2025-03-01T10:20:30.000Z') };
  it('keeps the campaign as source1 else utm_campaign, the source as source2 else utm_source, and the click ids', () => {
    const row = visitRow('v1', landing, { ...ctx, optedOut: false });
    expect(row).toMatchObject({
      campaign: 'spring',
      source: 'fb',
      fbclid: 'F',
      gclid: 'G',
      device: 'desktop',
      opted_out: 0,
      created_at: '2025-03-01T10:20:30.000Z',
    });
    expect(Object.keys(row)).not.toContain('ip');
    expect(visitRow('v1', { ...landing, params: { ...landing.params, source1: 'own', source2: 'p2' } }, { ...ctx, optedOut: false })).toMatchObject({
      campaign: 'own',
      source: 'p2',
    });
  });
  it('drops every click id when the visitor opted out, and keeps the rest', () => {
    expect(visitRow('v1', landing, { ...ctx, optedOut: true })).toMatchObject({
      gclid: '',
      fbclid: '',
      ttclid: '',
      msclkid: '',
      opted_out: 1,
      campaign: 'spring',
    });
  });
  it.each([
    [{ type: 'page_view' as const }, 'page_view'],
    [{ type: 'step_completed' as const, step: 2 }, 'step_2'],
    [{ type: 'sale' as const, outcome: 'returned' as const }, 'sale_returned'],
    [{ type: 'sale' as const }, 'sale_sold'],
  ])('metric of %j is %s', (e, want) => expect(metricOf(e)).toBe(want));
});

describe('the browser’s visit', () => {
  const id = () => 'vnew';
  const stored = { id: 'v' + '1'.repeat(32), last: 1_000_000, sig: '' };
  it.each([
    ['no stored visit', undefined, 1_000_000, {}, true],
    ['the same tab a minute later', stored, 1_060_000, {}, false],
    ['after 30 minutes idle', stored, 1_000_000 + VISIT_IDLE_MS, {}, true],
    ['a new ad click', stored, 1_060_000, { gclid: 'x' }, true],
    ['a reload of the same ad landing', { ...stored, sig: JSON.stringify({ gclid: 'x' }) }, 1_060_000, { gclid: 'x' }, false],
  ])('%s → new visit: %s', (_name, s, now, params, isNew) => expect(visitFor(s, now, params, id).isNew).toBe(isNew));
  it('a tab opened without a visit of its own (a link opened in a new tab) continues the browser’s latest, while it lasts and without other campaign parameters', () => {
    const ad = { ...stored, sig: JSON.stringify({ utm_campaign: 'spring' }) };
    const other = { id: 'v' + '2'.repeat(32), last: 1_050_000, sig: '' };
    // the apply page opened from the ad's landing in a new tab (its URL carries v1, no campaign parameter)
    expect(visitFor(storedVisitFor(null, JSON.stringify(ad)), 1_060_000, {}, id)).toEqual({ visit: { ...ad, last: 1_060_000 }, isNew: false });
    // the tab's own visit comes first
    expect(storedVisitFor(JSON.stringify(other), JSON.stringify(ad))).toEqual(other);
    // the browser's latest ended, or the new tab came from another ad: a new visit
    expect(visitFor(storedVisitFor(null, JSON.stringify(ad)), 1_000_000 + VISIT_IDLE_MS, {}, id).isNew).toBe(true);
    expect(visitFor(storedVisitFor(null, JSON.stringify(ad)), 1_060_000, { utm_campaign: 'fall' }, id).isNew).toBe(true);
    expect(storedVisitFor(null, null)).toBeUndefined();
  });
  it('reads back only a well-formed stored visit', () => {
    expect(parseStoredVisit(JSON.stringify(stored))).toEqual(stored);
    for (const bad of [null, '', '{', '{"id":"x","last":1,"sig":""}', JSON.stringify({ ...stored, last: '1' })]) expect(parseStoredVisit(bad)).toBeUndefined();
  });
  it('takes campaign parameters only (every utm_*, click ids unless opted out), trimmed and cut', () => {
    const q = '?utm_source=+fb+&utm_xyz=1&gclid=G&fbclid=F&email=a@b.c&source1=s1&q=loans&utm_empty=&source2=' + 'x'.repeat(600);
    expect(landingParams(q, false)).toEqual({ utm_source: 'fb', utm_xyz: '1', gclid: 'G', fbclid: 'F', source1: 's1', source2: 'x'.repeat(500) });
    expect(landingParams(q, true)).toEqual({ utm_source: 'fb', utm_xyz: '1', source1: 's1', source2: 'x'.repeat(500) });
  });
  it('cuts a campaign value at 500 characters as the events API counts them, so an emoji or CJK-supplement character counts once and is never halved', () => {
    const q = (v: string) => `?utm_campaign=${encodeURIComponent(v)}`;
    expect(landingParams(q('\u{20000}'.repeat(300)), false)).toEqual({ utm_campaign: '\u{20000}'.repeat(300) });
    expect(landingParams(q(`a${'\u{1F4B5}'.repeat(600)}`), false)).toEqual({ utm_campaign: `a${'\u{1F4B5}'.repeat(499)}` });
  });
  it('drops control characters from campaign values (the server refuses them), and a value of nothing else', () => {
    expect(landingParams('?utm_source=fb%00x&source1=%0D%0Aspring%1B&gclid=%00%7F', false)).toEqual({ utm_source: 'fbx', source1: 'spring' });
  });
  it('sends the landing with the first batch only, 50 events a batch', () => {
    const events = Array.from({ length: 120 }, () => ({ type: 'page_view' as const, path: '/' }));
    const batches = batchesOf('v1', events, { path: '/' });
    expect(batches.map((b) => [b.events.length, !!b.landing])).toEqual([
      [50, true],
      [50, false],
      [20, false],
    ]);
  });
  it.each([
    ['request', 'contact', undefined, { type: 'step_completed', step: 1 }],
    ['contact', 'income', undefined, { type: 'step_completed', step: 2 }],
    ['request', 'unavailable', 'ny', { type: 'state_refused', state: 'NY' }],
    ['request', 'unavailable', undefined, undefined],
    ['contact', 'request', undefined, undefined],
    ['income', 'sent', undefined, undefined],
  ])('apply form %s → %s counts %j', (from, to, state, want) => expect(formMoveEvent(from, to, state)).toEqual(want));
});
