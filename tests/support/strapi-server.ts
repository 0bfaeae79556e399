/**
 * A real GraphQL server shaped like Strapi v4, serving content through the same schema as
 * /api/content/graphql. Tests start it in-process (startStrapiServer) or as a process:
 *   tsx tests/support/strapi-server.ts --port 4010 --content tests/fixtures/content --token secret
 * Faults for tests: POST /__control {"mode": "ok" | "slow" | "error" | "garbage", "delayMs": n}.
 * In-process, hold(n) keeps the next n queries (all, by default) unanswered until the test
 * releases them — a render held in the middle, for as long as the test needs, with no guess at a
 * delay. A held query is answered from the content as it was when the query came in.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { loadContent, type ContentIndex } from '../../engine/content/embedded';
import { executeStrapiQuery } from '../../engine/content/strapiSchema';

export type Mode = 'ok' | 'slow' | 'error' | 'garbage';

export interface RunningServer {
  url: string;
  port: number;
  setMode(mode: Mode, delayMs?: number): void;
  close(): Promise<void>;
  requests: number;
  /** Holds the next `count` queries (default: every one until released): `arrived` resolves when the first comes in; `release` answers them. */
  hold(count?: number): Hold;
}

export interface Hold {
  arrived: Promise<void>;
  release(): void;
}

export function startStrapiServer(opts: { index: ContentIndex; token: string; port?: number }): Promise<RunningServer> {
  let mode: Mode = 'ok';
  let delayMs = 0;
  const state = { requests: 0 };
  let held: { arrived: () => void; released: Promise<void>; left: number } | undefined;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', async () => {
      if (req.url === '/__control') {
        const c = JSON.parse(body || '{}') as { mode?: Mode; delayMs?: number };
        mode = c.mode ?? 'ok';
        delayMs = c.delayMs ?? 0;
        res.writeHead(204).end();
        return;
      }
      state.requests++;
      if (req.headers.authorization !== `Bearer ${opts.token}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: 'Unauthorized' }] }));
        return;
      }
      // answered from the content as it is now, even when held
      let status = 200;
      let answer: string;
      try {
        const result = await executeStrapiQuery(opts.index, JSON.parse(body) as { query: string; variables?: Record<string, unknown> }, { allowPreview: true });
        answer = JSON.stringify(result);
      } catch (err) {
        status = 400;
        answer = JSON.stringify({ errors: [{ message: (err as Error).message }] });
      }
      if (held && held.left > 0) {
        held.left--;
        held.arrived();
        await held.released;
      }
      if (mode === 'slow') await new Promise((r) => setTimeout(r, delayMs));
      if (mode === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":[{"message":"Internal Server Error"}]}');
        return;
      }
      if (mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>Bad gateway</html>');
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
    });
  });
  return new Promise((resolve) => {
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/graphql`,
        port,
        setMode(m, d = 0) {
          mode = m;
          delayMs = d;
        },
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
        get requests() {
          return state.requests;
        },
        hold(count = Infinity) {
          let arrived!: () => void;
          let release!: () => void;
          const came = new Promise<void>((r) => (arrived = r));
          const released = new Promise<void>((r) => (release = r));
          held = { arrived, released, left: count };
          return {
            arrived: came,
            release: () => {
              held = undefined;
              release();
            },
          };
        },
      });
    });
  });
}

if (process.argv[1]?.endsWith('strapi-server.ts')) {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1]! : fallback;
  };
  const index = loadContent(join(process.cwd(), arg('content', 'content')));
  void startStrapiServer({ index, token: arg('token', 'test-token'), port: Number(arg('port', '4010')) }).then((s) =>
    console.log(`strapi-shaped GraphQL server on ${s.url}`),
  );
}
