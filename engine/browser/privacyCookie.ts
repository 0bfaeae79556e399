/**
 * The cookie the privacy-choice page writes (engine/browser/privacy.ts reads it): in its own module, so
 * that only that page's chunk carries it.
 */
import { OPT_OUT_COOKIE } from './privacy';

/** The cookie that remembers the choice: first-party, readable by the page, 400 days (browsers' cap). */
export const OPT_OUT_MAX_AGE_SECONDS = 400 * 24 * 3600;
export const optOutCookie = (secure: boolean): string =>
  `${OPT_OUT_COOKIE}=1; Path=/; Max-Age=${OPT_OUT_MAX_AGE_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`;
export const optInCookie = (secure: boolean): string => `${OPT_OUT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure ? '; Secure' : ''}`;
