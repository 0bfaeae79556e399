/**
 * The borrower is sent only where the buyer said it sends borrowers: https, on one of its
 * redirectHosts (*.example.com: any subdomain). Anything else — javascript:, data:, http:, a
 * host of someone else, credentials in the URL — is refused, and the post answer counts as a
 * refusal: an open redirect on our domain would be a gift to phishers. So is a URL longer than
 * the borrower's page may be sent, measured as it is stored and sent.
 */
import statusSchema from '../../schemas/api/sale-status.schema.json' with { type: 'json' };

/** The longest redirect kept: the borrower's page is sent it as sale-status's continueUrl. */
export const MAX_REDIRECT_CHARS = statusSchema.properties.continueUrl.maxLength;

export type RedirectCheck = { ok: true; url: string } | { ok: false; reason: string };

/**
 * A declared host as a URL's host reads it: the redirect is https, and a URL never writes https's
 * own port, so "offers.acme.com:443" is matched as "offers.acme.com" (else it would match nothing).
 */
const asUrlHost = (declared: string): string => declared.toLowerCase().replace(/:443$/, '');

export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase();
  return allowed.map(asUrlHost).some((a) => (a.startsWith('*.') ? h.endsWith(a.slice(1)) && h.length > a.length - 1 : h === a));
}

export function checkRedirect(url: unknown, allowed: readonly string[] = []): RedirectCheck {
  if (typeof url !== 'string' || !url) return { ok: false, reason: 'no redirect URL' };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, reason: 'the redirect URL is not a URL' };
  }
  if (u.protocol !== 'https:') return { ok: false, reason: `redirect refused: ${u.protocol} is not https` };
  if (u.username || u.password) return { ok: false, reason: 'redirect refused: credentials in the URL' };
  if (!hostAllowed(u.host, allowed)) return { ok: false, reason: `redirect refused: ${u.host} is not one of the buyer's redirectHosts` };
  // Measured as it is stored and sent: a URL percent-encodes what is not ASCII (an é takes 6
  // characters), so one within the limit as the buyer wrote it may be far over it here.
  if (u.href.length > MAX_REDIRECT_CHARS)
    return { ok: false, reason: `redirect refused: ${u.href.length} characters once percent-encoded, more than ${MAX_REDIRECT_CHARS}` };
  return { ok: true, url: u.href };
}
