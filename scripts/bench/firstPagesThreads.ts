/**
 * Where a just-started server's first pages spend CPU, by thread: the main thread (rendering, in
 * bytecode until V8 has compiled it) against V8's and libuv's worker threads (compiling, GC),
 * for the first 400 never-requested pages and for 400 more after a 2,000-page warm-up, and how many
 * young and full collections each span ran (--trace-gc), with the kernel's share of the CPU and the
 * minor page faults a page (memory the process maps as it grows). Prints one line per span. Used to decide
 * what the first pages pay for; not a bench row. Also prints the server's RSS 5 s after it listens
 * (anonymous and file-backed), and each span's start and end on the monotonic clock in µs (the
 * clock of a --cpu-prof profile's timestamps, to cut a span out of one). With CLIENT_WARM_UP=N
 * the bench asks N other pages over HTTP before the first 400 (CLIENT_WARM_UP_BRANDS=all: of
 * every other brand; CLIENT_WARM_UP_PAUSE_MS: a quiet pause after them).
 *   BENCH_NODE_ARGS='…' [WARM_UP_PAGES=N] [CLIENT_WARM_UP=N …] npx tsx scripts/bench/firstPagesThreads.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render, sitemapPaths, spread } from './coldRender';
import { get } from './context';

const root = join(import.meta.dirname, '../..');
const port = Number(process.env.BENCH_PORT ?? 3230);
mkdirSync(join(root, '.bench'), { recursive: true });

function threads(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = tid === String(pid) ? 'main' : name.replace(/\d+$/, '');
      out.set(key, (out.get(key) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
      // the kernel's share of all threads (page faults, syscalls): memory a fresh process maps as it grows
      out.set('system, all threads', (out.get('system, all threads') ?? 0) + Number(f[12]) * 10);
    } catch {
      /* gone */
    }
  }
  return out;
}

/** The process's minor page faults so far (/proc/<pid>/stat's 10th field). */
const minorFaults = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[7]);

const diff = (a: Map<string, number>, b: Map<string, number>, pages: number) =>
  [...b]
    .map(([k, v]) => [k, (v - (a.get(k) ?? 0)) / pages] as const)
    .filter(([, v]) => v > 0.005)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');

