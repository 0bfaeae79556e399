/**
 * The checks every API route makes before its own work: the method, the body (JSON only,
 * capped, parsed, checked against its schema in schemas/), the brand of the request's host and
 * the client's address; and the answer, or the refusal, as JSON. Each failure is a 4xx with a
 * reason a person can read. A route declares which it needs in engine/http/route.ts.
 *
 * Routes that read a body turn Next's body parser off (`config.api.bodyParser = false`), so the
 * cap is enforced while reading, before anything is buffered past it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { getCatalog, type LoadedBrand } from '../site/catalog';
import { brandOfHost, isLocalHost, requestHost } from '../site/hosts';
import { toProblems } from '../validate/problems';
import { LINEAR_ERRORS_CODE } from '../validate/linearErrors';
import { reportServerError } from '../errors/report';
import { storeUnavailable } from '../store/unavailable';
import { jsonShapeProblem, MAX_JSON_DEPTH } from './jsonKeys';
import { untextualString } from './jsonText';
import { sendBuffer } from './slowClients.mjs';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: string[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const trustProxyHeaders = (): boolean => process.env.TRUST_FORWARDED_HOST === '1';

// errors merged in linear time (../validate/linearErrors.ts): a body of many invalid items is not checked in quadratic time
const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, code: LINEAR_ERRORS_CODE });
const compiled = new WeakMap<object, ValidateFunction>();

/** A schema compiled once per process. */
export function validatorFor<T>(schema: object): ValidateFunction<T> {
  let fn = compiled.get(schema);
  if (!fn) compiled.set(schema, (fn = ajv.compile(schema)));
  return fn as ValidateFunction<T>;
}

/** 405 with Allow unless the method is one of `allowed`. */
export function requireMethod(req: IncomingMessage, allowed: readonly string[]): void {
  const method = req.method ?? '';
  // HEAD is GET without the body, wherever GET is answered (the answer's sender leaves the body out)
  if (!allowed.includes(method) && !(method === 'HEAD' && allowed.includes('GET'))) {
    throw new ApiError(405, `Use ${allowed.join(' or ')}`, [], { Allow: allowed.join(', ') });
  }
}

/** The raw body, refused with 413 as soon as it passes `limit` bytes. */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new ApiError(413, `The body is larger than ${limit} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.resume();
        reject(new ApiError(413, `The body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(new ApiError(400, `The body could not be read: ${err.message}`));
    });
  });
}

/**
 * The JSON body, checked: `application/json` only (415; this also keeps out the form posts a
 * cross-site page can send without a preflight), at most `limit` bytes (413), valid JSON after
 * at most one byte order mark (400; a key given twice in one object is malformed too, and so is a string with a NUL or a lone
 * surrogate: ./jsonText.ts), valid against `schema` (400 with every problem as "/pointer: reason").
 */
export async function readJsonBody<T>(req: IncomingMessage, opts: { limit: number; schema: object }): Promise<T> {
  requireJsonType(req);
  return parseJsonBody<T>(await readRawBody(req, opts.limit), opts.schema);
}

/** 415 unless the body is declared `application/json`. */
export function requireJsonType(req: IncomingMessage): void {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json') throw new ApiError(415, 'Send the body as application/json');
}

/**
 * Bytes already read (a signed body is checked before it is parsed) → valid JSON (400) valid
 * against `schema` (400 with every problem). One byte order mark (EF BB BF) before the JSON is
 * skipped, as RFC 8259 lets a reader do: Windows PowerShell and .NET clients send one, and the
 * body after it is as clear as without it. A second one, or one anywhere else outside a string,
 * is still not JSON. The cap counts the body's bytes as sent, the mark included.
 */
export function parseJsonBody<T>(raw: Buffer, schema: object): T {
  let body: unknown;
  const decoded = raw.toString('utf8');
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, `The body is not valid JSON: ${(err as Error).message}`);
  }
  const shape = jsonShapeProblem(text);
  if (shape?.problem === 'repeated') throw new ApiError(400, `The body is not valid: the key at ${shape.at} is given twice`);
  if (shape?.problem === 'deep')
    throw new ApiError(400, `The body is not valid: it nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels (at ${shape.at})`);
  // before the schema, so the answer names the field and what is wrong whatever its schema says
  const untextual = untextualString(body);
  if (untextual) throw new ApiError(400, 'The body is not valid', [untextual]);
  const validate = validatorFor<T>(schema);
  if (!validate(body)) {
    const problems = toProblems(validate.errors, MAX_LISTED_PROBLEMS + 1).map((p) => `${p.pointer || '/'}: ${p.message}`);
    if (problems.length > MAX_LISTED_PROBLEMS) problems.splice(MAX_LISTED_PROBLEMS, Infinity, MORE_PROBLEMS);
    throw new ApiError(400, 'The body is not valid', problems);
  }
  return body;
}

