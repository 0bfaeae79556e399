/** Where a consent certificate's human-readable page is, on the brand's host: /certificate/<id> (the thank-you screen links it). */
export const CERTIFICATE_PAGE_PREFIX = '/certificate/';
export const certificatePagePath = (id: string): string => `${CERTIFICATE_PAGE_PREFIX}${id}`;

/** The brands' published certificate keys (a JSON Web Key Set), on every brand's host. */
export const WELL_KNOWN_KEYS_PATH = '/.well-known/loansites-certificate-keys.json';
/** The API routes the front door hands those two addresses to. */
export const CERTIFICATE_KEYS_ROUTE = '/api/certificates/keys';
export const CERTIFICATE_PAGE_ROUTE = '/api/certificates/page';

/** The internal URL of /certificate/<id> or the keys document, or undefined for any other path. */
export function certificateRouteOf(path: string): string | undefined {
  if (path === WELL_KNOWN_KEYS_PATH) return CERTIFICATE_KEYS_ROUTE;
  if (!path.startsWith(CERTIFICATE_PAGE_PREFIX)) return undefined;
  const id = path.slice(CERTIFICATE_PAGE_PREFIX.length);
  return id && !id.includes('/') ? `${CERTIFICATE_PAGE_ROUTE}?${new URLSearchParams({ id })}` : undefined;
}
