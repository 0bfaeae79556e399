/**
 * Which unit-test files may run one after another in one process (vitest.config.ts, the "shared"
 * project) rather than each in a process of its own.
 *
 * A process per file costs about a CPU-second on an idle machine (Node's start, Vitest's runtime,
 * React, AJV and the rest of node_modules loaded again), as much as most small files' tests
 * themselves; on CI's two cores, busy with the browser tests, every such second is taken from
 * them. A file in the shared process still gets fresh modules of our own and the environment as
 * the run started (sharedFileSetup.ts); what it cannot get back is anything outside our modules:
 * a server or a store connection left open, a timer, a listener on the process, a class of a
 * library patched, a child process. A file is shared only when neither it nor a test helper it
 * imports mentions any of those, read from its text: a new file that opens a store, starts a
 * server or patches a library is isolated without anyone having to list it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** What may outlive a file: servers, stores, child processes, timers, listeners, patched libraries, the environment. */
const OUTLIVES_A_FILE = new RegExp(
  [
    'createServer',
    String.raw`\.listen\(`,
    'spawn',
    'execFile',
    String.raw`fork\(`,
    'new Worker',
    '[Rr]edis',
    'postgres',
    'nginx',
    'chromium',
    String.raw`server\.mjs`,
    'startServer',
    'instances',
    'setInterval',
    'useFakeTimers',
    String.raw`process\.on\(`,
    String.raw`process\.chdir`,
    'globalAgent',
    'stubGlobal',
    'resetModules',
    // stores and the libraries under them (a statement cache, a connection of the module's)
    'openStore',
    'migratedStore',
    'bothStores',
    'engine/store/',
    'kysely',
    'better-sqlite3',
    'LOANSITES_DB_FILE',
    'DATABASE_URL',
    // Next's cache classes patched once per process
    'engine/cache/',
    'nextIncrementalCache',
  ].join('|'),
);

/** The test helpers (tests/support/*.ts) a file imports, by path. */
function helpersOf(file: string, text: string): string[] {
  return [...text.matchAll(/from '((?:\.\.?\/)+support\/[\w.-]+)'/g)].map((m) => resolve(dirname(file), `${m[1]!.replace(/\.ts$/, '')}.ts`));
}

/** Whether a unit-test file may share its process with the files before and after it. */
export function mayShareProcess(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  if (OUTLIVES_A_FILE.test(text)) return false;
  return helpersOf(file, text).every((helper) => {
    try {
      return !OUTLIVES_A_FILE.test(readFileSync(helper, 'utf8'));
    } catch {
      return false;
    }
  });
}

/** The unit-test files under `dir` (relative to `root`, as Vitest's include takes them) that may share a process. */
export function sharedTestFiles(root: string, dir = 'tests/unit'): string[] {
  const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(root, dir, f));
  return files
    .filter(mayShareProcess)
    .map((f) => relative(root, f).split('\\').join('/'))
    .sort();
}
