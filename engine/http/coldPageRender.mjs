// @ts-check
/**
 * A brand page's cache miss rendered by server.mjs with Next's own page renderer, without Next's
 * per-request pipeline around it. Measured with --cpu-prof over never-requested city pages: Next's
 * routing, its route module's `prepare` (URL parsing, manifests, rewrites, dynamic-route
 * interpolation), its tracer, response cache and batcher were ~30% of a cold page's CPU, and
 * they decide nothing for a brand page the front door has already routed. What is kept is what
 * makes the page and its caching:
 * - the render is the brand route module's own `render` (renderToHTMLImpl: getStaticProps, the
 *   App, the Document, __NEXT_DATA__), called with the render options Next passed it for a
 *   brand page rendered earlier in this process — learnt from a real call, never built here — so
 *   the HTML is byte for byte Next's (tests/e2e/page-replay.spec.ts compares);
 * - the page is stored through Next's own IncrementalCache `set`, with the cache control Next
 *   would give it (its lifetimes map and the page cache handler see the same call), before the
 *   answer goes out, as Next does;
 * - the answer has Next's head for a miss (x-nextjs-cache: MISS, its Cache-Control, Content-Type,
 *   Content-Length) and Next's own compression middleware (gzip when asked, Vary).
 * Only a plain GET of a page with no entry in this process's page cache comes here; everything
 * else goes to Next as before: a stale or present entry (Next serves it and revalidates), draft
 * mode, data and revalidation requests (engine/cache/cachedPageReplay.mjs's candidates only), HEAD, a page
 * already being rendered, Redis (no local store to know a miss by), a notFound, a redirect, an
 * error (Next renders it again and shows its error page), or before Next has rendered one brand
 * page itself. COLD_RENDER_DIRECT=0 turns it off.
 *
 * Plain JavaScript typed with JSDoc: server.mjs runs it on plain Node.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { pageCacheStore } from '../cache/boundedPageCache.mjs';

/**
 * React renders answered from renderToString while `render` runs (./reactPagesServer.cjs). Loaded
 * when the first cold render is set up, not when this module is imported: React picks its
 * development or production build from NODE_ENV as it is first required, and server.mjs sets
 * NODE_ENV only after its imports (loaded at import, every page rendered with React's development
 * build, warnings and all).
 * @returns {<T>(render: () => Promise<T>) => Promise<T>}
 */
const stringRenders = () => createRequire(import.meta.url)('./reactPagesServer.cjs').renderingToString;

/** The brand catch-all's page, as Next names it (pages/_brand/[brand]/[[...path]].tsx). */
export const BRAND_PAGE = '/_brand/[brand]/[[...path]]';
const HTML = 'text/html; charset=utf-8';

/**
 * @typedef {{ page: string, query: Record<string, unknown>, params: Record<string, unknown>, renderContext: Record<string, unknown>, sharedContext: Record<string, unknown>, renderOpts: Record<string, any> }} RenderContext
 */

/**
 * @param {{ enabled?: boolean, root?: string, config?: { generateEtags?: boolean, poweredByHeader?: boolean, compress?: boolean, expireTime?: number } }} [options]
 *   config: the Next configuration the build resolved (server.mjs's builtConfig)
 */
