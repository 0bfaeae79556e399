/**
 * The front door's part in experiments (engine/site/experiments/assign.ts has the rules): a page
 * under an experiment, and the client router's data request for one, get the visitor's variant.
 *
 * The route is decided once per host and target (engine/frontDoor/server.ts remembers it); the
 * variant per request, from the experiments' cookie. Each variant's decision is made once and
 * kept with the route's (the page cache's replay keys its work by the decision object), so a
 * visitor who has the cookie costs a cookie read and a map look-up over a page without an
 * experiment. A visitor assigned now gets the same decision with the cookie to set.
 *
 * While an experiment runs its pages say so in X-Loansites-Experiment, and are private
 * (VARIANT_CACHE_CONTROL): no shared cache in front (nginx's microcache, deploy/nginx.conf, or a
 * CDN) may keep one visitor's variant, or their cookie, for the next.
 */
import { randomFillSync } from 'node:crypto';
import type { LoadedBrand } from '../site/catalog';
import type { CompiledRoute } from '../site/routes';
import { matchPath } from '../site/pageMatch';
import { assignmentCookie, cookieNeedle, heldIn, readAssignments, servingOf } from '../site/experiments/assign';
import { variantSegment } from '../site/experiments/variants';
import type { BrandExperiment } from '../site/experiments/compile';
import type { Decision, Door, RequestFacts } from './frontDoor';

/** The variant a request is served, as its decision names it. */
export interface PageExperiment {
  id: string;
  variant: string;
  /** the visitor's exposure counts (running, their own variant) */
  counted: boolean;
  /** the Set-Cookie value when the visitor was assigned by this request */
  setCookie?: string;
  /** headers the response carries for it, as a flat [name, value, ...] list; each in place of any Next sets of that name (Cache-Control) */
  headers: readonly string[];
  /** for a visitor assigned now: the variant's decision every visitor with the cookie gets (the replay keys its work by that object) */
  sameAs?: object;
}

export const EXPERIMENT_HEADER = 'X-Loansites-Experiment';
/**
 * The Cache-Control of a page whose content is the visitor's assignment (a running experiment's
 * variant, the first visit that assigns it included), in place of Next's shared `s-maxage`: a
 * shared cache (a CDN, a proxy) must not store it, whatever it does with Vary; the visitor's own
 * browser may keep it but asks again before each use, as it does for any page without max-age,
 * so a stopped experiment's winner reaches them. Not no-store: that would keep such pages out of
 * the browser's back/forward cache. Not `Vary: Cookie`: a first visit has no cookie to vary by,
 * so every new visitor would match it, with another visitor's Set-Cookie.
 */
export const VARIANT_CACHE_CONTROL = 'private, no-cache';

interface Pending {
  experiment: BrandExperiment;
  loaded: LoadedBrand;
  route: CompiledRoute;
  /** the decision for the route a variant renders from, at its internal path */
  make: (route: CompiledRoute, segment: string) => Decision;
  /** each variant's decision when it is not counted (paused, stopped, outside its dates), made once, by variant */
  made: Map<string, Decision>;
  /** each variant's decision when it is counted (the experiment runs): a visitor who holds it, or is assigned it now (the hot path), by variant */
  held: Map<string, Decision>;
  /** the experiment's entry in the cookie (heldIn) */
  needle: string;
}
const pending = new WeakMap<Decision, Pending>();

/** A route's decision that an experiment covers: kept with what its variants need (the decision itself when none covers it). */
export function underExperiment(d: Decision, loaded: LoadedBrand, route: CompiledRoute, make: Pending['make']): Decision {
  const experiment = loaded.experiments.of(route);
  if (experiment) pending.set(d, { experiment, loaded, route, make, made: new Map(), held: new Map(), needle: cookieNeedle(experiment.id) });
  return d;
}

