/**
 * The email check: its syntax (one @, a dotted domain, no spaces), a domain on the maintained
 * list of disposable mail services (disposableDomains.json: its source, commit and date inside),
 * and a likely typo of a common domain (the form offers the fix before submit; one sent anyway
 * is flagged).
 */
import list from './disposableDomains.json' with { type: 'json' };
import { suggestEmail } from '../../browser/emailTypo';
import type { ReasonCode } from './codes';

const DISPOSABLE = new Set<string>(list.domains);
const SYNTAX = /^[^\s@]{1,64}@(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** True for a domain on the list, or a subdomain of one. */
function disposable(domain: string): boolean {
  const parts = domain.split('.');
  for (let i = 0; i < parts.length - 1; i++) if (DISPOSABLE.has(parts.slice(i).join('.'))) return true;
  return false;
}

export function emailReasons(email: string): ReasonCode[] {
  const e = email.trim().toLowerCase();
  if (!SYNTAX.test(e)) return ['email-syntax'];
  const domain = e.slice(e.lastIndexOf('@') + 1);
  // a typo of a common domain first: some (gmial.com) are also listed as disposable, being
  // catch-alls squatting on the typo, yet the borrower most likely meant the common one
  if (suggestEmail(e)) return ['email-typo'];
  return disposable(domain) ? ['email-disposable'] : [];
}
