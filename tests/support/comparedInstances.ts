/**
 * Two single-instance servers of the same build, one as we run it and one with some of our own
 * request handling turned off, compared answer by answer (tests/e2e/page-replay.spec.ts,
 * cold-render.spec.ts).
 */
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInstance, type Instance } from './instances';

/** Both instances, each with its own SQLite file, no Redis, the page cache's counters on loopback; `offEnv` for the second. */
export async function startComparedPair(onPort: number, offPort: number, offEnv: Record<string, string>): Promise<[on: Instance, off: Instance]> {
  const env = (port: number) => ({ PAGE_CACHE_STATS: '1', LOANSITES_DB_FILE: join(tmpdir(), `loansites-e2e-${port}.sqlite`), DATABASE_URL: '', REDIS_URL: '' });
  return Promise.all([startInstance(onPort, env(onPort)), startInstance(offPort, { ...env(offPort), ...offEnv })]);
}

const FRAMING = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * One request with a Host header (fetch cannot set one), its answer kept as two servers' answers
 * are compared: status, body bytes, and every header but the framing ones and the moment (the
 * only headers allowed to differ between two servers answering the same page).
 */
export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function pageAnswer(port: number, host: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<PageAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (!FRAMING.has(name)) kept[name] = String(value);
        resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
