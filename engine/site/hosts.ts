/**
 * Host → brand. Hosts are looked up exactly in a map built from the brand files, after
 * normalising (lower-case; port, trailing dot and surrounding space stripped). Never by
 * substring or string replace: "ipaydayloans.com.evil.net" is not ipaydayloans.
 */

import { isDeployment } from '../keys/keyFormat.mjs';
import { hostsOfBrand, LOCAL_SUFFIX } from '../validate/brandHosts';

export { DEV_PREFIXES, LOCAL_SUFFIX, hostsOfBrand, blogHostsOf } from '../validate/brandHosts';

/**
 * A (normalised) host on a developer's own machine: localhost, a *.localhost host, an IP address
 * literal, or none. Its leads are test leads (engine/leads/environment.ts), and it is not served at
 * a public origin: a URL given out for it keeps the scheme and port it was reached on.
 */
export function isLocalHost(host: string): boolean {
  const h = host.toLowerCase();
  return !h || h === 'localhost' || h.endsWith(LOCAL_SUFFIX) || h.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Normalise a Host header value; returns '' for anything that is not a plausible host.
 * "IPaydayLoans.com:443." → "ipaydayloans.com"; "[::1]:3000" → "[::1]".
 */
export function normaliseHost(raw: string | null | undefined): string {
  if (!raw) return '';
  let host = raw.trim().toLowerCase();
  if (!host || host.length > 300) return '';
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return '';
    const rest = host.slice(end + 1);
    if (rest && !validPort(rest.slice(1))) return '';
    return host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  if (colon >= 0) {
    if (!validPort(host.slice(colon + 1))) return '';
    host = host.slice(0, colon);
  }
  host = host.replace(/\.+$/, '');
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) return '';
  return host;
}

/** A TCP port: 1–65535, digits only. "99999" is not a plausible host and would break a URL built from it. */
const validPort = (text: string): boolean => /^\d{1,5}$/.test(text) && Number(text) >= 1 && Number(text) <= 65535;

/** Paths a blog host serves. */
export const isBlogPath = (path: string): boolean => path === '/blog' || path.startsWith('/blog/');

export type HostMap = ReadonlyMap<string, string>;

/** Which file claims a host (for a brand being checked: another file that does, if any). */
export type HostOwners = { get(host: string): string | undefined };

/** host → brand id; a host claimed by two brands keeps its first owner (validation reports the clash). */
export function buildHostMap(brands: readonly { id: string; hosts: readonly string[] }[]): HostMap {
  const map = new Map<string, string>();
  for (const brand of brands) for (const host of hostsOfBrand(brand)) if (!map.has(host)) map.set(host, brand.id);
  return map;
}

export interface HostHeaders {
  host?: string | null;
  forwardedHost?: string | null;
}

/**
 * Why a believed `x-forwarded-host` names no one host, or undefined when it names one. node:http
 * joins a header sent twice into one value with ", ", so two lines and one line listing two hosts
 * read the same. A proxy that appends to the header instead of overwriting it (nginx in deploy/
 * overwrites) leaves the client's own value beside its own: which one it routed by is not known
 * here, so neither is guessed. An empty value names no host either.
 */
export function forwardedHostProblem(forwardedHost: string): string | undefined {
  if (forwardedHost.includes(',')) return 'The request has more than one X-Forwarded-Host value';
  if (!forwardedHost.trim()) return 'The request has an empty X-Forwarded-Host header';
  return undefined;
}

/**
 * The host a request is for. `x-forwarded-host` is only believed when the deployment says a
 * trusted proxy sets it (trustForwardedHost), because any client can send it; when believed and
 * absent (null or undefined), the Host header is; when believed and naming no one host
 * (forwardedHostProblem), no host ('': the front door refuses such a request with 400).
 */
export function requestHost(headers: HostHeaders, trustForwardedHost = false): string {
  const forwarded = trustForwardedHost ? headers.forwardedHost : undefined;
  if (forwarded === undefined || forwarded === null) return normaliseHost(headers.host);
  return forwardedHostProblem(forwarded) ? '' : normaliseHost(forwarded);
}

export function lookupBrandId(map: HostMap, host: string): string | undefined {
  return host ? map.get(host) : undefined;
}

/**
 * The brand a (normalised) host belongs to, and whether it is the brand's blog host: the one
 * lookup the front door, the API routes and the 404 page share.
 */
export function brandOfHost(maps: { hostMap: HostMap; blogHostMap: HostMap }, host: string): { id: string; blog: boolean } | undefined {
  const blog = lookupBrandId(maps.blogHostMap, host);
  if (blog) return { id: blog, blog: true };
  const id = lookupBrandId(maps.hostMap, host);
  return id ? { id, blog: false } : undefined;
}

/**
 * The console hosts: CONSOLE_HOSTS (comma-separated), and console.localhost outside a deployment
 * (LOANSITES_DEPLOYMENT=production), so `npm start` shows it at http://console.localhost:3000/
 * while a deployment without CONSOLE_HOSTS has no console at all.
 */
export function consoleHostsOf(env: Record<string, string | undefined>): Set<string> {
  const listed = (env.CONSOLE_HOSTS ?? '').split(',').map((h) => requestHost({ host: h }));
  return new Set([...(isDeployment(env) ? [] : ['console.localhost']), ...listed.filter(Boolean)]);
}
