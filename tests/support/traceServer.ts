/**
 * A real API route handler (POST /api/trace/session by default; /api/leads, /api/trace) on a
 * plain Node server, over a fresh SQLite file (or DATABASE_URL given): the route's own code,
 * without a Next build. A certificate's page (/certificate/<id>) and the keys' well-known address
 * reach their routes, when served, as the front door hands them over. Env is set before the route loads (the store and the limits read it once).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certificateRouteOf } from '../../engine/browser/certificatePath';

export interface TraceServer {
  port: number;
  dbFile: string;
  close(): Promise<void>;
}

type Handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>;
const ROUTES: Record<string, () => Promise<{ default: Handler }>> = {
  '/api/trace/session': () => import('../../pages/api/trace/session'),
  '/api/leads': () => import('../../pages/api/leads'),
  '/api/trace': () => import('../../pages/api/trace/index'),
  '/api/events': () => import('../../pages/api/events'),
  '/api/opt-out': () => import('../../pages/api/opt-out'),
  '/api/buyers/returns': () => import('../../pages/api/buyers/returns'),
  '/api/certificates/verify': () => import('../../pages/api/certificates/verify'),
  '/api/certificates/claim': () => import('../../pages/api/certificates/claim'),
  '/api/certificates/fetch': () => import('../../pages/api/certificates/fetch'),
  '/api/certificates/page': () => import('../../pages/api/certificates/page'),
  '/api/certificates/keys': () => import('../../pages/api/certificates/keys'),
};

type Route = keyof typeof ROUTES;

/** One route answers every path; several are answered each at its own path (anything else: 404). */
export async function startTraceServer(env: Record<string, string> = {}, route: Route | readonly Route[] = '/api/trace/session'): Promise<TraceServer> {
  const dir = mkdtempSync(join(tmpdir(), 'loansites-trace-'));
  const dbFile = join(dir, 'traces.sqlite');
  Object.assign(process.env, { LOANSITES_DB_FILE: dbFile, DATABASE_URL: '', TRUST_FORWARDED_HOST: '1', ...env });
  const routes = typeof route === 'string' ? [route] : route;
  const handlers = new Map(await Promise.all(routes.map(async (r) => [r, (await ROUTES[r]!()).default] as const)));
  const only = routes.length === 1 ? handlers.get(routes[0]!) : undefined;
  const { closeStore } = await import('../../engine/store/db');
  const server: Server = createServer((req, res) => {
    // a certificate's page and the keys at the addresses the front door hands to their routes
    const handed = certificateRouteOf(new URL(req.url ?? '/', 'http://x').pathname);
    if (handed && handlers.has(new URL(handed, 'http://x').pathname as Route)) req.url = handed;
    const handler = only ?? handlers.get(new URL(req.url ?? '/', 'http://x').pathname as Route);
    if (handler) void handler(req, res);
    else res.writeHead(404).end();
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    dbFile,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await closeStore();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  json: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

export function post(
  port: number,
  body: string,
  opts: { host?: string; ip?: string; type?: string; method?: string; ua?: string; path?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/api/trace/session',
        headers: {
          host: opts.host ?? 'ipaydayloans.localhost',
          'content-type': opts.type ?? 'application/json',
          'x-forwarded-for': opts.ip ?? '198.51.100.7',
          'user-agent': opts.ua ?? 'test-agent/1.0',
          ...opts.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text || '{}'), headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
