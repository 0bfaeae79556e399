// @ts-check
/**
 * The HTTP server in front of Next (`npm start`, `npm run serve`, `npm run dev`, the e2e tests):
 * a thin adapter around the front door (engine/frontDoor/frontDoor.ts), the same in development and
 * production. For each request it asks the front door what to do, sets every header itself and
 * then answers the request itself (refusals, unknown hosts, a broken brand's site), replays a
 * cached page (engine/cache/cachedPageReplay.mjs), or hands Next the URL the decision names.
 * Also here, because `next start` cannot do them:
 * - slow clients: headers must arrive within HEADERS_TIMEOUT_MS (default 10 s) and the whole
 *   request within REQUEST_TIMEOUT_MS (default 20 s), checked every second (Node's defaults are
 *   60 s / 300 s, checked every 30 s); a client that reads nothing of its answer for
 *   SEND_TIMEOUT_MS (default 15 s) is cut off (engine/http/slowClients.mjs);
 * - security headers on every response: HSTS on the brands' production hosts, a
 *   Permissions-Policy that denies device features (pages with "Use my location" allow
 *   geolocation), Cross-Origin-Opener-Policy, nosniff, referrer and framing policies, and the
 *   Content-Security-Policy (engine/site/csp.mjs: our own origin, the inline scripts' hashes, and for a
 *   brand page what it uses from third parties, for the console its own script-free policy;
 *   CSP_MODE=report-only sends it as
 *   Content-Security-Policy-Report-Only, CSP_MODE=off not at all; none under --dev).
 * A deployment behind nginx (deploy/) keeps these and adds its own limits in front.
 */
import './scripts/check-node.cjs';
import './engine/process/boundYoungGeneration.mjs';
import './engine/process/logPipe.mjs';
import { createServer, ServerResponse } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BUILD_HASHES_ENV,
  chunkBootstrapScript,
  CONSOLE_POLICY,
  consoleArea,
  contentSecurityPolicy,
  cspHeaderName,
  inlineScripts,
  sha256Source,
  STUDIO_PREVIEW_POLICY,
  studioPolicy,
} from './engine/site/csp.mjs';
import { pageCacheStats } from './engine/cache/boundedPageCache.mjs';
import { changeCounters } from './engine/cache/brandRenders.mjs';
import { createCachedPageReplay, keepVisitorHeaders } from './engine/cache/cachedPageReplay.mjs';
import { createColdPageRender } from './engine/http/coldPageRender.mjs';
import { choosePagesRenderer, renderedWith } from './engine/http/reactRenderer.mjs';
import { leadKeyProblem } from './engine/keys/keyFormat.mjs';
import { requestInProcess } from './engine/http/inProcessRequest.mjs';
import { guardSlowReaders, sendTimeoutFromEnv } from './engine/http/slowClients.mjs';
import { answerClientErrors, forwardedHostOf, hostHeaderCount, hostHeaderOf, upgradesIn } from './engine/http/clientErrors.mjs';
import { drainServer, runShutdown, shutdownGraceMs } from './engine/process/shutdown.mjs';
import { releaseStartUpMemory } from './engine/process/memorySettings.mjs';
import { deferNextConfigModules } from './engine/process/nextConfigModules.mjs';

const dev = process.argv.includes('--dev');
// Next reads NODE_ENV as its modules load, so it is set before Next is imported.
if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: dev ? 'development' : 'production' });
/**
 * In production Next is given the configuration the build resolved (.next/required-server-files.json,
 * what Next's own standalone server does) instead of reading next.config.ts again: a TypeScript
 * config is compiled at every start with Next's native SWC binding, which then stays mapped in the
 * process (~25 MiB resident for nothing else). The page cache handler is still chosen at start
 * from REDIS_URL, as next.config.ts chooses it (one build serves both ways).
 *
 * The handler is imported here once and handed to Next as the process-wide handler class Next
 * looks for when its config names none (globalThis[Symbol.for('@next/cache-handlers')].FetchCache,
 * read by the IncrementalCache constructor), rather than as `cacheHandler`: Next makes an
 * IncrementalCache two or three times per request it renders (base-server, and the pages route
 * module), each time `await import()`-ing the configured file again; the loader answers from its
 * module map, but resolving the path and the URL each time measured ~3% of a cold render's CPU
 * (--cpu-prof). The class and every argument it is constructed with are the same either way.
 */
