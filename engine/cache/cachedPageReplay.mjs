// @ts-check
/**
 * A fresh cache hit answered by server.mjs from the single instance's page cache, without Next's
 * per-request routing (measured: Next's router and render pipeline are ~43% of a cache hit's CPU,
 * our code ~6%). Not a second cache: the page is the entry Next stored in
 * engine/cache/boundedPageCache.mjs, and the status and headers are the ones Next sent for that
 * same entry on that host, recorded from a real response. So:
 * - the first request of a page on a host always goes through Next (a miss renders it; the next
 *   hit through Next records its headers); only then are hits replayed;
 * - when Next stores a new version (revalidation, on-demand or after its lifetime) the entry is a
 *   new object, and its headers must be recorded again from Next;
 * - a stale entry (older than its revalidate time) always goes to Next, which serves it stale and
 *   renders the new one in the background, as before;
 * - draft mode, Next's own revalidation requests, data requests, anything but GET/HEAD, paths that
 *   are not plain lower-case page paths, and hosts the build does not route all go to Next;
 * - gzip as Next does it (Accept-Encoding: gzip), compressed once per stored version.
 * The recorded headers and the compressed copy hang off the entry (WeakMap), so they go when the
 * bounded cache drops it (they are not counted in PAGE_CACHE_MB: ~1 KB + ~25% of the HTML).
 * With REDIS_URL there is no local store, and nothing is replayed (nginx's microcache is in front).
 * PAGE_CACHE_REPLAY=0 turns it off.
 *
 * Plain JavaScript typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step): server.mjs replays pages with it on plain Node.
 */
import { gzipSync } from 'node:zlib';
import { pageCacheStore } from './boundedPageCache.mjs';

/**
 * Headers that belong to one response's framing, never replayed as recorded; nor those that belong
 * to one visitor (a cookie, an experiment's variant: server.mjs hands them to each reply).
 */
const FRAMING = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
  'set-cookie',
  'x-loansites-experiment',
]);
/**
 * Next's own value of each header a visitor's list set in its place on a response (a variant's
 * Cache-Control over the page's shared one; undefined when Next set none), for the recording:
 * the head recorded for an entry is the page's, whoever asked, and each reply puts the visitor's
 * headers over it (withExtra), so a page whose experiment is paused or over goes out as Next sent it.
 * @type {WeakMap<import('node:http').ServerResponse, [string, unknown][]>}
 */
const nextsOwn = new WeakMap();

/**
 * A visitor's headers (a flat [name, value, ...] list, set on the response beforehand) kept over
 * the ones Next sets as it answers: a header of the list that Next also sets (Cache-Control) is
 * set again as the head is written, Next's value kept for the recording (nextsOwn). For any answer
 * Next gives to a request with such a list, replayed or not (a page, the client router's data).
 * @param {import('node:http').ServerResponse} res @param {readonly string[]} list
 */
export function keepVisitorHeaders(res, list) {
  const writeHead = res.writeHead;
  res.writeHead = /** @type {typeof res.writeHead} */ (
    function (/** @type {any[]} */ ...args) {
      /** @type {[string, unknown][] | undefined} */
      let own;
      for (let i = 0; i < list.length; i += 2) {
        const name = /** @type {string} */ (list[i]);
        // the visitor's own headers, which Next never sets: as they were set
        if (FRAMING.has(name.toLowerCase())) continue;
        (own ??= []).push([name, res.getHeader(name)]);
        res.setHeader(name, /** @type {string} */ (list[i + 1]));
      }
      if (own) nextsOwn.set(res, own);
      return writeHead.apply(res, /** @type {any} */ (args));
    }
  );
}

