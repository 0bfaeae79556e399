/**
 * The SQLite connection behind the store, made to survive disk faults:
 * - a write that fails because the file is read-only, the disk is full or an I/O error
 *   occurred (SQLITE_READONLY…, SQLITE_FULL, SQLITE_IOERR…, SQLITE_CANTOPEN) is logged with its
 *   real cause, and the connection is reopened before the next statement outside a transaction:
 *   SQLite keeps a connection read-only once it opened the file so, even after the disk is
 *   writable again, so without a reopen every later write would fail until a restart;
 * - after such an error SQLite has already rolled the transaction back; the ROLLBACK Kysely then
 *   sends would fail with "cannot rollback - no transaction is active" and hide the real error,
 *   so it is skipped when no transaction is open.
 */
import SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const FAULTS = /^SQLITE_(READONLY|FULL|IOERR|CANTOPEN)/;

export const isDiskFault = (err: unknown): boolean => FAULTS.test(String((err as { code?: unknown })?.code ?? ''));

export function openSqliteFile(file: string): SQLite.Database {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000'); // another process (npm run traces, a migration) may hold the write lock briefly
  sqlite.pragma('synchronous = NORMAL'); // with WAL: durable across a process crash, fast
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}

const NO_ROLLBACK: SqliteStatement = { reader: false, all: () => [], run: () => ({ changes: 0, lastInsertRowid: 0 }), iterate: () => [][Symbol.iterator]() };

/** A SqliteDatabase for Kysely's SqliteDialect that reopens its file after a disk fault. */
export class ReopeningSqlite implements SqliteDatabase {
  #db: SQLite.Database;
  #stale = false;
  constructor(readonly file: string) {
    this.#db = openSqliteFile(file);
  }

  /** How many times the file was reopened (operators' log, tests). */
  reopened = 0;

  prepare(sql: string): SqliteStatement {
    if (this.#stale && !this.#db.inTransaction) this.#reopen();
    if (/^\s*rollback\s*$/i.test(sql) && !this.#db.inTransaction) return NO_ROLLBACK;
    const stmt = this.#db.prepare(sql);
    const guard =
      <A extends unknown[], R>(fn: (...args: A) => R) =>
      (...args: A): R => {
        try {
          return fn(...args);
        } catch (err) {
          this.#fault(err);
          throw err;
        }
      };
    return {
      reader: stmt.reader,
      all: guard((p: readonly unknown[]) => stmt.all(...p)),
      run: guard((p: readonly unknown[]) => stmt.run(...p)),
      iterate: guard((p: readonly unknown[]) => stmt.iterate(...p)),
    };
  }

  close(): void {
    this.#db.close();
  }

  #fault(err: unknown): void {
    if (!isDiskFault(err)) return;
    const e = err as Error & { code: string };
    if (!this.#stale) console.error(`[store] SQLite write to ${this.file} failed: ${e.code}: ${e.message}; the database is reopened before the next query`);
    this.#stale = true;
  }

  #reopen(): void {
    try {
      const next = openSqliteFile(this.file);
      this.#db.close();
      this.#db = next;
      this.#stale = false;
      this.reopened += 1;
    } catch (err) {
      // still unavailable: keep the old connection (reads may work) and try again next time
      console.error(`[store] could not reopen ${this.file}: ${(err as Error).message}`);
    }
  }
}