async function builtNextConfig() {
  const file = join(process.cwd(), '.next', 'required-server-files.json');
  if (dev || !existsSync(file)) return undefined;
  const { config } = JSON.parse(readFileSync(file, 'utf8'));
  // next.config.ts: the same two handlers
  const handlerFile = join(process.cwd(), process.env.REDIS_URL ? 'engine/cache/redisPageCache.mjs' : 'engine/cache/boundedPageCache.mjs');
  const { default: PageCache } = await import(pathToFileURL(handlerFile).href);
  const holder = /** @type {any} */ (globalThis);
  const handlers = Symbol.for('@next/cache-handlers');
  holder[handlers] = { ...holder[handlers], FetchCache: PageCache };
  const { cacheHandler: _named, ...rest } = config;
  return { ...rest, cacheMaxMemorySize: 0 };
}
const builtConfig = await builtNextConfig();
if (builtConfig) {
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(builtConfig);
  // the code that reads and checks a next.config file loads only if something uses it (engine/process/nextConfigModules.mjs)
  deferNextConfigModules();
}
const { default: next } = await import('next');
// Pages render with React's Node build rather than its edge build (engine/http/reactRenderer.mjs).
choosePagesRenderer();
const port = Number(process.env.PORT ?? 3000);
// The built-in demo lender (engine/outbox/saleWorker.ts: no buyer documents, not a deployment) is this server, reached on loopback.
process.env.LOANSITES_DEMO_LENDER_ORIGIN ||= `http://127.0.0.1:${port}`;
const headersTimeout = Number(process.env.HEADERS_TIMEOUT_MS ?? 10_000);
const requestTimeout = Number(process.env.REQUEST_TIMEOUT_MS ?? 20_000);

// A malformed lead key, or a deployment without one, stops the start here with the reason
// (engine/keys/keyFormat.mjs), before the first request rather than a 500 on each.
const keyProblem = leadKeyProblem(process.env);
if (keyProblem) {
  console.error(keyProblem);
  process.exit(1);
}

/**
 * The front door, compiled to plain JavaScript (scripts/build-front-door.ts): by `npm run build`
 * into .next, or here at start in development (so an edited engine file counts on restart;
 * edited brand files count at once: the catalog re-reads them).
 * @type {import('./engine/frontDoor/server') & { BLOCK_SPECS: import('./engine/site/blockSpec').BlockSpecs }}
 */
const frontDoor = await (async () => {
  let file = join(process.cwd(), '.next', 'front-door.mjs');
  if (dev) {
    file = join(process.cwd(), 'node_modules', '.cache', 'loansites', 'front-door.mjs');
    const { buildFrontDoor } = await import(pathToFileURL(join(process.cwd(), 'scripts', 'build-front-door.ts')).href);
    await buildFrontDoor(file);
  } else if (!existsSync(file)) {
    console.error(`[server] no front door (${file}): run npm run build first`);
    process.exit(1);
  }
  return import(pathToFileURL(file).href);
})();

// How many pages are rendered at start before the server listens (engine/frontDoor/warmUp.ts); a value that is not a count stops the start with the reason.
const warmUpCount = frontDoor.warmUpCountOf(process.env);
if ('problem' in warmUpCount) {
  console.error(warmUpCount.problem);
  process.exit(1);
}

/** Hashes of the build's inline scripts (engine/site/csp.mjs BUILD_HASHES_ENV), from the prerendered pages. */
function buildScriptHashes(dir = join(process.cwd(), '.next/server/pages')) {
  const hashes = new Set();
  if (!existsSync(dir)) return hashes;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    for (const script of inlineScripts(readFileSync(join(entry.parentPath, entry.name), 'utf8'))) hashes.add(sha256Source(script));
  }
  return hashes;
}
if (!dev) process.env[BUILD_HASHES_ENV] = [...buildScriptHashes()].join(' ');

