/**
 * The visitor's privacy choice ("Do Not Sell or Share My Personal Information"): opted out when
 * the browser sends Global Privacy Control (Sec-GPC: 1) or the visitor chose it on the opt-out
 * page (first-party cookie). Recorded with any lead; an opted-out visitor's click ids are not
 * passed to third parties.
 */
export const OPT_OUT_COOKIE = 'privacy_opt_out';

export function privacyOptedOut(headers: { 'sec-gpc'?: string | string[]; cookie?: string }): boolean {
  const gpc = Array.isArray(headers['sec-gpc']) ? headers['sec-gpc'][0] : headers['sec-gpc'];
  if (gpc?.trim() === '1') return true;
  return new RegExp(`(?:^|;\\s*)${OPT_OUT_COOKIE}=1(?:;|$)`).test(headers.cookie ?? '');
}
