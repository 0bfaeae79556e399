/**
 * Third-party hosts in the e2e tests: intercepted in the browser and answered with small local
 * scripts that behave like the real ones — never reached.
 * - Tag manager (www.googletagmanager.com/gtm.js): reads the dataLayer it finds, keeps watching
 *   it, sets the analytics _ga cookie and sends a GA4-style collect request per pageview.
 * - Pixel (analytics.tiktok.com/i18n/pixel/events.js): takes over the ttq queue the loader left
 *   and sends one event request per page() call, queued or later.
 * Also: every Content-Security-Policy violation of the page, collected from the first script on.
 */
import type { BrowserContext, Page, Request } from '@playwright/test';

const GTM_STUB = `(function(){
  var dl = window.dataLayer = window.dataLayer || [];
  var id = (document.currentScript && new URL(document.currentScript.src).searchParams.get('id')) || '';
  window.google_tag_manager = window.google_tag_manager || {}; window.google_tag_manager[id] = { dataLayer: dl };
  if (!/(^|; )_ga=/.test(document.cookie)) document.cookie = '_ga=GA1.1.' + Math.floor(Math.random() * 1e9) + '.' + Math.floor(Date.now() / 1000) + '; path=/';
  function seen(e) { if (e && e.event === 'pageview') navigator.sendBeacon('https://region1.google-analytics.com/g/collect?v=2&tid=' + id + '&en=page_view&dl=' + encodeURIComponent(e.page)); }
  dl.forEach(seen);
  var push = dl.push; dl.push = function () { var r = push.apply(dl, arguments); for (var i = 0; i < arguments.length; i++) seen(arguments[i]); return r; };
  dl.push({ event: 'gtm.load' });
})();`;

const PIXEL_STUB = `(function(){
  var ttq = window.ttq; var sdkid = new URL(document.currentScript.src).searchParams.get('sdkid');
  function send(name) { fetch('https://analytics.tiktok.com/api/v2/pixel?sdkid=' + sdkid + '&event=' + name + '&url=' + encodeURIComponent(location.href), { method: 'POST', mode: 'no-cors' }); }
  var queued = ttq.slice(); ttq.length = 0;
  ttq.page = function () { send('Pageview'); }; ttq.track = function (n) { send(n); };
  queued.forEach(function (c) { if (c[0] === 'page') send('Pageview'); else if (c[0] === 'track') send(c[1]); });
})();`;

export const THIRD_PARTY_HOSTS =
  /^https:\/\/(www\.googletagmanager\.com|[a-z0-9-]+\.google-analytics\.com|[a-z0-9-]+\.analytics\.google\.com|analytics\.tiktok\.com)\//;

export const isGtmScript = (r: Request) => r.url().startsWith('https://www.googletagmanager.com/gtm.js');
export const isPixelScript = (r: Request) => r.url().startsWith('https://analytics.tiktok.com/i18n/pixel/events.js');
export const isPixelEvent = (r: Request) => r.url().startsWith('https://analytics.tiktok.com/api/v2/pixel');

export interface Recorded {
  requests: Request[];
  violations: () => Promise<string[]>;
}

/** Intercepts the third parties for the whole context and records their requests and the page's CSP violations. */
export async function fakeThirdParties(context: BrowserContext): Promise<{ requests: Request[] }> {
  const requests: Request[] = [];
  await context.route(THIRD_PARTY_HOSTS, async (route) => {
    const req = route.request();
    requests.push(req);
    const url = req.url();
    if (url.startsWith('https://www.googletagmanager.com/gtm.js')) return route.fulfill({ contentType: 'text/javascript', body: GTM_STUB });
    if (url.startsWith('https://analytics.tiktok.com/i18n/pixel/events.js')) return route.fulfill({ contentType: 'text/javascript', body: PIXEL_STUB });
    return route.fulfill({ status: 204, headers: { 'access-control-allow-origin': '*' } });
  });
  await context.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__cspViolations.push(`${e.effectiveDirective} ${e.blockedURI || '(inline)'} ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
    );
  });
  return { requests };
}

export const cspViolations = (page: Page) => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

export const dataLayerEvents = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).map((e) =>
      Object.prototype.toString.call(e) === '[object Arguments]' ? Array.from(e as ArrayLike<unknown>) : e,
    ),
  );

export const pageviews = async (page: Page) =>
  (await dataLayerEvents(page))
    .filter((e): e is { event: string; page: string } => !!e && typeof e === 'object' && (e as { event?: unknown }).event === 'pageview')
    .map((e) => e.page);
