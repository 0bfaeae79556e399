// @ts-check
/**
 * Requests Node's HTTP parser refuses before any handler sees them: a method it does not know,
 * headers over its limit, a byte no header may hold, Content-Length beside Transfer-Encoding, a
 * request that did not arrive in time (engine/http/slowClients.mjs's limits). Node's own answer
 * is a bare status line with no body and none of the headers every other answer carries. Here
 * the same status is answered with the security headers server.mjs sends on every response and
 * a one-line reason, then the connection is closed, as Node does (what follows a request it
 * could not parse cannot be read as a request).
 *
 * Plain JavaScript typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step): server.mjs installs it on plain Node.
 */

/** @type {Record<string, [number, string, string]>} Node's error code → status, status text, reason */
const ANSWERS = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'The chunk extensions are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request did not arrive in time'],
};
const BAD_REQUEST = /** @type {[number, string, string]} */ ([400, 'Bad Request', 'The request could not be read as HTTP/1.1']);

/**
 * The answer to a request the parser refused, as the bytes written to the socket.
 * @param {{ code?: string }} err @param {readonly (readonly [string, string])[]} headers the security headers
 */
export function clientErrorAnswer(err, headers) {
  const [status, text, reason] = ANSWERS[err.code ?? ''] ?? BAD_REQUEST;
  const body = `${reason}\n`;
  const head = [
    `HTTP/1.1 ${status} ${text}`,
    ...headers.map(([name, value]) => `${name}: ${value}`),
    'Content-Type: text/plain; charset=utf-8',
    'Cache-Control: no-store',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Answers the server's parser errors itself (Node's 'clientError'), under the same rule as Node's
 * default: only when nothing of a response has been written on the connection yet, else the
 * connection is just closed (a second status line in the middle of an answer would corrupt it).
 * @param {import('node:http').Server} server
 * @param {() => readonly (readonly [string, string])[]} securityHeaders the headers every answer carries, read when one is made
 */
export function answerClientErrors(server, securityHeaders) {
  server.on('clientError', (/** @type {NodeJS.ErrnoException} */ err, /** @type {import('node:net').Socket} */ socket) => {
    const inFlight = /** @type {{ _httpMessage?: { headersSent?: boolean } }} */ (/** @type {any} */ (socket))._httpMessage;
    if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) socket.write(clientErrorAnswer(err, securityHeaders()));
    socket.destroy(err);
  });
  // an Expect header other than 100-continue: Node's own 417 is as bare as its 400
  server.on('checkExpectation', (_req, res) => {
    for (const [name, value] of securityHeaders()) res.setHeader(name, value);
    res.writeHead(417, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('Only "Expect: 100-continue" is understood\n');
  });
}

/**
 * Which requests asking for a protocol upgrade (Upgrade: websocket, h2c …) node:http hands to
 * 'upgrade' listeners instead of the request handler (its shouldUpgradeCallback option). Next adds
 * such a listener to the server at its first request, for development's hot reload; in production
 * it only routes the request and answers nothing, so an upgrade request to `/` on any host was
 * held open with no answer and no time limit, past the front door and the slow-client limits. No
 * page here speaks another protocol: outside development every request is answered as HTTP/1.1
 * by the request handler (the Upgrade header is ignored, as RFC 9110 §7.8 allows).
 * @param {boolean} dev
 * @returns {(this: import('node:http').Server, req: import('node:http').IncomingMessage) => boolean}
 */
export function upgradesIn(dev) {
  return function () {
    return dev && this.listenerCount('upgrade') > 0;
  };
}

/**
 * The Host header as the front door reads it. HTTP/1.1 must send one (RFC 9112 §3.2): without it
 * the front door answers 400 (server.mjs turns off node:http's bare 400 for it). HTTP/1.0 need
 * not: its request names no host (''), so Next's files still answer on it (a health check's
 * /static/ping.txt) and anything else is a host of no brand.
 * @param {import('node:http').IncomingMessage} req
 */
export function hostHeaderOf(req) {
  return req.headers.host ?? (req.httpVersionMajor === 1 && req.httpVersionMinor === 0 ? '' : undefined);
}

/**
 * The request's X-Forwarded-Host as the front door reads it: undefined when it has none (then the
 * Host header names the site), else every value it came with, joined with ", " as node:http joins
 * a header sent twice; the front door refuses more than one value, or an empty one, when it
 * believes the header (engine/site/hosts.ts forwardedHostProblem).
 * @param {import('node:http').IncomingMessage} req
 * @returns {string | undefined}
 */
export function forwardedHostOf(req) {
  const value = req.headers['x-forwarded-host'];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * How many Host header lines the request came with. node:http keeps the first of two in
 * req.headers.host, and a proxy or cache in front may have read the other (nginx refuses two; not
 * every proxy does): such a request names two sites, and the front door refuses it (400, RFC 9112
 * §3.2) rather than serve it as either.
 * @param {import('node:http').IncomingMessage} req
 */
export function hostHeaderCount(req) {
  const raw = req.rawHeaders;
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (/** @type {string} */ (raw[i]).length === 4 && /** @type {string} */ (raw[i]).toLowerCase() === 'host') n++;
  return n;
}
