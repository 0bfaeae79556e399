/**
 * npm run bench — the performance figures, measured side by side in one run on this machine, each
 * printed against its budget. The production server (npm run build first, unless --no-build)
 * runs behind server.mjs on BENCH_PORT (BENCH_PORT + 1 serves Next's minimal app).
 *
 * A row producer is a function (ctx) => Promise<Row[]> in scripts/bench/ (context.ts has the
 * types and the helpers: get, rps, median). To add rows, write one and add it to PRODUCERS below,
 * in the order the table should show them; the server is shared, so a producer that needs
 * another server starts its own on a port of its own.
 *
 * The several-instances part (scripts/bench-deploy.ts, also npm run bench:deploy) runs last
 * unless --no-deploy: Redis page cache, nginx microcache, two instances vs one.
 */
import './check-node.cjs';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { benchDeploy } from './bench-deploy';
import { certificateRows } from './bench/certificate';
import { coldRenderRows } from './bench/coldRender';
import { eventIngestRows } from './bench/eventIngest';
import { startServer, stopServer, type BenchContext, type Row, type RowProducer } from './bench/context';
import { firstLoadJsRows } from './bench/firstLoadJs';
import { htmlSizeRows } from './bench/htmlSize';
import { idleMemoryRows } from './bench/idleMemory';
import { lighthouseRows } from './bench/lighthouseRows';
import { saleRows } from './bench/sale';
import { screeningRows } from './bench/screening';
import { bodyPatternRows } from './bench/bodyPatterns';
import { bodyValidationRows } from './bench/bodyValidation';
import { userAgentClassRows } from './bench/userAgentClass';
import { signInFloodRows } from './bench/signInFlood';
import { sitemapRows } from './bench/sitemap';
import { studioRevisionRows } from './bench/studioRevision';
import { catalogRebuildRows } from './bench/catalogRebuild';
import { studioPreviewRows } from './bench/studioPreview';
import { throughputRows } from './bench/throughput';
import { experimentHitRows } from './bench/experimentHit';
import { experimentPageRows } from './bench/experimentPage';
import { trafficOverviewRows } from './bench/trafficOverview';
import { floodMemoryRows } from './bench/floodMemory';

const PRODUCERS: { name: string; rows: RowProducer }[] = [
  { name: 'throughput', rows: throughputRows },
  { name: 'experiment hit', rows: experimentHitRows },
  { name: 'cold render and page cache', rows: coldRenderRows },
  { name: 'idle memory', rows: idleMemoryRows },
  { name: 'HTML size', rows: htmlSizeRows },
  { name: 'sitemap', rows: sitemapRows },
  { name: 'first-load JavaScript', rows: firstLoadJsRows },
  { name: 'lighthouse', rows: lighthouseRows },
  { name: 'console overview', rows: trafficOverviewRows },
  { name: 'console experiment page', rows: experimentPageRows },
  { name: 'console sign-in flood', rows: signInFloodRows },
  { name: 'sale', rows: saleRows },
  { name: 'screening', rows: screeningRows },
  { name: 'body patterns', rows: () => bodyPatternRows() },
  { name: 'body validation', rows: () => bodyValidationRows() },
  { name: 'user agent class', rows: () => userAgentClassRows() },
  { name: 'event ingest', rows: eventIngestRows },
  { name: 'events flood memory', rows: floodMemoryRows },
  { name: 'consent certificate', rows: certificateRows },
  { name: 'studio revision', rows: studioRevisionRows },
  { name: 'catalog rebuild', rows: catalogRebuildRows },
  { name: 'studio preview', rows: studioPreviewRows },
];

const root = process.cwd();
const BRAND = 'ipaydayloans';

function print(rows: readonly Row[]) {
  const width = Math.max(...rows.map((r) => r.figure.length));
  console.log('\n== performance figures (npm run bench)\n');
  for (const r of rows) {
    const verdict = r.ok === undefined ? '' : r.ok ? '  ✓' : '  ✗ over budget';
    console.log(`${r.figure.padEnd(width)}  ${r.measured}${r.budget ? `  [budget ${r.budget}]` : ''}${verdict}`);
  }
  const notes = rows.filter((r) => r.note);
  if (notes.length) console.log('\nhow:');
  for (const r of notes) console.log(`- ${r.figure}: ${r.note}`);
}

async function main() {
  if (!process.argv.includes('--no-build')) {
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    if (r.status !== 0) throw new Error('npm run build failed');
  }
  const port = Number(process.env.BENCH_PORT ?? 3200);
  const env = { PAGE_CACHE_STATS: '1' };
  let server: ChildProcess = await startServer(root, port, env);
  const ctx: BenchContext = {
    root,
    port,
    brand: BRAND,
    host: `${BRAND}.localhost:${port}`,
    seconds: Number(process.env.BENCH_SECONDS ?? 8),
    rounds: Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3)),
    shared: new Map(),
    pid: () => server.pid!,
    restart: async () => {
      stopServer(server);
      await new Promise((r) => setTimeout(r, 500));
      server = await startServer(root, port, env);
    },
    stop: () => stopServer(server),
  };
  const rows: Row[] = [];
  const only = process.env.BENCH_ONLY?.split(',');
  try {
    for (const p of PRODUCERS) {
      if (only && !only.includes(p.name)) continue;
      console.log(`[bench] ${p.name}…`);
      rows.push(...(await p.rows(ctx)));
    }
  } finally {
    ctx.stop();
  }
  print(rows);
  if (!process.argv.includes('--no-deploy') && !only) await benchDeploy();
}

// process.exit: the Redis clients of the several-instances part keep the event loop alive.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
