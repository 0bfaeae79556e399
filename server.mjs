// @ts-check
/**
 * The HTTP server in front of Next (`npm start`, `npm run serve`, `npm run dev`, the e2e tests).
 * `next start` cannot do these, so they live here, before any request reaches Next:
 * - slow clients: headers must arrive within HEADERS_TIMEOUT_MS (default 10 s) and the whole
 *   request within REQUEST_TIMEOUT_MS (default 20 s), checked every second; a socket held open
 *   longer is closed (Node's defaults are 60 s / 300 s, checked every 30 s); a client that reads
 *   nothing of its answer for SEND_TIMEOUT_MS (default 15 s) is cut off (engine/http/slowClients.mjs);
 * - methods no page has: TRACE, TRACK and CONNECT, and OPTIONS * (a request for the server
 *   rather than a path), answer 405 with Allow — Next answers them with a 500;
 * - internal headers: Next's rewrite headers (x-middleware-rewrite, x-nextjs-rewrite,
 *   x-nextjs-matched-path) name the internal /_brand/… path; they are removed from every
 *   response except the client router's data requests, which need them to navigate;
 * - security headers on every response, the proxy's own error pages included: HSTS on the
 *   brands' production hosts, a Permissions-Policy that denies device features (pages that
 *   need geolocation allow it themselves), Cross-Origin-Opener-Policy, nosniff, referrer and
 *   framing policies, and the base Content-Security-Policy (engine/csp.mjs: our own origin and
 *   the inline error reporter's hash; brand pages get theirs from proxy.ts; CSP_MODE=report-only
 *   sends it as Content-Security-Policy-Report-Only, CSP_MODE=off not at all; none under --dev).
 * A deployment behind nginx (deploy/) keeps these and adds its own limits in front.
 */
import { createServer, request as httpRequest } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_HASHES_ENV, contentSecurityPolicy, cspHeaderName, inlineScripts, originOf, PAGE_POLICY_HEADER, sha256Source } from './engine/csp.mjs';
import { pageCacheStats } from './engine/cache/boundedPageCache.mjs';
import { createCachedPageReplay } from './engine/cache/cachedPageReplay.mjs';
import {
  BRAND_HEADER,
  brandRequestUrl,
  clientDataRequest,
  HOST_TABLE_FILE,
  hostRouter,
  internalPathRefused,
  needsProxy,
  plainPath,
  proxiedUrl,
  readHostRules,
  readPreviewModeId,
} from './engine/http/requestGate.mjs';
import { choosePagesRenderer, renderedWith } from './engine/http/reactRenderer.mjs';
import { leadKeyProblem } from './engine/leads/keyFormat.mjs';
import { guardSlowReaders, sendTimeoutFromEnv } from './engine/http/slowClients.mjs';

const dev = process.argv.includes('--dev');
// Next reads NODE_ENV as its modules load, so it is set before Next is imported.
if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: dev ? 'development' : 'production' });
const { default: next } = await import('next');
// Pages render with React's Node build rather than its edge build (engine/http/reactRenderer.mjs).
choosePagesRenderer();
const port = Number(process.env.PORT ?? 3000);
// The built-in demo lender (engine/sale/runtime.ts: no buyer documents, not a deployment) is this server, reached on loopback.
process.env.LOANSITES_DEMO_LENDER_ORIGIN ||= `http://127.0.0.1:${port}`;
const headersTimeout = Number(process.env.HEADERS_TIMEOUT_MS ?? 10_000);
const requestTimeout = Number(process.env.REQUEST_TIMEOUT_MS ?? 20_000);

// A malformed lead key, or a deployment without one, stops the start here with the reason
// (engine/leads/keyFormat.mjs), before the first request rather than a 500 on each.
const keyProblem = leadKeyProblem(process.env);
if (keyProblem) {
  console.error(keyProblem);
  process.exit(1);
}

const REFUSED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);
const ALLOW = 'GET, HEAD, POST';
const INTERNAL_HEADERS = ['x-middleware-rewrite', 'x-nextjs-rewrite', 'x-nextjs-matched-path'];

/** The brands' production hosts (and blog hosts), lower-case, read once from brands/*.json. */
function productionHosts(root = process.cwd()) {
  const hosts = new Set();
  const dir = join(root, 'brands');
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.json')) continue;
    try {
      const brand = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      for (const h of Array.isArray(brand.hosts) ? brand.hosts : []) if (typeof h === 'string') hosts.add(h.toLowerCase());
      if (typeof brand.blogHost === 'string') hosts.add(brand.blogHost.toLowerCase());
    } catch {
      // a broken brand file is reported by validation; it gets no HSTS here
    }
  }
  return hosts;
}

