// @ts-check
/**
 * A request answered by this process's own HTTP server without a network connection: the
 * server is handed one end of an in-memory stream pair as a connection (node:http takes any
 * Duplex so), the request goes in at the other. Everything the server does for a request runs
 * (its handler, Next), but it needs no listening socket: server.mjs does its start-up requests
 * this way before it listens, so nothing outside can reach it until it is ready.
 *
 * Plain JavaScript typed with JSDoc: server.mjs runs it on plain Node.
 */
import { request } from 'node:http';
import { duplexPair } from 'node:stream';

/**
 * @param {import('node:http').Server} server
 * @param {{ path: string, host: string }} target
 * @returns {Promise<{ status: number, body: string }>}
 */
export function requestInProcess(server, { path, host }) {
  return new Promise((resolve, reject) => {
    const [client, served] = duplexPair();
    server.emit('connection', served);
    const req = request({ path, headers: { host, connection: 'close' }, createConnection: () => /** @type {any} */ (client) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        client.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.on('error', (err) => {
      client.destroy();
      reject(err);
    });
    req.end();
  });
}
