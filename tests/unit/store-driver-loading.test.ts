/**
 * Which database driver a process holds in memory: a server on the embedded defaults (SQLite)
 * never loads the PostgreSQL driver (pg and its protocol, types and pool modules), and a
 * PostgreSQL store loads it with its first query. Each case is a fresh Node process that opens
 * the process-wide store, migrates it, runs a query and lists the modules it has loaded.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bothStores } from '../support/bothStores';

const root = join(import.meta.dirname, '../..');
const { tmp, postgres } = bothStores('loansites-driver-');

const CHILD = `
import { createRequire } from 'node:module';
const { closeStore, getStore, storeKindOf } = await import('./engine/store/db.ts');
const db = await getStore();
const rows = await db.selectFrom('session_traces').select('uuid').execute();
await closeStore();
console.log(JSON.stringify({ kind: storeKindOf(), rows: rows.length, modules: Object.keys(createRequire(import.meta.url).cache) }));
`;

/** The loaded CommonJS modules (paths under node_modules, as package/file) of a process that used the store. */
function storeProcess(env: Record<string, string>): { kind: string; rows: number; packages: Set<string> } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DATABASE_URL: '', LOANSITES_DB_FILE: join(tmp, 'unused.sqlite'), ...env },
  });
  expect(run.status, run.stderr).toBe(0);
  const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { kind: string; rows: number; modules: string[] };
  const packages = new Set(out.modules.map((m) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(m)?.[1]).filter((p): p is string => !!p));
  return { kind: out.kind, rows: out.rows, packages };
}

describe('database driver loading', () => {
  it('a SQLite store works without loading the PostgreSQL driver', () => {
    const { kind, rows, packages } = storeProcess({ LOANSITES_DB_FILE: join(tmp, 'store.sqlite') });
    expect(kind).toBe('sqlite');
    expect(rows).toBe(0);
    expect(packages).toContain('better-sqlite3');
    expect([...packages].filter((p) => p === 'pg' || p.startsWith('pg-'))).toEqual([]);
  }, 60_000);

  it('a PostgreSQL store loads the driver with its first query and works', async () => {
    const { kind, rows, packages } = storeProcess({ DATABASE_URL: await postgres().createDatabase('driver_loading') });
    expect(kind).toBe('postgres');
    expect(rows).toBe(0);
    expect(packages).toContain('pg');
  }, 60_000);
});
