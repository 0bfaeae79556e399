/**
 * The short-video ad platform's (TikTok) pixel: its published loader, as a module fetched only
 * by general brands' pages after they are interactive (blocks/chrome/thirdParties.ts). `ttq` is
 * a queue until events.js arrives and takes it over; each call of the returned function counts
 * a page view.
 */
export const PIXEL_SCRIPT = 'https://analytics.tiktok.com/i18n/pixel/events.js';

const METHODS = [
  'page',
  'track',
  'identify',
  'instances',
  'debug',
  'on',
  'off',
  'once',
  'ready',
  'alias',
  'group',
  'enableCookie',
  'disableCookie',
  'holdConsent',
  'revokeConsent',
  'grantConsent',
];

type Queue = unknown[] &
  Record<string, unknown> & { _i?: Record<string, unknown[] & Record<string, unknown>>; _t?: Record<string, number>; _o?: Record<string, unknown> };

export function startPixel(pixelId: string): () => void {
  const w = window as unknown as Record<string, unknown>;
  w.TiktokAnalyticsObject = 'ttq';
  const ttq = (w.ttq = (w.ttq as Queue | undefined) || ([] as unknown as Queue)) as Queue;
  const defer = (target: Queue, method: string) => {
    target[method] = (...args: unknown[]) => target.push([method, ...args]);
  };
  ttq.methods = METHODS;
  ttq.setAndDefer = defer;
  for (const m of METHODS) defer(ttq, m);
  ttq.instance = (id: string) => {
    const instance = (ttq._i?.[id] ?? []) as Queue;
    for (const m of METHODS) defer(instance, m);
    return instance;
  };
  ttq._i = ttq._i || {};
  ttq._i[pixelId] = Object.assign([] as unknown as Queue, { _u: PIXEL_SCRIPT });
  ttq._t = ttq._t || {};
  ttq._t[pixelId] = Date.now();
  ttq._o = ttq._o || {};
  ttq._o[pixelId] = {};
  const script = document.createElement('script');
  script.async = true;
  script.src = `${PIXEL_SCRIPT}?sdkid=${encodeURIComponent(pixelId)}&lib=ttq`;
  document.head.appendChild(script);
  return () => (w.ttq as { page: () => void }).page();
}
