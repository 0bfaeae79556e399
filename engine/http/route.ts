/**
 * An API route as a declaration, as a fastify route is one options object: what it accepts
 * (its methods, whether it needs the brand of the request's host, its rate rule, its body's
 * schema and size cap) is said once, and the handler is given a request already checked
 * against it. The body's schema is compiled when the route is declared (when its module
 * loads), not on its first request.
 *
 * The checks run in one order, each refusing with a 4xx and a reason (engine/http/api.ts):
 *   unavailable (404) → method (405 with Allow) → brand of the host (404) → check (the route's
 *   own refusals before anything is counted or read: a secret header, the brand named in the
 *   path) → rate rule (429 with Retry-After) → body: JSON only (415), at most `limit` bytes
 *   (413), its signature when it is signed (the route's own 401), valid JSON and valid against
 *   the schema (400 naming the field).
 *
 * A route that reads a body must also turn Next's body parser off in its own file
 * (`export const config = { api: { bodyParser: false } }`): Next reads that object from the
 * source before the module runs, so it cannot come from here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoadedBrand } from '../site/catalog';
import type { Store } from '../store/db';
import {
  ApiError,
  brandAtHost,
  clientIp,
  handleApi,
  hostOfRequest,
  parseJsonBody,
  readRawBody,
  requireJsonType,
  requireMethod,
  validatorFor,
  type ApiAnswer,
} from './api';
import { enforceRateLimit, type RateRule } from './rateLimit';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** What a route reads from its body. `B` is the type its schema checks (written by `json<B>()`), `S` what a signature check gives. */
export interface BodyRule<B, S> {
  /** bytes at most; more is a 413 before it is buffered */
  limit: number;
  /** a JSON Schema: the body must be application/json, valid JSON and valid against it; without one the route gets the raw bytes only */
  schema?: object;
  /** checks the raw bytes before they are parsed (a signed body), throwing an ApiError to refuse; what it returns is handed on as `signer` */
  signedBy?: (raw: Buffer, req: IncomingMessage) => S;
  /** the checked body's type: never set, only read by the compiler */
  readonly parsed?: B;
}

/** A JSON body of type `B`, checked against `schema`, at most `limit` bytes. */
export const json = <B>(schema: object, limit: number): BodyRule<B, undefined> => ({ schema, limit });

export interface RouteRules<B, S, Br extends boolean> {
  /** a reason when the route is off (a 404 before anything else): e.g. a CMS is configured, or there is no demo lender */
  unavailable?: (req: IncomingMessage) => string | undefined;
  /** the methods answered; any other is a 405 with Allow. `any`: the route does not look at the method. */
  methods: readonly Method[] | 'any';
  /** true: the request must come to a brand's host (404 otherwise); the brand is handed on */
  brand?: Br;
  /** the route's own refusals that come before the rate limit and the body */
  check?: (req: IncomingMessage, brand: Br extends true ? LoadedBrand : undefined) => void;
  /** counted per client address; a function chooses per request (undefined: not counted) */
  rate?: RateRule | ((req: IncomingMessage) => RateRule | undefined);
  body?: BodyRule<B, S>;
}

/** A request that has passed its route's declaration. */
export interface CheckedRequest<B, S, Br extends boolean> {
  req: IncomingMessage;
  res: ServerResponse;
  /** the body, valid against the declared schema (undefined without a body rule or a schema) */
  body: B;
  /** the body's bytes (empty without a body rule) */
  raw: Buffer;
  /** what the body's signature check returned */
  signer: S;
  /** the brand of the request's host, when the route declares `brand: true` */
  brand: Br extends true ? LoadedBrand : undefined;
  /** the host the request came to, normalised (engine/site/hosts.ts requestHost) */
  host: string;
  /** the client's address (engine/http/api.ts clientIp) */
  ip: string;
  store: () => Promise<Store>;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The handler of a declared route: every check of `rules`, then `work` with the checked request; its answer (or refusal) through handleApi. */
export function route<B = undefined, S = undefined, Br extends boolean = false>(
  rules: RouteRules<B, S, Br>,
  work: (r: CheckedRequest<B, S, Br>) => Promise<ApiAnswer>,
): RouteHandler {
  const { methods, body: bodyRule, rate } = rules;
  // compiled now, once: a broken schema fails when the route loads, not on a visitor's request
  if (bodyRule?.schema) validatorFor(bodyRule.schema);
  return (req, res) =>
    handleApi(req, res, async () => {
      const off = rules.unavailable?.(req);
      if (off !== undefined) throw new ApiError(404, off);
      if (methods !== 'any') requireMethod(req, methods);
      const host = hostOfRequest(req);
      const brand = (rules.brand ? brandAtHost(host) : undefined) as CheckedRequest<B, S, Br>['brand'];
      rules.check?.(req, brand);
      const ip = clientIp(req);
      const rule = typeof rate === 'function' ? rate(req) : rate;
      if (rule) await enforceRateLimit(rule, ip);
      let raw: Buffer = Buffer.alloc(0);
      let signer = undefined as S;
      let body = undefined as B;
      if (bodyRule) {
        if (bodyRule.schema) requireJsonType(req);
        raw = await readRawBody(req, bodyRule.limit);
        if (bodyRule.signedBy) signer = bodyRule.signedBy(raw, req);
        if (bodyRule.schema) body = parseJsonBody<B>(raw, bodyRule.schema);
      }
      return work({ req, res, body, raw, signer, brand, host, ip, store });
    });
}

/** The process's store, loaded with the first route that asks: routes that never touch it (the geocoder, SEO files) do not load the database driver. */
const store = (): Promise<Store> => import('../store/db').then((db) => db.getStore());