/**
 * Hashes of the chunk bootstraps of the pages the studio's editor renders (_app's and the page's,
 * as one script), from their build manifests: they render per request, so there is no
 * prerendered HTML to read.
 */
function studioBootstrapHashes(dir = join(process.cwd(), '.next/server/pages')) {
  const read = (/** @type {string} */ file) => JSON.parse(readFileSync(file, 'utf8'));
  const appFile = join(dir, '_app/build-manifest.json');
  const studio = join(dir, '_console/studio');
  if (!existsSync(appFile) || !existsSync(studio)) return [];
  const app = read(appFile);
  const appGroups = Object.values(app.pagesChunkGroupBootstrapParams ?? {});
  const hashes = new Set();
  for (const entry of readdirSync(studio, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== 'build-manifest.json') continue;
    const manifest = read(join(entry.parentPath, entry.name));
    for (const params of Object.values(manifest.pagesChunkGroupBootstrapParams ?? {}))
      hashes.add(sha256Source(chunkBootstrapScript([...appGroups, params], manifest.chunkLoadingGlobal)));
  }
  return [...hashes];
}
const STUDIO_POLICY = dev ? '' : studioPolicy(studioBootstrapHashes());

const cspHeader = dev ? undefined : cspHeaderName(process.env.CSP_MODE);
let basePolicy = contentSecurityPolicy();
/**
 * @type {Map<string, string>} a page policy (as JSON) → its Content-Security-Policy; the few
 * distinct ones built once each, and again once the error page's hashes are learnt (below)
 */
const policies = new Map();
const cspOf = (/** @type {import('./engine/site/csp.mjs').PagePolicy} */ policy) => {
  const key = JSON.stringify(policy);
  let csp = policies.get(key);
  if (!csp) {
    csp = contentSecurityPolicy(policy);
    if (policies.size < 256) policies.set(key, csp);
  }
  return csp;
};

const settings = {
  previewModeId: dev ? null : frontDoor.previewModeId(),
  consoleHosts: frontDoor.consoleHostsOf(process.env),
  trustForwardedHost: process.env.TRUST_FORWARDED_HOST === '1',
  production: process.env.NODE_ENV === 'production',
  env: process.env,
  // the built-in demo lender's offer page (/demo-lender/offer) exists only where the demo lender does
  demoLender: frontDoor.demoLenderAvailable(process.env),
};
const decide = frontDoor.rememberingPages();
/**
 * What the front door decides by, made once per catalog. In production the catalog changes only
 * when a brand is published in the studio (engine/site/brandLive.ts rebuilds it once and says so
 * here), so it is not asked again on every request.
 */
let door = { ...settings, catalog: frontDoor.getCatalog(frontDoor.BLOCK_SPECS) };
// Published brand revisions over the files, read before the first request (the files serve if the store cannot be read).
await frontDoor.watchBrandRevisions({ onChange: (catalog) => (door = { ...settings, catalog }) });
door = { ...settings, catalog: frontDoor.getCatalog() };
const doorNow = settings.production
  ? () => door
  : () => {
      const catalog = frontDoor.getCatalog();
      if (catalog !== door.catalog) door = { ...settings, catalog };
      return door;
    };
/** @type {WeakMap<object, Set<string>>} the catalog's production hosts (HSTS) */
const hstsHosts = new WeakMap();

/**
 * Every header of the response that does not come from Next, set before anyone writes the head.
 * @param {import('node:http').ServerResponse} res @param {import('./engine/frontDoor/server').Decision} d
 * @param {string} host the normalised host @param {object} catalog
 */
