/** A request to the studio's JSON API (engine/console/studioApi.ts) as the studio's pages send it: the session's cookie and CSRF token, same-origin. */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { CONSOLE_TEST_HOST } from './consoleForm';

export function studioRequest(
  method: string,
  path: string,
  who: { cookie: string; csrf: string },
  body?: unknown,
  headers: Record<string, string> = {},
): IncomingMessage {
  const raw = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  const req = Readable.from(raw.length ? [raw] : []) as unknown as IncomingMessage;
  Object.assign(req, {
    method,
    url: `/api/console/studio/${path}`,
    headers: {
      host: CONSOLE_TEST_HOST,
      cookie: who.cookie,
      'x-csrf-token': who.csrf,
      'sec-fetch-site': 'same-origin',
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(raw.length) }),
      ...headers,
    },
    socket: { remoteAddress: '198.51.100.7' },
  });
  return req;
}