const log = join(root, '.bench/first-pages-gc.log');
// stdout to a file for --trace-gc's lines (startServer discards it)
const child = spawn('node', [...(process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean), '--trace-gc', 'server.mjs'], {
  cwd: root,
  stdio: ['ignore', openSync(log, 'w'), 'inherit'],
  detached: true,
  env: { ...process.env, NODE_ENV: 'production', PORT: String(port), LOANSITES_DB_FILE: join(root, '.bench/bench.sqlite'), DATABASE_URL: '' },
});
for (let i = 0; i < 150; i++) {
  if ((await get(port, 'ipaydayloans.localhost', '/static/ping.txt').catch(() => undefined))?.status) break;
  await new Promise((r) => setTimeout(r, 200));
}
await new Promise((r) => setTimeout(r, 5000));
{
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const mib = (name: string) => (Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) / 1024).toFixed(1);
  console.log(`RSS 5 s after it listens: ${mib('VmRSS')} MiB (anonymous ${mib('RssAnon')}, files ${mib('RssFile')})`);
}
const ctx = { port, host: 'ipaydayloans.localhost' };
const all = await sitemapPaths(ctx);
/** Pages asked over HTTP before the first 400 (CLIENT_WARM_UP; other URLs of the same brand, or with CLIENT_WARM_UP_BRANDS=all of every other brand): what a warm-up through the whole request path buys. */
const clientWarmUp = Number(process.env.CLIENT_WARM_UP ?? 0);
const urls = spread(all, 2800 + clientWarmUp);
/** What V8 logged during a span: collections (--trace-gc), and with --trace-opt/--trace-deopt in BENCH_NODE_ARGS the compilations by tier and the deoptimisations. */
const logged = (from: number, to: number) => {
  const text = readFileSync(log).subarray(from, to).toString('utf8');
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const compiled = [
    ...text.matchAll(/\[completed compiling \S+ <JSFunction ([^ >]*)(?: \(sfi = \w+\))?> \(target (\w+)\) - took ([\d.]+), ([\d.]+), ([\d.]+) ms/g),
  ];
  const top = new Map<string, number>();
  for (const m of compiled) top.set(m[1] || '(anonymous)', (top.get(m[1] || '(anonymous)') ?? 0) + 1);
  // V8's three phases of a compilation (prepare, execute, finalize), in ms: the time the tier cost in the span
  const took = (tier: RegExp) =>
    compiled
      .filter((m) => tier.test(m[2]!))
      .reduce((sum, m) => sum + Number(m[3]) + Number(m[4]) + Number(m[5]), 0)
      .toFixed(0);
  return [
    `scavenges ${count(/Scavenge/g)}, full GCs ${count(/Mark-Compact|Mark-sweep/gi)}`,
    compiled.length
      ? `compiled: Maglev ${compiled.filter((m) => m[2] === 'MAGLEV').length} (${took(/^MAGLEV$/)} ms), TurboFan ${compiled.filter((m) => m[2] === 'TURBOFAN_JS' || m[2] === 'TURBOFAN').length} (${took(/^TURBOFAN/)} ms)`
      : '',
    count(/\[bailout|deoptimiz/gi) ? `deopts ${count(/\[bailout \(kind/g)}` : '',
    compiled.length
      ? `most compiled: ${[...top]
          .sort((a, b) => b[1] - a[1])
          .slice(0, Number(process.env.TOP_COMPILED ?? 8))
          .map(([k, v]) => `${k}×${v}`)
          .join(' ')}`
      : '',
  ]
    .filter(Boolean)
    .join('; ');
};
const span = async (name: string, list: string[]) => {
  const w0 = process.hrtime.bigint();
  const t0 = threads(child.pid!);
  const f0 = minorFaults(child.pid!);
  const from = readFileSync(log).length;
  const r = await render(ctx, list, child.pid!);
  const t1 = threads(child.pid!);
  const faults = (minorFaults(child.pid!) - f0) / list.length;
  console.log(`window ${name} ${w0 / 1000n} ${process.hrtime.bigint() / 1000n}`);
  console.log(
    `${name}: ${r.cpuMs.toFixed(2)} ms CPU a page (${diff(t0, t1, list.length)}); ${faults.toFixed(1)} minor page faults a page; ${logged(from, readFileSync(log).length)}`,
  );
};
if (clientWarmUp && process.env.CLIENT_WARM_UP_BRANDS === 'all') {
  // the same count spread over every other brand's sitemap, in turn, 8 at a time; then CLIENT_WARM_UP_PAUSE_MS of quiet before the first 400
  const brands = readdirSync(join(root, 'brands'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .filter((b) => b !== 'ipaydayloans');
  const lists = await Promise.all(
    brands.map(async (b) => ({
      host: `${b}.localhost`,
      paths: spread(await sitemapPaths({ port, host: `${b}.localhost` }), Math.ceil(clientWarmUp / brands.length)),
    })),
  );
  const jobs: { host: string; path: string }[] = [];
  for (let i = 0; jobs.length < clientWarmUp && i < 10000; i++)
    for (const l of lists) if (l.paths[i] && jobs.length < clientWarmUp) jobs.push({ host: l.host, path: l.paths[i]! });
  const t0 = threads(child.pid!);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < jobs.length) {
        const j = jobs[next++]!;
        await get(port, j.host, j.path);
      }
    }),
  );
  console.log(`${jobs.length} of other brands asked first: ${diff(t0, threads(child.pid!), jobs.length)}`);
  const from = readFileSync(log).length;
  if (process.env.CLIENT_WARM_UP_PAUSE_MS) await new Promise((r) => setTimeout(r, Number(process.env.CLIENT_WARM_UP_PAUSE_MS)));
  console.log(`pause: ${logged(from, readFileSync(log).length)}`);
} else if (clientWarmUp) await span(`${clientWarmUp} asked first`, urls.slice(2800, 2800 + clientWarmUp));
await span('first 400', urls.slice(0, 400));
await render(ctx, urls.slice(400, 2400));
await span('after 2,400', urls.slice(2400, 2800));
process.kill(-child.pid!, 'SIGTERM');
