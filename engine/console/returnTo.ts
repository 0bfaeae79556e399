/**
 * The page a signed-out operator was going to, carried by the sign-in page (`/login?next=…`, then
 * a hidden `next` field through the password and the two-step code) and opened after signing in.
 * An address anyone can put in a link, so it is only ever a console page of this console's own
 * page list (engine/console/pagePaths.ts), as a path and query on this host: never a scheme, a
 * host, `//`, a backslash, an encoded slash or a control character, never an API path or the
 * sign-in page itself, and no longer than RETURN_MAX. Anything else is no return address (the
 * overview), silently: a link that was tampered with still signs the operator in.
 */
import { isConsolePage } from './pagePaths';

/** The longest return address kept (a lead list's filters fit well within it). */
export const RETURN_MAX = 512;

/** Pages not worth returning to: the sign-in page itself, a refusal's page, and the overview (where signing in leads anyway). */
const NOT_A_RETURN = new Set(['/', '/login', '/refused']);

/** Query parameters never carried: a one-time sign-in link's token stays out of every address but its own. */
const SECRET_PARAMS = new Set(['link', 'token', 'csrf', 'password', 'code']);

/**
 * A return address as given (a query value or a form field), as the path and query to send the
 * browser to after signing in; undefined when it is not a console page's.
 */
export function returnPath(raw: string | undefined): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > RETURN_MAX) return undefined;
  // controls (a tab or a newline the URL parser would silently drop), a backslash (read as a slash by browsers), a fragment
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\#]/.test(raw)) return undefined;
  if (!raw.startsWith('/') || raw.startsWith('//')) return undefined;
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  // the page list matches the path as sent, so an encoded slash (or any escape) is no page's path
  if (/%/.test(path)) return undefined;
  let url: URL;
  try {
    url = new URL(raw, 'http://console.invalid');
  } catch {
    return undefined;
  }
  // decided on the path as a browser would resolve it (dot segments and all): it must be the same path, on this host
  if (url.origin !== 'http://console.invalid' || url.pathname !== path) return undefined;
  if (!isConsolePage(url.pathname) || NOT_A_RETURN.has(url.pathname)) return undefined;
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAMS.has(name.toLowerCase())) url.searchParams.delete(name);
  const search = url.searchParams.toString();
  const address = search ? `${url.pathname}?${search}` : url.pathname;
  return address.length <= RETURN_MAX ? address : undefined;
}

/** Where a successful sign-in goes: the return address, or the overview. */
export const afterSignIn = (raw: string | undefined): string => returnPath(raw) ?? '/';

/** The sign-in page's address with `params` and the return address (when it is one). */
export function signInAddress(params: Record<string, string>, raw: string | undefined): string {
  const next = returnPath(raw);
  const query = new URLSearchParams({ ...params, ...(next ? { next } : {}) }).toString();
  return query ? `/login?${query}` : '/login';
}
