/**
 * For a test file that runs against both stores: a temp folder for its SQLite files and a real
 * PostgreSQL (./postgres.ts), started before the file's tests; both are removed after them.
 *
 *   const { tmp, postgres } = bothStores('loansites-store-');
 *   … ({ url: '', file: join(tmp, 'x.sqlite') }) and ({ url: postgres().url })
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type RunningPostgres } from './postgres';

export function bothStores(prefix: string): { tmp: string; postgres: () => RunningPostgres } {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  let running: RunningPostgres | undefined;
  beforeAll(async () => {
    running = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });
  return {
    tmp,
    postgres() {
      if (!running) throw new Error('PostgreSQL has not started (bothStores starts it before the tests)');
      return running;
    },
  };
}
