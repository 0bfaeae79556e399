/**
 * On a Node older than 24 (Debian 12's 20, what a new terminal has) every way into the project
 * stops with one line that names Node 24 and the command that fixes it, and exit 1 — not the
 * bare "Segmentation fault" of the native SQLite module built for Node 24 loading into Node 20.
 * The old Node comes from the npm registry (scripts/ensure-node.sh 20, cached outside the repo),
 * so the test does not depend on the machine's own node.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const run = promisify(execFile);

// Tools that read the project's files but run none of its code, so an older Node does them no harm.
const TOOLS_ONLY = new Set(['lint', 'format', 'typecheck']);
const commands = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
const scripts = Object.keys(commands).filter((s) => !TOOLS_ONLY.has(s));

/**
 * How a script's command meets the check first, or why it does not. A command starts in one of
 * a few ways, and each way is run under the old Node below (SHAPES); every script is read here,
 * so a new one that starts some other way fails this test before anyone runs it on Node 20.
 */
function firstCheck(script: string, seen = new Set<string>()): string {
  const command = commands[script];
  if (command === undefined) return `no script named ${script}`;
  if (seen.has(script)) return `a loop through ${script}`;
  seen.add(script);
  const first = command.split('&&')[0]!.trim();
  if (first === 'node scripts/check-node.cjs') return 'check-node';
  if (/^node server\.mjs( --dev)?$/.test(first))
    return firstImport('server.mjs', './scripts/check-node.cjs') ? 'server' : 'server.mjs does not import the check first';
  const tsx = /^tsx (scripts\/[\w-]+\.ts)\b/.exec(first);
  if (tsx) return firstImport(tsx[1]!, './check-node.cjs') ? 'tsx' : `${tsx[1]} does not import the check first`;
  const npm = /^npm run ([\w:-]+)$/.exec(first);
  if (npm) {
    const inner = firstCheck(npm[1]!, seen);
    return ['check-node', 'server', 'tsx', 'npm run'].includes(inner) ? 'npm run' : `npm run ${npm[1]}: ${inner}`;
  }
  return `it starts with "${first}", which no check precedes`;
}

/** Whether the file's first import is `expected` (ES modules are evaluated in import order). */
function firstImport(file: string, expected: string): boolean {
  const first = /^import\s+(?:[^'"]*\sfrom\s+)?['"]([^'"]+)['"]/m.exec(readFileSync(join(root, file), 'utf8'));
  return first?.[1] === expected;
}

/** One script of each way a command starts, run under the old Node. */
const SHAPES: Record<string, string> = { 'check-node': 'test:unit', server: 'serve', tsx: 'leads', 'npm run': 'start' };

// A dozen Node starts, five at a time, on a loaded 2-core machine.
const SLOW = 90_000;
let oldNodeBin = '';
let oldVersion = '';

beforeAll(() => {
  oldNodeBin = execFileSync('bash', ['scripts/ensure-node.sh', '20'], { cwd: root, encoding: 'utf8', timeout: 300_000 }).trim();
  oldVersion = execFileSync(join(oldNodeBin, 'node'), ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
}, 300_000);

/** Runs a command with the old Node first on PATH; npm itself (from the Node 24 folder) then runs on it too. */
async function underOldNode(file: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${oldNodeBin}:${dirname(process.execPath)}:${process.env.PATH}` };
  delete env.NODE_OPTIONS;
  try {
    const r = await run(file, args, { cwd: root, env, encoding: 'utf8', timeout: SLOW - 5_000 });
    return { code: 0, signal: null, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; signal?: string | null; stderr?: string };
    return { code: err.code, signal: err.signal ?? null, stderr: err.stderr ?? '' };
  }
}

function expectRefused(r: { code?: number; signal: string | null; stderr: string }) {
  expect(r.signal).toBeNull();
  expect(r.code).toBe(1);
  expect(r.stderr.trim()).toBe(
    `loansites needs Node 24; this is Node ${oldVersion}. Fix it in this shell with \`. scripts/ensure-node.sh\`, then run the command again.`,
  );
}

describe('an older Node is refused with one line and the command that fixes it', () => {
  it('the old Node is the one the commands run on', async () => {
    expect(oldVersion.split('.')[0]).toBe('20');
    const r = await underOldNode('node', ['-p', 'process.versions.node']);
    expect(r.code).toBe(0);
  });

  it.concurrent.each([[['server.mjs']], [['server.mjs', '--dev']]])(
    'node %j',
    async (args) => {
      expectRefused(await underOldNode('node', args));
    },
    SLOW,
  );

  it.concurrent(
    'npx tsx scripts/worker.ts, the worker started without npm',
    async () => {
      expectRefused(await underOldNode(join(root, 'node_modules', '.bin', 'tsx'), ['scripts/worker.ts']));
    },
    SLOW,
  );

  it('every npm script meets the check before any of its own code', () => {
    const unchecked = scripts.map((script) => [script, firstCheck(script)]).filter(([, how]) => !(how! in SHAPES));
    expect(unchecked).toEqual([]);
    // and each way of starting is one that is run below
    expect(new Set(scripts.map((script) => firstCheck(script)))).toEqual(new Set(Object.keys(SHAPES)));
  });

  it.concurrent.each([...new Set([...Object.values(SHAPES), 'preinstall', 'dev', 'build'])])(
    'npm run %s',
    async (script) => {
      expectRefused(await underOldNode('npm', ['run', '--silent', script]));
    },
    SLOW,
  );
});