/**
 * A refused body's problems listed at most: far more than a body of ours can have wrong (a lead
 * has ~30 fields), far fewer than a hostile one can (5,000 invalid events in 16 KB are 30,000
 * problems: a 1 MB answer, worded and sent for nothing).
 */
export const MAX_LISTED_PROBLEMS = 100;
export const MORE_PROBLEMS = `… and more problems: only the first ${MAX_LISTED_PROBLEMS} are listed`;

/** The host the request came to, normalised (X-Forwarded-Host's when a trusted proxy sets it). */
export function hostOfRequest(req: IncomingMessage): string {
  return requestHost({ host: req.headers.host, forwardedHost: headerValue(req.headers['x-forwarded-host']) }, trustProxyHeaders());
}

/**
 * The origin of the site the request reached, for a URL given out to be opened later (a consent
 * certificate's page, in the post to a buyer). A brand's public host — its own hosts and their
 * dev./test123. hosts — is served over https on the default port, whatever this server heard (behind
 * the deployment's proxy it hears http on its own port): https://<host>. A local host (isLocalHost: a
 * developer's `npm run dev` or `npm start`) is reached as the request reached it: its scheme and port.
 * Both are read only where the host was (hostOfRequest): the port from X-Forwarded-Host when a trusted
 * proxy sets it, from the Host header otherwise; the scheme from X-Forwarded-Proto only from a
 * trusted proxy, otherwise from the connection. A client's own X-Forwarded-* headers are never read.
 */
export function originOfRequest(req: IncomingMessage, host: string = hostOfRequest(req)): string {
  if (!host || !isLocalHost(host)) return `https://${host}`;
  // URL drops a scheme's default port (http://x.localhost:80 is http://x.localhost)
  return new URL(`${localScheme(req)}://${authorityOfRequest(req, host)}`).origin;
}

/**
 * The host and port the browser addressed the request to ("console.localhost:8080",
 * "console.example.com"): `host` (hostOfRequest) with the port of the header the host was read
 * from -- X-Forwarded-Host's when a trusted proxy sets it, the Host header's otherwise, never a
 * client's own X-Forwarded-Host.
 */
export function authorityOfRequest(req: IncomingMessage, host: string = hostOfRequest(req)): string {
  const routedBy = (trustProxyHeaders() ? headerValue(req.headers['x-forwarded-host']) : undefined) ?? req.headers.host ?? '';
  const port = portOfHostHeader(routedBy);
  return `${host}${port ? `:${port}` : ''}`;
}

/**
 * The scheme a local host was reached with: a trusted proxy's X-Forwarded-Proto (http or https),
 * else the connection's own.
 */
function localScheme(req: IncomingMessage): 'http' | 'https' {
  const proto = trustProxyHeaders() ? headerValue(req.headers['x-forwarded-proto'])?.trim().toLowerCase() : undefined;
  if (proto === 'https' || proto === 'http') return proto;
  return (req.socket as Partial<TLSSocket> | undefined)?.encrypted ? 'https' : 'http';
}

/**
 * The origin the browser itself addressed the request to, as its Origin header names the page a
 * post came from: the console's same-origin check compares the two (engine/console/forms.ts).
 * The host and port as the browser named them (authorityOfRequest: behind a trusted proxy its
 * X-Forwarded-Host, not the upstream's Host header). The scheme: https for a public host, as in
 * originOfRequest (the console's session cookie is Secure, so a public console works over https
 * only, and a trusted proxy's X-Forwarded-Proto may be the http of a hop behind the TLS end); for
 * a local host, a trusted proxy's X-Forwarded-Proto, else the connection's. Undefined when the
 * request names no host (a trusted X-Forwarded-Host that names none, no Host header at all).
 */
export function addressedOrigin(req: IncomingMessage): string | undefined {
  const host = hostOfRequest(req);
  if (!host) return undefined;
  try {
    return new URL(`${isLocalHost(host) ? localScheme(req) : 'https'}://${authorityOfRequest(req, host)}`).origin;
  } catch {
    return undefined;
  }
}

/** The port a Host header value names ("a.localhost:3000" → "3000", "[::1]:3000" → "3000"), or '' for none. */
function portOfHostHeader(value: string): string {
  const text = value.trim();
  const colon = text.lastIndexOf(':');
  if (colon < 0 || text.lastIndexOf(']') > colon) return '';
  const port = text.slice(colon + 1);
  return /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535 ? port : '';
}

