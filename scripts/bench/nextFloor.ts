/**
 * Next's own floor for a server-rendered page: a minimal pages-router app built with the same next
 * version in .bench/floor, one catch-all page whose getServerSideProps returns the same visible
 * HTML as one of our pages (read from a file once) and renders it, so every request is a render
 * (props → React → __NEXT_DATA__) and nothing is cached. The cold-render bench (coldRender.ts)
 * loads it with the same URLs and load generator as ours, interleaved, and divides.
 *
 * Also the stock Next app the idle-memory row (idleMemory.ts) compares with.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get } from './context';

const PAGE = `import { readFileSync } from 'node:fs';

let body;

export async function getServerSideProps({ params }) {
  body ??= readFileSync(process.env.FLOOR_BODY_FILE, 'utf8');
  return { props: { path: params.slug.join('/'), html: body } };
}

export default function Page({ path, html }) {
  return (
    <main data-path={path}>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </main>
  );
}
`;

let built: string | undefined;

/** Builds the floor app once per bench run; returns its folder. */
export function buildFloorApp(root: string): string {
  if (built) return built;
  const dir = join(root, '.bench/floor');
  // a build of the same page left by an earlier run is reused (same next: node_modules is the project's)
  if (existsSync(join(dir, '.next/BUILD_ID')) && readFileSync(join(dir, 'pages/[...slug].js'), 'utf8') === PAGE) return (built = dir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'pages'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'next-floor', private: true }));
  writeFileSync(join(dir, 'pages/[...slug].js'), PAGE);
  writeFileSync(join(dir, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(root)} } };\n`);
  const r = spawnSync('npx', ['next', 'build'], { cwd: dir, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) throw new Error('the floor app did not build');
  return (built = dir);
}

/**
 * The floor page's props: the start of what React renders of one of our pages (its <body> without
 * scripts), cut at a tag so that the floor's answer — that HTML rendered, plus the same HTML again
 * as JSON in __NEXT_DATA__ — is about as many bytes as our page.
 */
export function visibleHtml(page: string): string {
  const body = page
    .slice(page.indexOf('<body'), page.lastIndexOf('</body>'))
    .replace(/^<body[^>]*>/, '')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
  const half = Math.max(0, Math.floor(Buffer.byteLength(page) / 2) - 1000);
  return body.length <= half ? body : body.slice(0, body.lastIndexOf('<', half));
}

/**
 * Starts `next start` of an app folder as the node process itself (no npx in between: its CPU is
 * read from /proc); `ready: false` returns once spawned (a readiness request would render its 404).
 */
export async function startNextApp(root: string, dir: string, port: number, env: Record<string, string> = {}, { ready = true } = {}): Promise<ChildProcess> {
  const child = spawn('node', [join(root, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: dir,
    stdio: 'ignore',
    detached: true,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env },
  });
  if (!ready) return child;
  for (let i = 0; i < 150; i++) {
    const res = await get(port, '127.0.0.1', '/floor-ping').catch(() => undefined);
    if (res?.status) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`next start in ${dir} on ${port} did not answer`);
}

/** The floor app on `port`, rendering `visible` on every request. */
export async function startFloor(root: string, port: number, visible: string): Promise<ChildProcess> {
  const dir = buildFloorApp(root);
  const file = join(dir, 'body.html');
  writeFileSync(file, visible);
  return startNextApp(root, dir, port, { FLOOR_BODY_FILE: file });
}

/** The process and every descendant of it (next start may fork workers). */
function tree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

/** CPU seconds (user + system) a process and its descendants have used so far. */
export function treeCpuSeconds(pid: number): number {
  let total = 0;
  for (const p of tree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}

/** Resident memory (VmRSS) of a process and its descendants, in bytes. */
export function treeRssBytes(pid: number): number {
  let total = 0;
  for (const p of tree(pid)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      total += Number(m?.[1] ?? 0) * 1024;
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}