/** The client router's data request for a page: its variant's data when an experiment covers the page. */
export function dataWithVariant(d: Decision & { kind: 'next' }, loaded: LoadedBrand, pagePath: string | undefined, _req: RequestFacts, _door: Door): Decision {
  const match = pagePath === undefined ? undefined : matchPath(loaded, pagePath);
  if (!match) return d;
  const brandPrefix = `/_brand/${loaded.brand.id}`;
  const at = d.url.indexOf(brandPrefix);
  return underExperiment(d, loaded, match.route, (_route, segment) =>
    at < 0 || !segment
      ? { kind: 'next', url: d.url }
      : { kind: 'next', url: d.url.slice(0, at + brandPrefix.length) + segment + d.url.slice(at + brandPrefix.length) },
  );
}

/**
 * A new visitor's id: 64 random bits, taken from a pool filled 512 ids at a time (as Node's own
 * randomUUID does) rather than one call into the system's random source per first visit; the pool
 * is written out in hex once when it is filled, so an id is a slice of that text.
 */
const POOL = Buffer.alloc(8 * 512);
let pooledHex = '';
let poolAt = 0;
export function newVisitorId(): string {
  if (poolAt === pooledHex.length) {
    randomFillSync(POOL);
    pooledHex = POOL.toString('hex');
    poolAt = 0;
  }
  const id = pooledHex.slice(poolAt, poolAt + 16);
  poolAt += 16;
  return id;
}

/** The decision with the visitor's variant, for a route an experiment covers (any other decision as it is). */
export function withVariant(d: Decision, req: RequestFacts, door: Door): Decision {
  const p = pending.get(d);
  if (!p) return d;
  const e = p.experiment;
  const now = door.now ? door.now() : Date.now();
  // a visitor who holds their variant of a running experiment: one scan of the cookie and a look-up
  const held = heldIn(req.cookie, p.needle);
  if (held !== undefined && e.status === 'running' && now >= e.startMs && (e.endMs === undefined || now < e.endMs)) {
    const known = p.held.get(held);
    if (known) return known;
  }
  // otherwise the rules (./assign.ts); the cookie is taken apart only when this request may
  // assign: no entry for the experiment, or one naming none of its variants (a variant since
  // removed, a cookie edited by hand) — then too the visitor keeps their id and their other
  // experiments' variants, which a new id would shuffle
  const mine = held === undefined || !e.variants.some((v) => v.id === held) ? readAssignments(req.cookie) : undefined;
  // (the id generator itself, not a function made per request around it)
  const serving = servingOf(e, held, mine?.visitor ?? door.newVisitorId ?? newVisitorId, now);
  // by variant in one of two maps, not by a key joined per request (hashing a new text each time)
  const byVariant = serving.counted ? p.held : p.made;
  let made = byVariant.get(serving.variant);
  if (!made) {
    const route = p.loaded.experiments.variantRoute(p.route, e.id, serving.variant) ?? p.route;
    const base = route === p.route ? d : p.make(route, variantSegment(e.id, serving.variant));
    // frozen: a list the replay may remember its joined head by (engine/cache/cachedPageReplay.mjs)
    // (not counted: everyone is served the same page, which shared caches may keep as any other)
    const headers = Object.freeze(serving.counted ? [EXPERIMENT_HEADER, `${e.id}=${serving.variant}`, 'Cache-Control', VARIANT_CACHE_CONTROL] : []);
    made = { ...base, experiment: { id: e.id, variant: serving.variant, counted: serving.counted, headers } } as Decision;
    byVariant.set(serving.variant, made);
  }
  if (!serving.assigned || !('experiment' in made) || !made.experiment) return made;
  const setCookie = assignmentCookie(serving.visitor!, mine?.chosen ?? NOTHING_CHOSEN, e.id, serving.variant, p.loaded.experiments.ids);
  return { ...made, experiment: { ...made.experiment, setCookie, headers: [...made.experiment.headers, 'Set-Cookie', setCookie], sameAs: made } } as Decision;
}
const NOTHING_CHOSEN: ReadonlyMap<string, string> = new Map();