function secure(res, d, host, catalog) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  const area = d.kind === 'console' ? consoleArea(d.url) : undefined;
  // a draft's preview is framed by the studio (same origin); the rest of the console by nothing
  res.setHeader('X-Frame-Options', area && area !== 'preview' ? 'DENY' : 'SAMEORIGIN');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', frontDoor.permissionsPolicy(d));
  if (d.kind === 'console') {
    // the console: no script at all but in the studio's editor, and never stored by a browser, proxy or the page cache
    if (cspHeader) res.setHeader(cspHeader, area === 'studio' ? STUDIO_POLICY : area === 'preview' ? STUDIO_PREVIEW_POLICY : CONSOLE_POLICY);
    res.setHeader('Cache-Control', 'no-store');
    if (area === 'preview') res.setHeader('X-Robots-Tag', 'noindex');
  } else if (cspHeader) res.setHeader(cspHeader, d.kind === 'page' || d.kind === 'notFound' ? cspOf(d.policy) : basePolicy);
  let hosts = hstsHosts.get(catalog);
  if (!hosts) hstsHosts.set(catalog, (hosts = frontDoor.productionHosts(/** @type {any} */ (catalog))));
  if (hosts.has(host)) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  else if (frontDoor.isStagingHost(host, hosts)) res.setHeader('X-Robots-Tag', 'noindex');
}

/** Cache hits answered here once Next has answered them once (engine/cache/cachedPageReplay.mjs). */
const replay = createCachedPageReplay({ enabled: !dev && process.env.PAGE_CACHE_REPLAY !== '0' });

// The single-instance page cache's counters on loopback, for the tests and the bench only.
const pageCacheStatsOn = process.env.PAGE_CACHE_STATS === '1';

const app = next({ dev, port, ...(builtConfig ? { conf: builtConfig } : {}) });
const handle = app.getRequestHandler();
await app.prepare();
/** A brand page's cache miss rendered with Next's renderer, without its request pipeline (engine/http/coldPageRender.mjs). */
const cold = createColdPageRender({ enabled: !dev && process.env.COLD_RENDER_DIRECT !== '0', config: builtConfig });

/**
 * The App Router's request headers. No page here is an App Router page, yet Next acts on them for
 * any request: with `RSC: 1` it answers a 307 to the internal path plus `?_rsc`, a redirect a CDN
 * could keep and that names a path no visitor may see. Nobody of ours sends them; they are dropped.
 */
const APP_ROUTER_HEADERS = [
  'rsc',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
  'next-hmr-refresh',
  'next-url',
  'next-action',
];

/** Next answers the request, as `url`. @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res @param {string} url */
function toNext(req, res, url) {
  req.url = url;
  for (const name of APP_ROUTER_HEADERS) if (req.headers[name] !== undefined) delete req.headers[name];
  return handle(req, res).catch((err) => {
    console.error('[server]', req.method, req.url, err);
    if (!res.headersSent) {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end('Sorry, something went wrong with this service. Please refresh this page or try again later.\n');
    } else res.end();
  });
}

/** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
function answerRequest(req, res) {
  if (pageCacheStatsOn && req.url === '/__page-cache' && /^(?:127\.|::1$|::ffff:127\.)/.test(req.socket.remoteAddress ?? '')) {
    const stats = pageCacheStats();
    // with the React server build pages were rendered with (engine/http/reactRenderer.mjs), what the start's warm-up rendered,
    // and the brand and page changes noted (engine/cache/brandRenders.mjs); with Redis, only the last
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    const counters = stats ? { ...stats, reactServerBuild: renderedWith(), warmUp: warmedUp } : {};
    return res.end(JSON.stringify({ ...counters, ...changeCounters() }) + '\n');
  }
  const { 'x-prerender-revalidate': revalidate } = req.headers;
  const facts = {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    host: hostHeaderOf(req),
    hostHeaders: hostHeaderCount(req),
    forwardedHost: forwardedHostOf(req),
    revalidate: String(revalidate ?? ''),
    cookie: req.headers.cookie,
  };
  const door = doorNow();
  const d = decide(facts, door);
  // A fresh cached page goes out with the head recorded when Next answered it, these headers
  // included: nothing more is set for it (engine/cache/cachedPageReplay.mjs). The decision is
  // the route: the same object for the same host and target, which the replay keys its work by.
  // (a page under an experiment: the visitor's variant's entry, with its experiment headers and, for a visitor assigned now, the cookie)
  if (d.kind === 'page' && replay.serveFresh(req, res, /** @type {typeof d} */ (d.experiment?.sameAs ?? d), d.experiment?.headers)) return;
  const routedHost = frontDoor.requestHost(facts, settings.trustForwardedHost);
  // Next, and the pages it renders, see the host the front door routed by.
  if (settings.trustForwardedHost && routedHost) req.headers.host = routedHost;
  secure(res, d, routedHost, door.catalog);
  if ((d.kind === 'page' || d.kind === 'next') && d.experiment) {
    const h = d.experiment.headers;
    for (let i = 0; i < h.length; i += 2) res.setHeader(/** @type {string} */ (h[i]), /** @type {string} */ (h[i + 1]));
    // a variant's Cache-Control (private) over the shared one Next sets as it answers
    if (h.length) keepVisitorHeaders(res, h);
  }
  const answer = frontDoor.answerOf(d);
  if (answer) {
    res.writeHead(answer.status, answer.headers);
    return res.end(answer.body);
  }
  switch (d.kind) {
    case 'redirect':
      // relative: the browser keeps the scheme and host it asked with, and no URL is built from a request header
      res.writeHead(d.status, { Location: d.location, 'Cache-Control': 'no-store' });
      return res.end();
    case 'page':
      // the replay looks at the page path the visitor asked for; Next is given the internal one
      return replay.handle(req, res, { page: d.page, host: d.host }, (c) =>
        cold.render(req, res, { page: d.page, url: d.url, key: c?.key }, () => toNext(req, res, d.url)),
      );
    case 'console':
      // answerOf answered a path the console does not have; here url is set
      return toNext(req, res, d.url ?? '/_console');
    case 'seo':
    case 'notFound':
    case 'demoLender':
    case 'next':
      return toNext(req, res, d.url);
  }
}
// no Host header: answered by the front door (400 with the reason and every header), not by Node's bare 400
// an Upgrade header is answered as plain HTTP outside development (engine/http/clientErrors.mjs upgradesIn)
const server = createServer(
  { headersTimeout, requestTimeout, connectionsCheckingInterval: 1000, requireHostHeader: false, shouldUpgradeCallback: upgradesIn(dev) },
  answerRequest,
);
/** The headers secure() sets on a refusal, for an answer written without a response object (a request Node's parser refused). */
const refusalHeaders = () => {
  /** @type {[string, string][]} */
  const headers = [];
  const collect = /** @type {any} */ ({ setHeader: (/** @type {string} */ name, /** @type {string} */ value) => headers.push([name, value]) });
  secure(collect, { kind: 'refuse', status: 400, reason: '' }, '', doorNow().catalog);
  return headers;
};
// requests Node's parser refuses (an unknown method, headers over the limit, a request too slow): its status, with those headers and a reason
answerClientErrors(server, refusalHeaders);
/**
 * node:http never gives a CONNECT to the request handler: it goes to 'connect' listeners, and with
 * none the connection is dropped without a byte. Answered here by the same handler, so the front
 * door refuses it as it refuses TRACE (405 with Allow and the security headers), then the
 * connection closes (it was never going to be a tunnel).
 */
server.on('connect', (req, socket) => {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.on('finish', () => {
    res.detachSocket(socket);
    socket.end();
  });
  answerRequest(req, res);
});
server.keepAliveTimeout = 5_000;
// ── slow readers: the send timeout (engine/http/slowClients.mjs; one call, whatever routes the requests)
guardSlowReaders(server, { sendTimeoutMs: sendTimeoutFromEnv() });
/**
 * A brand's 404 page is rendered by pages/_error.tsx on request (never prerendered), and its
 * Turbopack bootstrap script names _error's own chunks: its hash is learnt from one 404 rendered
 * at start, by a request to this server answered in process (engine/http/inProcessRequest.mjs),
 * and added to the build's hashes.
 */
