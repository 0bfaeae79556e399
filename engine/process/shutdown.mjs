/**
 * What a stopping process closes, and in which order. A deployment stops an instance with SIGTERM
 * (a new release, a scale-down): requests already being answered finish, then the background work
 * stops (the lead worker ends the round it is in, so no delivery is left half-recorded), then the
 * connections close (the SQLite store checkpoints its write-ahead log, Redis clients say goodbye
 * instead of leaving the server to notice a dead socket).
 *
 * Whatever opens something registers how to close it here. The registry is kept on globalThis:
 * server.mjs runs it, but what registers (the store, the workers, the Redis clients) is loaded
 * inside Next's bundles, each with its own copy of this module.
 * Plain JavaScript: server.mjs imports it without a build step.
 */

const HOLDER = Symbol.for('loansites.shutdown');

/** @typedef {'work' | 'connections'} ShutdownPhase */
/** @typedef {{ name: string, phase: ShutdownPhase, close: () => unknown }} Closer */

/** @returns {Map<string, Closer>} */
function registry() {
  const g = /** @type {Record<symbol, Map<string, Closer>>} */ (/** @type {unknown} */ (globalThis));
  return (g[HOLDER] ??= new Map());
}

/**
 * Registers how to close something when the process stops. `work` closers run first (background
 * workers, which may still write), then `connections` (the store, Redis). A second registration
 * under the same name replaces the first: a reopened store is closed once.
 * @param {string} name @param {ShutdownPhase} phase @param {() => unknown} close
 * @returns {() => void} takes the registration back (the thing was closed some other way)
 */
export function onShutdown(name, phase, close) {
  const closer = { name, phase, close };
  registry().set(name, closer);
  return () => {
    if (registry().get(name) === closer) registry().delete(name);
  };
}

/** The names registered, in the order they would close. */
export function shutdownOrder() {
  return ordered().map((c) => c.name);
}

function ordered() {
  const all = [...registry().values()];
  return [...all.filter((c) => c.phase === 'work'), ...all.filter((c) => c.phase === 'connections')];
}

/**
 * Runs every closer, phase by phase; closers of one phase run side by side. A closer that throws is
 * reported and the rest still run; one that does not settle within `timeoutMs` is left behind (the
 * process is about to exit: a hung Redis must not keep it alive). Each closer runs once.
 * @param {{ timeoutMs?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<{ closed: string[], failed: string[] }>}
 */
export async function runShutdown({ timeoutMs = 5_000, log = (line) => console.error(line) } = {}) {
  /** @type {string[]} */ const closed = [];
  /** @type {string[]} */ const failed = [];
  for (const phase of /** @type {ShutdownPhase[]} */ (['work', 'connections'])) {
    const closers = [...registry().values()].filter((c) => c.phase === phase);
    for (const c of closers) registry().delete(c.name);
    await Promise.all(
      closers.map(async (c) => {
        /** @type {NodeJS.Timeout | undefined} */ let timer;
        const late = new Promise((resolve) => {
          timer = setTimeout(() => resolve('late'), timeoutMs);
          timer.unref();
        });
        try {
          const outcome = await Promise.race([
            Promise.resolve()
              .then(c.close)
              .then(() => 'closed'),
            late,
          ]);
          if (outcome === 'late') {
            failed.push(c.name);
            log(`[shutdown] ${c.name}: not closed within ${timeoutMs} ms, left behind`);
          } else closed.push(c.name);
        } catch (err) {
          failed.push(c.name);
          log(`[shutdown] ${c.name}: ${err instanceof Error ? err.message : String(err)}`);
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }
  return { closed, failed };
}

/**
 * Stops `server` taking connections and waits for the requests it is answering, up to `graceMs`;
 * then any connection still open is cut. Kept-alive connections with nothing in progress close at
 * once, and each one that finishes its last response closes then, not after its keep-alive timeout.
 * @param {import('node:http').Server} server @param {number} graceMs
 * @returns {Promise<'drained' | 'cut'>}
 */
export function drainServer(server, graceMs) {
  return new Promise((resolve) => {
    let outcome = /** @type {'drained' | 'cut'} */ ('drained');
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      outcome = 'cut';
      server.closeAllConnections();
    }, graceMs);
    // A request arriving on a kept-alive connection in the meantime is answered, and told the connection ends.
    const closing = (/** @type {unknown} */ _req, /** @type {import('node:http').ServerResponse} */ res) => res.setHeader('Connection', 'close');
    server.prependListener('request', closing);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      server.off('request', closing);
      resolve(outcome);
    });
    server.closeIdleConnections();
  });
}

/** SHUTDOWN_GRACE_MS: how long a stopping server waits for the requests in progress (default 10 s; a load balancer's deregistration delay is usually longer). */
/** @param {Record<string, string | undefined>} [env] */
export function shutdownGraceMs(env = process.env) {
  const ms = Number(env.SHUTDOWN_GRACE_MS ?? 10_000);
  return Number.isFinite(ms) && ms >= 0 ? ms : 10_000;
}
