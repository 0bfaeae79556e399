/**
 * A console form post as the browser sends it (same-origin, form-encoded), for unit tests of the
 * console's form routes without a server; and a sign-in through the real sign-in route.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { csrfToken } from '../../engine/console/csrf';
import { loginRoute } from '../../engine/console/formRoutes';
import type { Store } from '../../engine/store/db';

export const CONSOLE_TEST_HOST = 'console.localhost:3000';

/** The Accept header Chromium sends with a form's post (a navigation): it names text/html. */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

export function consolePost(fields: Record<string, string>, headers: Record<string, string> = {}): IncomingMessage {
  const body = new URLSearchParams(fields).toString();
  const req = Readable.from([Buffer.from(body)]) as unknown as IncomingMessage;
  Object.assign(req, {
    method: 'POST',
    url: '/api/console/x',
    headers: {
      host: CONSOLE_TEST_HOST,
      'content-type': 'application/x-www-form-urlencoded',
      accept: BROWSER_ACCEPT,
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
    socket: { remoteAddress: '198.51.100.9' },
  });
  return req;
}

/** Signs in through the sign-in route: the session cookie (name=value) and its CSRF token, or undefined when refused. */
export async function consoleSignIn(db: Store, email: string, password: string): Promise<{ cookie: string; csrf: string; location: string } | undefined> {
  const r = await loginRoute(db, consolePost({ email, password }));
  const set = r.headers?.['Set-Cookie'];
  if (!set) return undefined;
  const cookie = set.split(';')[0]!;
  return { cookie, csrf: csrfToken(cookie.split('=')[1]!), location: r.headers!.Location! };
}

/**
 * An analyst's account added to `db` and signed in through the sign-in route: its session cookie
 * (name=value), for tests that render a console page as an analyst sees it. The store's modules
 * are imported here, after the test has pointed the environment at its store.
 */
export async function analystCookie(db: Store): Promise<string> {
  const { addUser } = await import('../../engine/store/console');
  const { hashPassword } = await import('../../engine/console/passwords');
  await addUser(db, { email: 'analyst@example.com', role: 'analyst', passwordHash: await hashPassword('a long passphrase 1', { N: 2 ** 12, r: 8, p: 1 }) });
  return (await consoleSignIn(db, 'analyst@example.com', 'a long passphrase 1'))!.cookie;
}
