/**
 * For a test file that runs against both stores: a temp folder for its SQLite files and a real
 * PostgreSQL (./postgres.ts), started before the file's tests; both are removed after them.
 *
 *   const { tmp, postgres } = bothStores('loansites-store-');
 *   … ({ url: '', file: join(tmp, 'x.sqlite') }) and ({ url: postgres().url })
 *   or: describe.each(stores.kinds('x.sqlite'))('%s', (kind, options) => { const db = migratedStore(options); … db() … })
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { migrateStore, openStore, type Store, type StoreOptions } from '../../engine/store/db';
import { startPostgres, type RunningPostgres } from './postgres';

type Kinds = [kind: 'SQLite' | 'PostgreSQL', options: () => StoreOptions][];

export function bothStores(prefix: string): { tmp: string; postgres: () => RunningPostgres; kinds: (sqliteFile: string) => Kinds } {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  let running: RunningPostgres | undefined;
  beforeAll(async () => {
    running = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });
  const postgres = () => {
    if (!running) throw new Error('PostgreSQL has not started (bothStores starts it before the tests)');
    return running;
  };
  return {
    tmp,
    postgres,
    /** The two stores as describe.each rows: a SQLite file in the temp folder, and the PostgreSQL. */
    kinds: (sqliteFile) => [
      ['SQLite', () => ({ url: '', file: join(tmp, sqliteFile) })],
      ['PostgreSQL', () => ({ url: postgres().url })],
    ],
  };
}

/** A store opened and migrated before the block's tests and closed after them. */
export function migratedStore(options: () => StoreOptions): () => Store {
  let db: Store | undefined;
  beforeAll(async () => {
    db = openStore(options());
    await migrateStore(db);
  });
  afterAll(() => db?.destroy());
  return () => db!;
}
