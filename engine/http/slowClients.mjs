// @ts-check
/**
 * Clients that do not read what they asked for. Node keeps every byte a response writes until
 * the client takes it, and never gives up on a client that takes nothing: a hundred clients
 * that ask for a 4 MB sitemap and never read it hold their sockets (and whatever was written
 * for them) for as long as they like. Two things keep that bounded:
 * - large bodies are shared, not copied: a cached page or sitemap is one Buffer written to every
 *   client (engine/site/seo/seoFiles.ts, engine/cache/cachedPageReplay.mjs), and sendBuffer below writes
 *   one in slices, each only once the client has taken the previous ones ('drain');
 * - a send timeout (guardSlowReaders): a connection with bytes waiting for the client that has
 *   taken none of them for SEND_TIMEOUT_MS (default 15 s, nginx's send_timeout in deploy/) is
 *   reset, and what was waiting for it is released. A slow client that keeps reading, however
 *   slowly, is never cut off;
 * - a connection closed for idleness (Node's keepAliveTimeout) is reset too, not closed: an
 *   answer that fit whole in the kernel's buffers (a few MB on loopback) is "sent" as far as
 *   Node knows, and a plain close would leave it there, retried for minutes to a client that
 *   reads nothing.
 *
 * Server-agnostic: any node:http (or https) server, whichever code routes its requests.
 *   guardSlowReaders(server, { sendTimeoutMs: sendTimeoutFromEnv() });
 *
 * Plain JavaScript typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step): server.mjs guards its connections with it on plain Node.
 */

/** Default send timeout: as long as nginx waits for a client that reads nothing (deploy/nginx.conf send_timeout). */
export const DEFAULT_SEND_TIMEOUT_MS = 15_000;

/** SEND_TIMEOUT_MS from the environment (a positive number of milliseconds), else the default. */
export function sendTimeoutFromEnv(env = process.env) {
  const ms = Number(env.SEND_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_SEND_TIMEOUT_MS;
}

/**
 * How far the client has got: bytes whose write completed, and bytes libuv still holds for the
 * write under way (it hands them to the kernel as the client reads, with no event in between).
 * @param {import('node:net').Socket} socket
 */
function progressOf(socket) {
  const handle = /** @type {{ writeQueueSize?: number } | undefined} */ (/** @type {any} */ (socket)._handle);
  return { done: socket.bytesWritten - socket.writableLength, inLibuv: handle?.writeQueueSize ?? 0 };
}

/**
 * Closes connections whose client has read nothing of what waits for it for `sendTimeoutMs`,
 * checked every `checkEveryMs`. Returns counters and a stop function (the server's 'close' stops it too).
 * @param {import('node:net').Server} server
 * @param {{ sendTimeoutMs?: number, checkEveryMs?: number, now?: () => number }} [options]
 */
export function guardSlowReaders(server, { sendTimeoutMs = DEFAULT_SEND_TIMEOUT_MS, checkEveryMs = 1000, now = Date.now } = {}) {
  /** @type {Map<import('node:net').Socket, { done: number, inLibuv: number, since: number }>} */
  const watched = new Map();
  const stats = { cutOff: 0 };
  server.on('connection', (/** @type {import('node:net').Socket} */ socket) => {
    watched.set(socket, { ...progressOf(socket), since: now() });
    socket.once('close', () => watched.delete(socket));
  });
  const check = () => {
    const t = now();
    for (const [socket, last] of watched) {
      if (socket.destroyed) {
        watched.delete(socket);
        continue;
      }
      const p = progressOf(socket);
      // Nothing waiting for the client, or it took some since the last look: it is keeping up.
      if (socket.writableLength === 0 || p.done > last.done || p.inLibuv < last.inLibuv) {
        Object.assign(last, p, { since: t });
        continue;
      }
      last.inLibuv = p.inLibuv;
      if (t - last.since >= sendTimeoutMs) {
        stats.cutOff++;
        // A reset, not a close: a close would leave the unsent bytes in the kernel (nginx's reset_timedout_connection).
        socket.resetAndDestroy();
        watched.delete(socket);
      }
    }
  };
  // Emitted by node:http when a kept-alive connection has been idle for keepAliveTimeout; with a
  // listener, closing it is the listener's job.
  server.on('timeout', (/** @type {import('node:net').Socket} */ socket) => socket.resetAndDestroy());
  const timer = setInterval(check, checkEveryMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  server.once('close', stop);
  return { stats, stop, watching: () => watched.size };
}

/** Slice written per step by sendBuffer: small enough that progress shows at every 'drain'. */
const SLICE = 64 * 1024;

/**
 * Writes `body` (a Buffer shared by every client that gets it) and ends the response, one
 * slice at a time: the next slice only once the client has taken the previous ones. Slices are
 * views of `body`, never copies. Stops when the connection closes.
 * @param {import('node:http').ServerResponse} res
 * @param {Buffer} body
 */
export function sendBuffer(res, body) {
  let at = 0;
  const more = () => {
    while (at < body.length) {
      if (res.destroyed) return;
      const slice = body.subarray(at, (at += SLICE));
      if (!res.write(slice)) return void res.once('drain', more);
    }
    res.end();
  };
  if (body.length <= SLICE) res.end(body);
  else more();
}
