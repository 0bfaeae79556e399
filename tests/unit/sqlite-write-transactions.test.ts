/**
 * Two processes on one SQLite file (a second instance, a command-line tool, the e2e tests beside
 * their server): a store transaction that reads, then writes, is never overtaken by the other
 * process's write in between. It holds the write lock from its start, so the other write waits its
 * turn; before, the other write went first and the transaction's own write was refused at once
 * ("database is locked"), and its work was lost. On a real file, the other process played by a
 * second connection that does not wait (busy timeout 0), so the test never waits on a clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateStore, openStore, type Store } from '../../engine/store/db';

const dir = mkdtempSync(join(tmpdir(), 'loansites-sqlite-tx-'));
const file = join(dir, 'store.sqlite');
let db: Store;
let other: SQLite.Database;

beforeAll(async () => {
  db = openStore({ url: '', file });
  await migrateStore(db);
  other = new SQLite(file);
  other.pragma('busy_timeout = 0');
}, 60_000);
afterAll(async () => {
  other?.close();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const audit = (id: string) => ({ id, at: new Date().toISOString(), actor: 'test', action: 'write_order', target: id, detail: '{}' });
const otherWrite = (id: string): string => {
  try {
    const a = audit(id);
    other
      .prepare('insert into console_audit (id, at, actor, action, target, detail) values (?, ?, ?, ?, ?, ?)')
      .run(a.id, a.at, a.actor, a.action, a.target, a.detail);
    return 'written';
  } catch (err) {
    return String((err as { code?: string }).code);
  }
};

it("a transaction that reads, then writes, keeps the write lock from its start: another process's write waits until it commits", async () => {
  const during = await db.transaction().execute(async (trx) => {
    const seen = await trx.selectFrom('console_audit').select('id').where('action', '=', 'write_order').execute();
    // the other process tries to write between our read and our write
    const attempt = otherWrite('theirs-1');
    await trx
      .insertInto('console_audit')
      .values(audit(`ours-after-${seen.length}`))
      .execute();
    return attempt;
  });
  expect(during).toBe('SQLITE_BUSY');
  // committed: the other process's write goes through now
  expect(otherWrite('theirs-2')).toBe('written');
  const ids = (await db.selectFrom('console_audit').select('id').where('action', '=', 'write_order').orderBy('id').execute()).map((r) => r.id);
  expect(ids).toEqual(['ours-after-0', 'theirs-2']);
});

it('a write outside a transaction still leaves the file free for the other process at once', async () => {
  await db.insertInto('console_audit').values(audit('ours-single')).execute();
  expect(otherWrite('theirs-3')).toBe('written');
});
