/**
 * npx tsx scripts/bench/studioCluster.ts — publish → the new text served by both instances of a
 * cluster: two production instances (npm run build first) on one PostgreSQL and one Redis, as
 * deploy/compose.yaml runs them, the default REVISIONS_POLL_MS. An editor publishes through
 * instance A's studio API (a draft, then the publish) PUBLISHES times; after each, both instances
 * are asked for the brand's page every 50 ms until both show the new text. Printed: p50, p95 and
 * the slowest of those times (budget p95 ≤ 5 s), and whether another brand's page stayed a cache
 * hit on B throughout. BENCH_STUDIO_PORT (default 3450) is the first of the ports it uses.
 */
import '../check-node.cjs';
import { startInstance, type Instance } from '../../tests/support/instances';
import { startPostgres } from '../../tests/support/postgres';
import { startRedis } from '../../tests/support/redis';
import { freePort } from '../../tests/support/ports';
import { rawRequest } from '../../tests/support/rawRequest';
import { openStore } from '../../engine/store/db';
import { addUser } from '../../engine/store/console';
import { hashPassword } from '../../engine/console/passwords';

const PUBLISHES = Number(process.env.BENCH_STUDIO_PUBLISHES ?? 20);
const BASE_PORT = Number(process.env.BENCH_STUDIO_PORT ?? 3450);
const BRAND = 'ipaydayloans';
const PAGE = '/faqs';

const send = (port: number, method: string, path: string, host: string, headers: Record<string, string> = {}, body = '') =>
  rawRequest(port, method, path, host, body, headers);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;

export async function benchStudioCluster(): Promise<string[]> {
  const [redis, postgres] = await Promise.all([startRedis({ port: await freePort(BASE_PORT) }), startPostgres()]);
  const instances: Instance[] = [];
  try {
    const databaseUrl = await postgres.createDatabase('bench_studio');
    const env = { REDIS_URL: redis.url, DATABASE_URL: databaseUrl, LEAD_DESTINATIONS: '', LEADS_ENCRYPTION_KEY: 'e'.repeat(64) };
    instances.push(await startInstance(await freePort(BASE_PORT + 1), env));
    instances.push(await startInstance(await freePort(BASE_PORT + 2), env));
    const [a, b] = instances as [Instance, Instance];
    const db = openStore({ url: databaseUrl });
    await addUser(db, { email: 'bench-editor@example.com', role: 'editor', passwordHash: await hashPassword('bench editor passphrase') });
    await db.destroy();
    const consoleHost = `console.localhost:${a.port}`;
    const login = await send(
      a.port,
      'POST',
      '/api/console/login',
      consoleHost,
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ email: 'bench-editor@example.com', password: 'bench editor passphrase' }).toString(),
    );
    const cookie = String([login.headers['set-cookie']].flat()[0] ?? '').split(';')[0]!;
    if (!cookie) throw new Error(`sign-in refused: ${login.status} ${login.body}`);
    const api = async (method: string, path: string, body?: unknown) => {
      const list = JSON.parse((await send(a.port, 'GET', '/api/console/studio/brands', consoleHost, { cookie })).body) as { csrf: string };
      const r = await send(
        a.port,
        method,
        `/api/console/studio/${path}`,
        consoleHost,
        { cookie, 'x-csrf-token': list.csrf, ...(body ? { 'content-type': 'application/json' } : {}) },
        body ? JSON.stringify(body) : '',
      );
      return { status: r.status, body: JSON.parse(r.body) as Record<string, unknown> };
    };
    // both instances hold the other brand's page in the shared cache before the first publish
    for (const i of [a, b]) for (let n = 0; n < 3; n++) await send(i.port, 'GET', '/contact-us', `cocoloan.localhost:${i.port}`);
    const opened = await api('GET', `brands/${BRAND}`);
    let version = Number(opened.body.version);
    const doc = opened.body.document as { footer: { about: string } };
    const times: number[] = [];
    const otherHits: string[] = [];
    for (let n = 0; n < PUBLISHES; n++) {
      const text = `Bench publish ${n} ${Date.now()}.`;
      doc.footer.about = text;
      const saved = await api('PUT', `brands/${BRAND}/draft`, { document: doc, expectedVersion: version });
      version = Number(saved.body.version);
      const t0 = performance.now();
      const published = await api('POST', `brands/${BRAND}/publish`, { version });
      if (published.status !== 200) throw new Error(`publish refused: ${JSON.stringify(published.body)}`);
      const seen = await Promise.all(
        [a, b].map(async (i) => {
          for (;;) {
            if ((await send(i.port, 'GET', PAGE, `${BRAND}.localhost:${i.port}`)).body.includes(text)) return performance.now() - t0;
            if (performance.now() - t0 > 15_000) return Infinity;
            await new Promise((r) => setTimeout(r, 50));
          }
        }),
      );
      times.push(Math.max(...seen));
      otherHits.push(String((await send(b.port, 'GET', '/contact-us', `cocoloan.localhost:${b.port}`)).headers['x-nextjs-cache'] ?? ''));
    }
    const p95 = quantile(times, 0.95);
    const allHits = otherHits.every((h) => h === 'HIT');
    return [
      `studio publish → new text on both instances: p50 ${quantile(times, 0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, slowest ${Math.max(...times).toFixed(0)} ms over ${PUBLISHES} publishes  [budget p95 ≤ 5000 ms]  ${p95 <= 5000 ? '✓' : '✗ over budget'}`,
      `another brand's page on B after each publish: ${allHits ? 'a cache hit every time' : otherHits.join(',')}  ${allHits ? '✓' : '✗'}`,
    ];
  } finally {
    await Promise.allSettled(instances.map((i) => i.stop()));
    await Promise.allSettled([redis.stop(), postgres.stop()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  benchStudioCluster().then(
    (lines) => {
      for (const l of lines) console.log(l);
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
