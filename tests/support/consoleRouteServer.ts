/**
 * A console on a loopback port, as Next runs it under the front door: a console page's
 * getServerSideProps on the very request, rendered, and the console's form posts through their
 * route (pages/api/console/[action].ts). A request for any other host is a stand-in site saying
 * the origin it was reached at (engine/http/api.ts originOfRequest). The modules are imported
 * per request, so a test points the environment at its store (LOANSITES_DB_FILE) first.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { GetServerSidePropsContext } from 'next';
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { freePort } from './ports';

type PageModule = {
  getServerSideProps: (ctx: GetServerSidePropsContext) => Promise<{ props?: object; redirect?: { destination: string } }>;
  default: FunctionComponent<object>;
};

const PAGES: Record<string, () => Promise<unknown>> = {
  '/login': () => import('../../pages/_console/login'),
  '/users': () => import('../../pages/_console/users'),
  '/brands': () => import('../../pages/_console/brands'),
  '/leads': () => import('../../pages/_console/leads/index'),
};

async function answer(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  const { hostOfRequest, originOfRequest } = await import('../../engine/http/api');
  if (!hostOfRequest(req).startsWith('console.')) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
    return res.end(`the site at ${originOfRequest(req)}`);
  }
  if (url.pathname.startsWith('/api/console/')) {
    const { default: handler } = await import('../../pages/api/console/[action]');
    return handler(req as Parameters<typeof handler>[0], res as Parameters<typeof handler>[1]);
  }
  const load = PAGES[url.pathname];
  if (!load) return res.writeHead(404).end();
  const mod = (await load()) as PageModule;
  const ctx = { req, res, query: Object.fromEntries(url.searchParams), params: {}, resolvedUrl: `/_console${url.pathname}${url.search}` };
  const out = await mod.getServerSideProps(ctx as unknown as GetServerSidePropsContext);
  if (out.redirect) return res.writeHead(307, { Location: out.redirect.destination }).end();
  res.setHeader('Content-Type', 'text/html');
  res.end(renderToStaticMarkup(createElement(mod.default, out.props!)));
}

export interface ConsoleRouteServer {
  port: number;
  close(): Promise<void>;
}

/** The console listening on 127.0.0.1 at a free port. */
export async function startConsoleRouteServer(): Promise<ConsoleRouteServer> {
  const server: Server = createServer((req, res) => void answer(req, res).catch((err) => res.writeHead(500).end(String(err))));
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request to 127.0.0.1:`to` with exactly the headers given (Host among them), as a browser or a proxy would send it. */
export function send(to: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: to, method, path, agent: false, headers: { 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