/** The brand whose host the request came to (never from the body); 404 for an unknown host. */
export function brandOfRequest(req: IncomingMessage): LoadedBrand {
  return brandAtHost(hostOfRequest(req));
}

/** The brand answering on a normalised host; 404 for an unknown one. */
export function brandAtHost(host: string): LoadedBrand {
  const catalog = getCatalog();
  const id = brandOfHost(catalog, host)?.id;
  const loaded = id ? catalog.brands.get(id) : undefined;
  if (!loaded) throw new ApiError(404, `No site answers on host "${host.slice(0, 255)}"`);
  return loaded;
}

const headerValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The client's address: the socket's, or the first X-Forwarded-For entry when a trusted proxy sets it. */
export function clientIp(req: IncomingMessage): string {
  const forwarded = trustProxyHeaders() ? headerValue(req.headers['x-forwarded-for'])?.split(',')[0]?.trim() : undefined;
  return (forwarded || req.socket.remoteAddress || '').replace(/^::ffff:/, '');
}

/**
 * An address with its host part dropped, for storage: IPv4 keeps /24 ("203.0.113.0"), IPv6
 * keeps /48 ("2001:db8:1::"). Enough to spot abuse from a network, not to find a person.
 */
export function truncateIp(ip: string): string {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0`;
  if (ip.includes(':')) {
    const [head = ''] = ip.split('::');
    const groups = head.split(':').filter(Boolean).slice(0, 3);
    return `${groups.join(':')}::`;
  }
  return '';
}

export function userAgent(req: IncomingMessage, max = 512): string {
  return String(req.headers['user-agent'] ?? '').slice(0, max);
}

/** { brand } of the request's host, when it is a brand's (for error reports). */
function brandTag(req: IncomingMessage): { brand?: string } {
  try {
    return { brand: brandOfRequest(req).brand.id };
  } catch {
    return {};
  }
}

/**
 * What a route answers: a JSON body; bytes with their own Content-Type among the headers (an SEO
 * file: sent as the client takes them, engine/http/slowClients.mjs); or no body (a redirect, a
 * 304), when `body` is left out.
 */
export type ApiAnswer =
  { status: number; body?: unknown; headers?: Record<string, string> } | { status: number; bytes: Buffer; headers: Record<string, string> };

/** The answer's reason while the store cannot be reached (503). */
export const STORE_UNAVAILABLE = 'The service is briefly unavailable; please try again in a moment';

/**
 * Runs a route's work and turns an ApiError (or anything else) into a JSON answer; never a stack
 * trace. The store unreachable for a moment is a 503 with Retry-After (engine/store/unavailable.ts);
 * anything else is a 500, and reported (engine/errors/report.ts).
 */
export async function handleApi(req: IncomingMessage, res: ServerResponse, work: () => Promise<ApiAnswer>): Promise<void> {
  let answer: ApiAnswer;
  try {
    answer = await work();
  } catch (err) {
    if (err instanceof ApiError) {
      answer = { status: err.status, body: { error: err.message, ...(err.problems.length ? { problems: err.problems } : {}) }, headers: err.headers };
    } else if (storeUnavailable(err)) {
      // The store (or a service the route calls) is down or restarting — one line, not a stack per
      // request for as long as it lasts: the same request succeeds in a moment, and the client, a
      // proxy or a monitor is told so.
      console.error(`[api] ${req.method} ${req.url}: unavailable for a moment (${(err as Error).message}); answered 503`);
      answer = { status: 503, body: { error: STORE_UNAVAILABLE }, headers: { 'Retry-After': '5' } };
    } else {
      console.error('[api]', req.method, req.url, err);
      reportServerError(err, { kind: 'api', url: req.url ?? '', method: req.method ?? '', ...brandTag(req) });
      answer = { status: 500, body: { error: 'Something went wrong on our side; please try again' } };
    }
  }
  res.statusCode = answer.status;
  res.setHeader('Cache-Control', 'no-store');
  if ('bytes' in answer) {
    for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
    res.setHeader('Content-Length', String(answer.bytes.length));
    if (req.method === 'HEAD') return void res.end();
    return sendBuffer(res, answer.bytes);
  }
  if (answer.body !== undefined) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
  res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
}

/**
 * Whether If-None-Match holds the given ETag, as RFC 9110 §13.1.2 compares: "*" (the file
 * exists), or any entry of the list equal to it once a weak prefix (W/) is set aside — a cache
 * holding several versions, or a weak validator it made of ours, gets its 304 too.
 */
export function ifNoneMatchHolds(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strong = etag.replace(/^W\//, '');
  for (const entry of String(header).split(',')) {
    const tag = entry.trim();
    if (tag === '*' || tag.replace(/^W\//, '') === strong) return true;
  }
  return false;
}
