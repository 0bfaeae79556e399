/**
 * CSRF protection for console changes: the token is an HMAC of the session token, so it needs no
 * storage, differs per session, and is useless without the session cookie (which a cross-site
 * page cannot read). Pages put it in a form field or the X-CSRF-Token header; every change checks it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function csrfToken(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('loansites-console-csrf').digest('base64url');
}

export function csrfValid(sessionToken: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || !sessionToken) return false;
  const want = Buffer.from(csrfToken(sessionToken));
  const got = Buffer.from(presented);
  return got.length === want.length && timingSafeEqual(got, want);
}