const hstsHosts = productionHosts();

/** Hashes of the build's inline scripts (engine/csp.mjs BUILD_HASHES_ENV), from the prerendered pages. */
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

const cspHeader = dev ? undefined : cspHeaderName(process.env.CSP_MODE);
const basePolicy = contentSecurityPolicy();
const hostName = (/** @type {string | undefined} */ host) => (host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');

/** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
function secure(req, res) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'geolocation=(), camera=(), microphone=(), payment=(), usb=(), interest-cohort=()');
  if (cspHeader) res.setHeader(cspHeader, basePolicy);
  if (hstsHosts.has(hostName(req.headers.host))) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  const dataRequest = Boolean(req.headers['x-nextjs-data']);
  const writeHead = res.writeHead;
  // Next sets its rewrite headers just before the head goes out; drop them there. The proxy says
  // what a brand page uses (PAGE_POLICY_HEADER); its Content-Security-Policy is built here.
  res.writeHead = /** @type {typeof res.writeHead} */ (
    function (/** @type {any[]} */ ...args) {
      const headers = args.find((a, i) => i > 0 && a && typeof a === 'object' && !Array.isArray(a));
      const hidden = dataRequest ? [PAGE_POLICY_HEADER] : [...INTERNAL_HEADERS, PAGE_POLICY_HEADER];
      let declared = res.getHeader(PAGE_POLICY_HEADER);
      if (headers) for (const name of Object.keys(headers)) if (name.toLowerCase() === PAGE_POLICY_HEADER) declared = headers[name];
      for (const name of hidden) res.removeHeader(name);
      if (headers) for (const name of Object.keys(headers)) if (hidden.includes(name.toLowerCase())) delete headers[name];
      if (cspHeader && typeof declared === 'string') res.setHeader(cspHeader, pagePolicyHeaderToCsp(declared));
      return writeHead.apply(res, /** @type {any} */ (args));
    }
  );
}

/** Cache hits answered here once Next has answered them once (engine/cache/cachedPageReplay.mjs). */
const replay = createCachedPageReplay({ enabled: !dev && process.env.PAGE_CACHE_REPLAY !== '0' });

/** The geocoder's origin when it is not our own (GEOCODER=mapbox; engine/geocode/endpoint.ts). */
const geocoderOrigin =
  process.env.GEOCODER === 'mapbox' ? originOf(process.env.MAPBOX_GEOCODING_URL?.trim() || 'https://api.mapbox.com/geocoding/v5') : undefined;

/** @type {Map<string, string>} */
const policies = new Map();

/**
 * A page's declaration of what it uses (next.config headers() or proxy.ts) → its policy (the
 * base policy when it cannot be read). The few distinct declarations are built once each.
 */
function pagePolicyHeaderToCsp(/** @type {string} */ declared) {
  let csp = policies.get(declared);
  if (csp) return csp;
  try {
    const { geocoder, ...page } = JSON.parse(declared);
    if (geocoder && geocoderOrigin) page.connect = [...(page.connect ?? []), geocoderOrigin];
    csp = contentSecurityPolicy(page);
  } catch {
    csp = basePolicy;
  }
  if (policies.size < 256) policies.set(declared, csp);
  return csp;
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {string} text @param {Record<string, string>} [headers] */
function plain(res, status, text, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text + '\n');
}

const distDir = join(process.cwd(), '.next');
// In development every request goes through proxy.ts (brand files are re-read on save); the
// build's host rules are only read in production.
const hostRules = dev ? [] : readHostRules(distDir);
if (!dev && hostRules.length === 0)
  console.warn(`[server] no host table (.next/${HOST_TABLE_FILE}; npm run build writes it): every page request goes through proxy.ts`);
const routedBrandOf = hostRouter(hostRules);
const previewModeId = dev ? null : readPreviewModeId(distDir);

/**
 * Host routing for Next: the forwarded host when the deployment trusts it; the internal prefix
 * and the hand-over prefix refused; what only proxy.ts can do handed over under PROXY_PREFIX; otherwise, on a host
 * the build routes, the brand named (BRAND_HEADER: next.config.ts's per-page headers go by it).
 * Returns the URL Next is to serve on a routed host (brandRequestUrl: the brand's internal page,
 * or its SEO route), undefined to serve the request as it is, or false when it was answered here.
 * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
 * @returns {string | undefined | false}
 */