async function learnErrorPageHashes() {
  const brand = readdirSync(join(process.cwd(), 'brands'))
    .find((f) => f.endsWith('.json'))
    ?.replace(/\.json$/, '');
  if (!brand) return;
  try {
    const { body } = await requestInProcess(server, { path: '/__loansites-start-check-no-such-page', host: `${brand}.localhost` });
    const known = new Set((process.env[BUILD_HASHES_ENV] ?? '').split(' ').filter(Boolean));
    for (const script of inlineScripts(body)) known.add(sha256Source(script));
    process.env[BUILD_HASHES_ENV] = [...known].join(' ');
    basePolicy = contentSecurityPolicy();
    policies.clear();
  } catch (err) {
    console.error('[server] could not render a 404 page at start:', /** @type {Error} */ (err).message);
  }
}

/**
 * What the start-up warm-up did (WARM_UP_PAGES): pages rendered, in how many ms; the pages
 * themselves only with PAGE_CACHE_STATS (the bench leaves them out of its never-requested pages).
 * @type {{ asked: number, rendered: number, ms: number, pages?: string[] }}
 */
let warmedUp = { asked: 0, rendered: 0, ms: 0 };

/**
 * The work a production server does before it listens, so that the first connection it accepts
 * is answered by a ready server: the 404 page's script hashes (above); then, unless
 * WARM_UP_PAGES=0, the render path warmed: the 404 is the brand route module's render the cold
 * path learns its options from (engine/http/coldPageRender.mjs), and WARM_UP_PAGES pages of every
 * brand and template (engine/frontDoor/warmUp.ts) are rendered with them, neither stored nor
 * sent. Then the memory the start-up left committed is released (engine/process/memorySettings.mjs).
 */
async function startUp() {
  if (dev) return;
  const count = /** @type {{ count: number }} */ (warmUpCount).count;
  // prepared before the 404 below, so that render is the one the cold path learns from: the first page asked is then rendered here too
  const prepared = cold.prepareAtStart();
  await learnErrorPageHashes();
  if (prepared && count > 0) {
    try {
      const pages = frontDoor.warmUpPages(doorNow(), count);
      const { rendered, ms } = await cold.warmUp(pages);
      warmedUp = { asked: count, rendered, ms: Math.round(ms), ...(pageCacheStatsOn ? { pages: pages.slice(0, rendered).map((p) => p.page) } : {}) };
      console.log(`[server] render path warmed up: ${rendered} pages of ${pages.length} in ${Math.round(ms)} ms (WARM_UP_PAGES=${count})`);
    } catch (err) {
      // a server that could not warm up still serves: its first pages cost more, as without the warm-up
      console.error('[server] the render path was not warmed up:', /** @type {Error} */ (err).message);
    }
  }
  releaseStartUpMemory();
}
await startUp();
// A port it cannot have stops the start with the reason and a failing status (a supervisor then
// restarts it or reports it); left to the process's last-resort handler it exited 0.
const cannotListen = (/** @type {NodeJS.ErrnoException} */ err) => {
  const why =
    err.code === 'EADDRINUSE'
      ? 'another process listens there'
      : err.code === 'EACCES'
        ? 'not allowed for this user (a port below 1024 needs privileges)'
        : err.message;
  console.error(`[server] cannot listen on port ${port}: ${why}`);
  process.exit(1);
};
server.once('error', cannotListen);
server.listen(port, () => {
  server.off('error', cannotListen);
  console.log(`loansites ${dev ? 'dev' : 'production'} server on http://localhost:${port} (each brand at http://{id}.localhost:${port}/)`);
});
/**
 * SIGTERM (a release, a scale-down) or Ctrl-C: the requests in progress are answered, then the
 * workers stop and the store and Redis connections close (engine/process/shutdown.mjs), then the
 * process exits. A second signal exits at once.
 */
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    const graceMs = shutdownGraceMs();
    console.log(`[server] ${signal}: answering the requests in progress (up to ${graceMs} ms), then closing`);
    drainServer(server, graceMs)
      .then((drained) => {
        if (drained === 'cut') console.error(`[server] requests still open after ${graceMs} ms were cut off`);
        return runShutdown();
      })
      .then(({ closed, failed }) => {
        console.log(`[server] closed: ${closed.join(', ') || 'nothing was open'}${failed.length ? `; not closed: ${failed.join(', ')}` : ''}`);
        process.exit(failed.length ? 1 : 0);
      });
  });
}
