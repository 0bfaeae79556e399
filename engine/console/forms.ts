/**
 * The console's writes are HTML form posts (its pages run no script): the body is
 * application/x-www-form-urlencoded, capped, and accepted only from the console's own pages —
 * a cross-site page can send a form post without a preflight, so the browser's Sec-Fetch-Site
 * (or, without it, the Origin) must say same-origin. Together with the session's CSRF token on
 * every change (engine/console/csrf.ts) and the SameSite=Strict cookie, a write cannot be forged.
 */
import type { IncomingMessage } from 'node:http';
import { addressedOrigin, ApiError, readRawBody, type ApiAnswer } from '../http/api';
import { enforceRateLimit, type RateRule } from '../http/rateLimit';

export const FORM_LIMIT = 4096;

/**
 * Whether a post comes from a page of the console it was sent to: Sec-Fetch-Site "same-origin"
 * when the browser sends it; else an Origin equal to the origin the browser addressed the post
 * to (engine/http/api.ts addressedOrigin: scheme, host and port as the browser used them -- behind
 * a trusted proxy its X-Forwarded-Host and -Proto, not the upstream's Host; never a client's own
 * X-Forwarded-* headers), so an http:// page is not the https console's; else (no header at all:
 * a terminal client, not a browser a page could drive) allowed, the CSRF token still applies.
 */
export function sameOriginPost(req: IncomingMessage): boolean {
  const site = headerText(req.headers['sec-fetch-site']);
  if (site) return site === 'same-origin';
  const origin = headerText(req.headers.origin);
  if (origin === undefined) return true;
  const own = addressedOrigin(req);
  return own !== undefined && origin === own;
}

const headerText = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The fields of a form post (every value a string; a repeated name keeps the first). */
export function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) if (!(k in out)) out[k] = v;
  return out;
}

/** A console form post's fields, or a 4xx: POST only (405), same-origin (403), form-encoded (415), at most FORM_LIMIT bytes (413). */
export async function readConsoleForm(req: IncomingMessage): Promise<Record<string, string>> {
  if (req.method !== 'POST') throw new ApiError(405, 'Use POST', [], { Allow: 'POST' });
  const headers = req.headers as Record<string, string | undefined>;
  if (!sameOriginPost(req)) throw new ApiError(403, 'Console forms are accepted from the console’s own pages only');
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new ApiError(415, 'Send the form as application/x-www-form-urlencoded');
  return parseForm((await readRawBody(req, FORM_LIMIT)).toString('utf8'));
}

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** The media types an Accept header lists with a weight above 0, lower-cased, parameters left out. */
function accepted(accept: string | string[] | undefined): string[] {
  const out: string[] = [];
  for (const part of String(accept ?? '').split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    if (range && (q === undefined || Number(q.replace(/^q\s*=\s*/, '')) > 0)) out.push(range);
  }
  return out;
}

/**
 * Whether a post is a console page's form sent by a browser, which shows whatever comes back (the
 * pages run no script, so a bare {"error":...} would replace the console): the form's own content
 * type (the console's forms are form-encoded, or multipart for an upload) and a browser's
 * navigation Accept, which names text/html. A client that names application/json, or names
 * neither (curl's *\/*, a script with no Accept), is an API client and keeps its JSON answer and
 * status. The one rule for every console form post that answers a browser with a page.
 */
export function browserFormPost(headers: Record<string, string | string[] | undefined>): boolean {
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (!FORM_TYPES.has(type)) return false;
  const types = accepted(headers.accept);
  return types.includes('text/html') && !types.includes('application/json');
}

/**
 * The rate limit of a console form: undefined while under it; over it, a 303 to `location` (the
 * form's page, which says why by the key the address carries) for a browser's post, or the 429
 * with Retry-After for an API client (and when there is no page to go back to: no `location`).
 */
export async function limitedForm(
  headers: Record<string, string | string[] | undefined>,
  rule: RateRule,
  key: string,
  reason: string,
  location: string | undefined,
): Promise<ApiAnswer | undefined> {
  try {
    await enforceRateLimit(rule, key, 1, reason);
    return undefined;
  } catch (err) {
    if (err instanceof ApiError && err.status === 429 && location && browserFormPost(headers))
      return { status: 303, body: { location }, headers: { Location: location } };
    throw err;
  }
}