function route(req, res) {
  if (process.env.TRUST_FORWARDED_HOST === '1') {
    const forwarded = String(req.headers['x-forwarded-host'] ?? '')
      .split(',')[0]
      ?.trim();
    if (forwarded) req.headers.host = forwarded;
  }
  const url = req.url ?? '/';
  const routedBrand = routedBrandOf(req.headers.host);
  const revalidate = req.headers['x-prerender-revalidate'];
  if (internalPathRefused({ path: plainPath(url), routedBrand, revalidateHeader: typeof revalidate === 'string' ? revalidate : undefined, previewModeId })) {
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not found</title></head><body><main><h1>Not found</h1></main></body></html>',
    );
    return false;
  }
  delete req.headers[BRAND_HEADER];
  const data = clientDataRequest(url, routedBrand);
  if (data) {
    req.url = data.url;
    if (!data.proxy) req.headers[BRAND_HEADER] = routedBrand;
    return undefined;
  }
  if (needsProxy({ dev, routedBrand, url })) {
    req.url = proxiedUrl(url);
    return undefined;
  }
  if (!routedBrand) return undefined;
  req.headers[BRAND_HEADER] = routedBrand;
  return brandRequestUrl(url, routedBrand);
}

// The single-instance page cache's counters on loopback, for the tests and the bench only.
const pageCacheStatsOn = process.env.PAGE_CACHE_STATS === '1';

const app = next({ dev, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval: 1000 }, (req, res) => {
  secure(req, res);
  if (REFUSED_METHODS.has(req.method ?? '')) return plain(res, 405, `Method ${req.method} is not allowed`, { Allow: ALLOW });
  if (!req.url?.startsWith('/')) {
    if (req.method === 'OPTIONS') return plain(res, 405, 'OPTIONS * is not supported', { Allow: ALLOW });
    return plain(res, 400, 'The request target must be a path');
  }
  if (pageCacheStatsOn && req.url === '/__page-cache' && /^(?:127\.|::1$|::ffff:127\.)/.test(req.socket.remoteAddress ?? '')) {
    const stats = pageCacheStats();
    // with the React server build pages were rendered with (engine/http/reactRenderer.mjs)
    return plain(res, 200, JSON.stringify(stats ? { ...stats, reactServerBuild: renderedWith() } : null), { 'Content-Type': 'application/json' });
  }
  const routed = route(req, res);
  if (routed === false) return;
  const brand = req.headers[BRAND_HEADER];
  // The replay looks at the page path the visitor asked for; Next is given the internal one.
  replay.handle(req, res, typeof brand === 'string' ? brand : undefined, () => {
    if (routed) req.url = routed;
    return handle(req, res).catch((err) => {
      console.error('[server]', req.method, req.url, err);
      if (!res.headersSent) plain(res, 500, 'Sorry, something went wrong with this service. Please refresh this page or try again later.');
      else res.end();
    });
  });
});
server.keepAliveTimeout = 5_000;
// ── slow readers: the send timeout (engine/http/slowClients.mjs; one call, whatever routes the requests)
guardSlowReaders(server, { sendTimeoutMs: sendTimeoutFromEnv() });
/**
 * A brand's 404 page is rendered by pages/_error.tsx on request (never prerendered), and its
 * Turbopack bootstrap script names _error's own chunks: its hash is learnt from one 404 rendered
 * at start, by a request to this server, and added to the build's hashes.
 */
function learnErrorPageHashes() {
  const brand = readdirSync(join(process.cwd(), 'brands'))
    .find((f) => f.endsWith('.json'))
    ?.replace(/\.json$/, '');
  if (!brand) return;
  const req = httpRequest({ host: '127.0.0.1', port, path: '/__loansites-start-check-no-such-page', headers: { host: `${brand}.localhost` } }, (res) => {
    let html = '';
    res.setEncoding('utf8');
    res.on('data', (c) => (html += c));
    res.on('end', () => {
      const known = new Set((process.env[BUILD_HASHES_ENV] ?? '').split(' ').filter(Boolean));
      for (const script of inlineScripts(html)) known.add(sha256Source(script));
      process.env[BUILD_HASHES_ENV] = [...known].join(' ');
    });
  });
  req.on('error', (err) => console.error('[server] could not render a 404 page at start:', err.message));
  req.end();
}
server.listen(port, () => {
  console.log(`loansites ${dev ? 'dev' : 'production'} server on http://localhost:${port} (each brand at http://{id}.localhost:${port}/)`);
  if (!dev) learnErrorPageHashes();
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