export function createColdPageRender({ enabled = process.env.COLD_RENDER_DIRECT !== '0', root = process.cwd(), config } = {}) {
  // ETags and X-Powered-By would need Next's send path: with either on (ours has both off), Next answers.
  const usable = enabled && !!config && !config.generateEtags && !config.poweredByHeader;
  const renderingToString = usable ? stringRenders() : undefined;
  /** @type {any} the brand route module (its `render` is wrapped to learn the render options) */
  let routeModule;
  /** @type {RenderContext | undefined} what Next passed the route module's render for a plain brand page */
  let learnt;
  /** Pages being rendered here now (by cache key): a second request for one goes to Next. */
  const inFlight = new Set();
  const require = createRequire(join(root, 'package.json'));
  /** @type {((req: any, res: any, next: () => void) => void) | undefined} */
  let compress;
  /** @type {(cc: { revalidate: number, expire?: number }) => string} */
  let cacheControlHeader;
  /** @type {(res: any) => void} */
  let releaseCompression;

  /** Whether the route module was loaded and its render wrapped (undefined: not tried yet). */
  let prepared = /** @type {boolean | undefined} */ (undefined);

  /**
   * Loads the brand route module as Next does (the same module instance: Node's module cache)
   * and wraps its render to learn the options Next renders with. Done as the first brand page
   * goes to Next, which loads the module then anyway: nothing is loaded earlier than before.
   * Returns whether cold renders can be answered here once Next has rendered that page.
   */
  function prepare() {
    if (!usable) return false;
    try {
      const mod = require(join(root, '.next/server/pages/_brand/[brand]/[[...path]].js'));
      routeModule = mod?.routeModule;
      if (!routeModule || typeof routeModule.render !== 'function') return false;
      ({ getCacheControlHeader: cacheControlHeader } = require('next/dist/server/lib/cache-control'));
      ({ releaseCompressionStream: releaseCompression } = require('next/dist/server/lib/release-compression-stream'));
      if (config?.compress !== false) compress = require('next/dist/compiled/compression')();
    } catch (err) {
      console.warn(`[server] cold pages render through Next's pipeline: ${/** @type {Error} */ (err).message}`);
      return false;
    }
    const render = routeModule.render;
    routeModule.render = function learn(/** @type {any} */ req, /** @type {any} */ res, /** @type {RenderContext} */ context) {
      const o = context?.renderOpts;
      if (
        !learnt &&
        context?.page === BRAND_PAGE &&
        o &&
        !o.isNextDataRequest &&
        !o.isOnDemandRevalidate &&
        !o.err &&
        !context.renderContext?.isDraftMode &&
        !context.renderContext?.isFallback
      )
        learnt = context;
      return render.call(this, req, res, context);
    };
    routeModule.render.original = render;
    return true;
  }

  /**
   * The render options for one brand page, from the learnt ones: what Next's pages handler sets
   * per request for a getStaticProps page (params, query = params, the resolved URL).
   * @param {RenderContext} base @param {string} brand @param {string[]} path @param {string} internalPath
   * @returns {RenderContext}
   */
  const contextFor = (base, brand, path, internalPath) => {
    const params = path.length ? { brand, path } : { brand };
    return {
      ...base,
      query: { ...params },
      params,
      renderContext: { ...base.renderContext, isDraftMode: false, isFallback: false },
      renderOpts: {
        ...base.renderOpts,
        params,
        resolvedUrl: internalPath,
        resolvedAsPath: internalPath,
        isOnDemandRevalidate: false,
        isNextDataRequest: false,
        err: undefined,
      },
    };
  };

  /**
   * The route module's own render of one brand page with the learnt options, its React renders
   * answered as strings: Next's render result (metadata and HTML).
   * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res @param {string} page the internal page path
   */
  const renderWithLearnt = (req, res, page) => {
    const [, , brand = '', ...path] = page.split('/');
    const context = contextFor(/** @type {RenderContext} */ (learnt), brand, path, page);
    return /** @type {NonNullable<typeof renderingToString>} */ (renderingToString)(() => routeModule.render.original.call(routeModule, req, res, context));
  };

  /**
   * Loads the brand route module and wraps its render now, at start, so that the render Next
   * does next (server.mjs's 404 at start: a brand page no route matches, rendered by the same
   * route module with the same options as any page's miss) is the one learnt from. Returns
   * whether cold renders can be answered here.
   */
  function prepareAtStart() {
    prepared ??= prepare();
    return prepared;
  }

  /**
   * Renders each page as a miss would, at start, and keeps nothing: no cache is written, nothing
   * is sent (the request and response are never connected to a client). What it is for: a
   * started process runs the render path as bytecode until V8 has compiled it, and its first
   * few hundred pages cost ~1.4–2× a warm server's CPU each; rendering a spread of pages of
   * every brand and template here moves part of that before the server accepts connections
   * (measured: the bench's first 400 pages ~10–20% less CPU; what remains is mostly V8 still
   * compiling on its worker threads, for code a spread over every brand ran only a few times).
   * Stops at the first render that fails (the render path is then not what a visitor would
   * get); returns how many pages were rendered and how long it took.
   * @param {{ page: string, host: string }[]} pages internal page paths (/_brand/{brand}/…) and the host each is asked on
   */
  async function warmUp(pages) {
    const started = performance.now();
    let rendered = 0;
    if (!learnt) return { rendered, ms: 0 };
    for (const { page, host } of pages) {
      const req = new IncomingMessage(new Socket());
      Object.assign(req, { method: 'GET', url: page, headers: { host } });
      const res = new ServerResponse(req);
      try {
        const result = await renderWithLearnt(req, res, page);
        if (typeof result?.toUnchunkedString !== 'function') break;
        if (!result.metadata?.isNotFound) result.toUnchunkedString();
      } catch (err) {
        console.warn(`[server] warm-up stopped at ${page}: ${/** @type {Error} */ (err).message}`);
        break;
      }
      rendered++;
    }
    return { rendered, ms: performance.now() - started };
  }

  /**
   * Renders and answers a brand page's cache miss; false (nothing written) when Next must answer.
   * `route.page` is the internal page path (/_brand/{brand}/…), `url` the same with the request's
   * search (what Next would be given), `key` its cache key.
   * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
   * @param {{ page: string, url: string, key?: string }} route (no key: a request the page cache may not answer, Next's)
   * @param {() => unknown} toNext Next answers instead (called at most once, before anything is written)
   */
  async function render(req, res, route, toNext) {
    const base = learnt;
    if (!base) {
      prepared ??= prepare();
      return toNext();
    }
    const store = pageCacheStore();
    const incrementalCache = /** @type {any} */ (globalThis).__incrementalCache;
    const { key, page, url } = route;
    if (!key || !store || !incrementalCache || req.method !== 'GET' || inFlight.has(key) || store.get(key) !== null) return toNext();
    inFlight.add(key);
    let result;
    try {
      req.url = url;
      result = await renderWithLearnt(req, res, page);
    } catch {
      // Next renders it again and answers as it does for a failed render (its error page, reported)
      inFlight.delete(key);
      return toNext();
    }
    const { metadata } = result;
    const cacheControl = metadata?.cacheControl;
    if (
      metadata?.isNotFound ||
      metadata?.isRedirect ||
      typeof cacheControl?.revalidate !== 'number' ||
      cacheControl.revalidate < 1 ||
      typeof result.toUnchunkedString !== 'function'
    ) {
      inFlight.delete(key);
      return toNext();
    }
    if (cacheControl.expire === undefined) cacheControl.expire = config?.expireTime;
    const html = result.toUnchunkedString();
    try {
      // as Next's response cache stores a render: keyed by the page's path, in its own cache context (the route that owns the entry)
      const value = { kind: 'PAGES', html, pageData: metadata.pageData, headers: metadata.headers, status: metadata.statusCode };
      await incrementalCache.set(page, value, { ...routeModule.getResponseCache(req).getCacheContext(false, false), cacheControl });
    } catch {
      // Next's response cache would have failed the same way; it answers as it does then
      return toNext();
    } finally {
      inFlight.delete(key);
    }
    if (compress) {
      compress(req, res, () => {});
      // as Next's router does: a client gone before the end would leave the zlib stream open
      res.once('close', () => {
        if (!res.writableFinished) releaseCompression(res);
      });
    }
    store.stats.renderedDirect++;
    res.setHeader('x-nextjs-cache', 'MISS');
    res.setHeader('Cache-Control', cacheControlHeader({ revalidate: cacheControl.revalidate, expire: cacheControl.expire }));
    res.setHeader('Content-Type', HTML);
    // the bytes the cache handler has just made of the HTML (engine/cache/boundedPageCache.mjs), not encoded again to be counted and sent
    const bytes = store.storedBytesOf(key, html);
    res.setHeader('Content-Length', bytes ? bytes.length : Buffer.byteLength(html));
    res.end(bytes ?? html);
  }

  return { render, prepareAtStart, warmUp };
}