/** The names of the headers set on a response, as set (Node has had getRawHeaderNames since 15.13; its types miss it). */
const rawHeaderNames = (/** @type {import('node:http').ServerResponse} */ res) => /** @type {string[]} */ (/** @type {any} */ (res).getRawHeaderNames());
/** A page path as the brands' routes make them: lower-case words, no dots, no trailing slash. */
const PAGE_PATH = /^\/(?:[a-z0-9-]+(?:\/[a-z0-9-]+)*)?$/;
/** Query parameters Next reads itself (its data and RSC requests): such a URL is Next's to answer. */
const NEXT_QUERY = /[?&](?:__next|_rsc)/i;
/** Whether Next's x-nextjs-cache header says it answered from its cache. */
const isHit = (/** @type {unknown} */ value) => String(value ?? '').toUpperCase() === 'HIT';
const DRAFT_COOKIE = /(?:^|;\s*)(?:__prerender_bypass|__next_preview_data)=/;
/** Whether Accept-Encoding lets the answer be gzip (gzip or *, not with q=0), as Next's compression decides. */
export function acceptsGzip(/** @type {string | undefined} */ header) {
  if (!header) return false;
  // a replayed hit reads it on every request, and browsers send a handful of spellings: each is parsed once
  let gzip = gzipAnswers.get(header);
  if (gzip === undefined) {
    gzip = parseAcceptsGzip(header);
    if (header.length <= 256) {
      if (gzipAnswers.size >= 64) gzipAnswers.clear();
      gzipAnswers.set(header, gzip);
    }
  }
  return gzip;
}
/** @type {Map<string, boolean>} */
const gzipAnswers = new Map();
function parseAcceptsGzip(/** @type {string} */ header) {
  // gzip's own entry decides; "*" stands only for codings the header does not name (RFC 9110
  // §12.5.3), so "gzip;q=0, *" refuses gzip
  /** @type {boolean | undefined} */
  let any;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    const accepted = !q || Number(q.slice(2)) > 0;
    if (name === 'gzip') return accepted;
    any ??= accepted;
  }
  return any ?? false;
}
/**
 * Hosts one stored page may be recorded for (a brand's production, www., dev., localhost…). They
 * are normalised hosts (the one the brand is routed by): spellings of one host (a port, capitals,
 * a trailing dot) share its slot, so junk spellings cannot fill the slots and crowd the real
 * host out of the replay.
 */
const HOSTS_PER_ENTRY = 8;

/**
 * @typedef {{ key: string, host: string, head: boolean }} Candidate
 * @typedef {{ page: string, host: string }} Route the internal page a request is routed to (no search) and its normalised host
 * @typedef {Record<string, string | string[] | number>} Headers
 * @typedef {{ head: string[], body: Buffer }} Prepared the head as a flat [name, value, …] list, Content-Length included, and the body
 * @typedef {{ headers: Headers, plain?: Prepared, gzip?: Prepared }} Recorded Next's head for one entry on one host, and the replies made of it
 */

/**
 * @param {{ enabled?: boolean, now?: () => number, store?: () => ReturnType<typeof pageCacheStore> }} [options]
 *   store: the page cache (this process's by default; a test passes its own)
 */
