/**
 * The visitor's privacy choice ("Do Not Sell or Share My Personal Information"): opted out when
 * the browser sends Global Privacy Control (Sec-GPC: 1) or the visitor chose it on the opt-out
 * page (first-party cookie). Recorded with any lead; an opted-out visitor's click ids are not
 * passed to third parties.
 */

export const OPT_OUT_COOKIE = 'privacy_opt_out';

/** The opt-out cookie in a Cookie header (or document.cookie). */
const OPTED_OUT_COOKIE = new RegExp(`(?:^|;\\s*)${OPT_OUT_COOKIE}=1(?:;|$)`);

export function privacyOptedOut(headers: { 'sec-gpc'?: string | string[]; cookie?: string }): boolean {
  const gpc = Array.isArray(headers['sec-gpc']) ? headers['sec-gpc'][0] : headers['sec-gpc'];
  return gpc?.trim() === '1' || OPTED_OUT_COOKIE.test(headers.cookie ?? '');
}

/** The footer link's words (the CCPA/CPRA wording). */
export const DO_NOT_SELL_LABEL = 'Do Not Sell or Share My Personal Information';

export type PrivacyState = 'opted-in' | 'opted-out' | 'gpc';

/** The same rule in the browser: navigator.globalPrivacyControl first, then the cookie. */
export function browserPrivacyState(gpc: unknown, cookie: string): PrivacyState {
  if (gpc === true) return 'gpc';
  return OPTED_OUT_COOKIE.test(cookie) ? 'opted-out' : 'opted-in';
}

/** Query parameters that identify an ad click; an opted-out visitor's are not given to third parties. */
export const CLICK_ID_PARAMS = ['gclid', 'gbraid', 'wbraid', 'dclid', 'ttclid', 'fbclid', 'msclkid'] as const;

/** The page path (with its query) as third parties see it: without click ids when opted out. */
export function pagePathFor(url: string, optedOut: boolean): string {
  if (!optedOut) return url;
  const [pathAndQuery = '', hash] = url.split('#', 2);
  const q = pathAndQuery.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(pathAndQuery.slice(q + 1));
  for (const p of CLICK_ID_PARAMS) params.delete(p);
  const query = params.toString();
  return pathAndQuery.slice(0, q) + (query ? `?${query}` : '') + (hash !== undefined ? `#${hash}` : '');
}