export function createCachedPageReplay({ enabled = process.env.PAGE_CACHE_REPLAY !== '0', now = Date.now, store = pageCacheStore } = {}) {
  /** @type {WeakMap<object, Map<string, Recorded>>} */
  const recorded = new WeakMap();
  /** @type {WeakMap<object, Buffer>} */
  const gzipped = new WeakMap();
  /**
   * A route's cache key, when its request target is a plain page path: the front door hands the
   * same route object for the same host and target (engine/frontDoor/server.ts
   * rememberingPages), so the path is checked and the key built once per route, not per hit.
   * @type {WeakMap<Route, string | null>}
   */
  const keys = new WeakMap();

  /**
   * The reply of a recorded head in one encoding, built once per recorded head and encoding, so
   * each hit writes it as it is.
   * @param {{ value: { html: string | Buffer } }} entry @param {Headers} headers @param {boolean} gzip
   * @returns {Prepared}
   */
  const prepare = (entry, headers, gzip) => {
    const html = entry.value.html;
    let body = typeof html === 'string' ? Buffer.from(html) : html;
    if (gzip) {
      let z = gzipped.get(entry);
      if (!z) gzipped.set(entry, (z = gzipSync(body)));
      body = z;
    }
    /** @type {string[]} */
    const head = [];
    for (const [name, value] of Object.entries(headers)) {
      if (Array.isArray(value)) for (const v of value) head.push(name, v);
      else head.push(name, String(value));
    }
    head.push('Content-Length', String(body.length));
    if (gzip) head.push('Content-Encoding', 'gzip');
    return { head, body };
  };

  /** The entry of a key, if Next would serve it as a fresh hit. */
  const fresh = (/** @type {string} */ key) => {
    const entry = store()?.get(key);
    const revalidate = entry?.cacheControl?.revalidate;
    if (!entry || entry.value?.kind !== 'PAGES' || typeof revalidate !== 'number') return undefined;
    return entry.lastModified + revalidate * 1000 > now() ? entry : undefined;
  };

  /** Whether a request may be answered from the cache at all (what the request target does not say). */
  const plainRequest = (/** @type {import('node:http').IncomingMessage} */ req) => {
    if (!enabled || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const h = req.headers;
    if (h['x-nextjs-data'] || h['x-prerender-revalidate'] || h['x-prerender-revalidate-if-generated'] || h.range || h.rsc) return false;
    return !(h.cookie && DRAFT_COOKIE.test(h.cookie));
  };

  /** The cache key of a route whose target is a plain page path (null when it is not; undefined before the store knows its keys). */
  const keyOf = (/** @type {string} */ url, /** @type {Route} */ route) => {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!PAGE_PATH.test(path) || (q >= 0 && NEXT_QUERY.test(url.slice(q)))) return null;
    return store()?.keyOf(route.page);
  };

  /** Writes a recorded reply; false when there is none for this entry and host yet. */
  const reply = (
    /** @type {import('node:http').IncomingMessage} */ req,
    /** @type {import('node:http').ServerResponse} */ res,
    /** @type {string} */ key,
    /** @type {string} */ host,
    /** @type {readonly string[] | undefined} */ extra,
  ) => {
    const entry = fresh(key);
    const rec = entry && recorded.get(entry)?.get(host);
    if (!rec) return false;
    const { head, body } = acceptsGzip(req.headers['accept-encoding'])
      ? (rec.gzip ??= prepare(entry, rec.headers, true))
      : (rec.plain ??= prepare(entry, rec.headers, false));
    res.writeHead(200, extra?.length ? withExtra(head, extra) : head);
    res.end(req.method === 'HEAD' ? undefined : body);
    const stats = store()?.stats;
    if (stats) stats.replayed++;
    return true;
  };

  /**
   * A prepared head with a visitor's headers after it, each in place of the head's header of that
   * name (a variant's Cache-Control over the page's): made once per head and list for a list the
   * front door keeps (frozen: a variant's headers, one object per variant); a visitor's own list
   * (their first assignment, with its cookie) is joined for that one reply and not remembered: an
   * entry per new visitor in a WeakMap is work for the garbage collector that nothing reuses.
   * @type {WeakMap<string[], WeakMap<readonly string[], string[]>>}
   */
  const extended = new WeakMap();
  const withExtra = (/** @type {string[]} */ head, /** @type {readonly string[]} */ extra) => {
    if (!Object.isFrozen(extra)) return joined(replacedIn(head, extra), extra);
    let byList = extended.get(head);
    if (!byList) extended.set(head, (byList = new WeakMap()));
    let made = byList.get(extra);
    if (!made) byList.set(extra, (made = [...replacedIn(head, extra), ...extra]));
    return made;
  };

  /**
   * A head less the headers a visitor's list sets itself (the same head when it sets none of
   * them); by head and name, made once each, so a first visit's reply only looks its list's few
   * names up.
   * @type {WeakMap<string[], Map<string, string[]>>}
   */
  const without = new WeakMap();
  const replacedIn = (/** @type {string[]} */ head, /** @type {readonly string[]} */ extra) => {
    let out = head;
    for (let i = 0; i < extra.length; i += 2) {
      const name = /** @type {string} */ (extra[i]);
      let byName = without.get(out);
      if (!byName) without.set(out, (byName = new Map()));
      let less = byName.get(name);
      if (!less) {
        const lower = name.toLowerCase();
        /** @type {string[]} */
        const kept = [];
        for (let j = 0; j < out.length; j += 2)
          if (/** @type {string} */ (out[j]).toLowerCase() !== lower) kept.push(/** @type {string} */ (out[j]), /** @type {string} */ (out[j + 1]));
        // (a name the head does not have, as a visitor's cookie: the head itself)
        less = kept.length === out.length ? out : kept;
        if (byName.size < 8) byName.set(name, less);
      }
      out = less;
    }
    return out;
  };

  /** Two lists as one new list, copied by index into a list of their joint length: for a first visit's own list on every reply (Array concat takes ~3× as long on V8). */
  const joined = (/** @type {readonly string[]} */ a, /** @type {readonly string[]} */ b) => {
    const out = new Array(a.length + b.length);
    for (let i = 0; i < a.length; i++) out[i] = a[i];
    for (let i = 0; i < b.length; i++) out[a.length + i] = b[i];
    return out;
  };

  const api = {
    /**
     * Answers the request from the cache when its entry is fresh and its head is known (nothing
     * else is set on the response first); false when it cannot, and nothing was written. The hot
     * path of a replayed hit: no allocation of its own once the route's key is known.
     * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
     * @param {Route} route the internal page and normalised host the front door routed the request to
     * @param {readonly string[]} [extra] headers of this visitor's own, after the recorded ones (a flat [name, value, …] list)
     */
    serveFresh(req, res, route, extra) {
      if (!plainRequest(req)) return false;
      let key = keys.get(route);
      if (key === undefined) {
        key = keyOf(req.url ?? '/', route);
        if (key === undefined) return false;
        keys.set(route, key);
      }
      return key !== null && reply(req, res, key, route.host, extra);
    },

    /**
     * Answers the request from the cache when it can; otherwise hands it to Next (`next`) and, if
     * it could be answered from the cache later, records the head Next writes for it.
     * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
     * @param {Route | undefined} route the brand and normalised host the front door routed the request to
     * @param {(candidate?: Candidate) => unknown} next given the candidate (its cache key) when the page may be cached
     */
    handle(req, res, route, next) {
      const c = api.candidate(req, route);
      if (!c) return next();
      if (api.serve(req, res, c)) return;
      // A page Next has just rendered and stored goes out as the bytes the cache keeps (its HTML
      // is encoded once, not again as it is written).
      const end = res.end;
      res.end = /** @type {typeof res.end} */ (
        function (/** @type {any} */ chunk, /** @type {any[]} */ ...rest) {
          // (Next's compression passes an undefined encoding along)
          const utf8 = rest[0] === undefined || typeof rest[0] === 'function' || rest[0] === 'utf8' || rest[0] === 'utf-8';
          if (typeof chunk === 'string' && utf8) chunk = store()?.storedBytesOf?.(c.key, chunk) ?? chunk;
          return /** @type {any} */ (end).call(res, chunk, ...rest);
        }
      );
      const writeHead = res.writeHead;
      // Recorded after the head is final: server.mjs has set its headers (security headers, the
      // page's policy) before Next answers, and a visitor's writeHead (keepVisitorHeaders, set
      // before this one) runs inside this one, so Next's own values are known here (nextsOwn).
      res.writeHead = /** @type {typeof res.writeHead} */ (
        function (/** @type {any[]} */ ...args) {
          const out = writeHead.apply(res, /** @type {any} */ (args));
          // only a hit is recorded (record): a page Next has just rendered, the usual answer here, is
          // not turned into a headers object to be dropped
          if (res.statusCode === 200 && isHit(res.getHeader('x-nextjs-cache'))) {
            /** @type {Headers} */
            const headers = Object.fromEntries(rawHeaderNames(res).map((n) => [n, /** @type {any} */ (res.getHeader(n))]));
            // Next's head, not a visitor's in its place (keepVisitorHeaders)
            for (const [name, value] of nextsOwn.get(res) ?? []) {
              for (const n of Object.keys(headers)) if (n.toLowerCase() === name.toLowerCase()) delete headers[n];
              if (value !== undefined) headers[name] = /** @type {any} */ (value);
            }
            api.record(c, res.statusCode, headers);
          }
          return out;
        }
      );
      return next(c);
    },

    /**
     * Whether a request may be answered from the cache once its headers are known: a plain page
     * GET/HEAD on a host routed to a brand (named by the front door).
     * @param {import('node:http').IncomingMessage} req @param {Route | undefined} route
     * @returns {Candidate | undefined}
     */
    candidate(req, route) {
      if (!route || !plainRequest(req)) return undefined;
      const key = keyOf(req.url ?? '/', route);
      if (!key) return undefined;
      return { key, host: route.host, head: req.method === 'HEAD' };
    },

    /**
     * Answers a candidate from the cache when its entry is fresh and Next's headers for it on this
     * host are known. Returns false when Next must answer.
     * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res @param {Candidate} c
     */
    serve(req, res, c) {
      return reply(req, res, c.key, c.host, undefined);
    },

    /**
     * Called as Next writes a candidate's head: a 200 that Next answered from its cache (a fresh
     * HIT) records its headers for the entry Next served.
     * @param {Candidate} c @param {number} status @param {Headers} headers the head as it goes out
     */
    record(c, status, headers) {
      if (status !== 200 || !isHit(headers['x-nextjs-cache'])) return;
      const entry = fresh(c.key);
      if (!entry) return;
      let hosts = recorded.get(entry);
      if (!hosts) recorded.set(entry, (hosts = new Map()));
      if (hosts.size >= HOSTS_PER_ENTRY && !hosts.has(c.host)) return;
      /** @type {Map<string, [string, string | string[] | number]>} the last of each name, case aside, in its own case */
      const kept = new Map();
      for (const [name, value] of Object.entries(headers))
        if (value !== undefined && !FRAMING.has(name.toLowerCase())) kept.set(name.toLowerCase(), [name, value]);
      hosts.set(c.host, { headers: Object.fromEntries(kept.values()) });
    },
  };
  return api;
}
