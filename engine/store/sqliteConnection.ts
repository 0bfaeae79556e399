/**
 * The SQLite connection behind the store, made to survive disk faults:
 * - a write that fails because the file is read-only, the disk is full or an I/O error
 *   occurred (SQLITE_READONLY…, SQLITE_FULL, SQLITE_IOERR…, SQLITE_CANTOPEN) is logged with its
 *   real cause, and the connection is reopened before the next statement outside a transaction:
 *   SQLite keeps a connection read-only once it opened the file so, even after the disk is
 *   writable again, so without a reopen every later write would fail until a restart;
 * - after such an error SQLite has already rolled the transaction back; the ROLLBACK Kysely then
 *   sends would fail with "cannot rollback - no transaction is active" and hide the real error,
 *   so it is skipped when no transaction is open;
 * - a statement is prepared once per SQL text and reused (at most PREPARED_STATEMENTS of them, the
 *   least recently used dropped): Kysely asks for a new one on every query, and each is a native
 *   SQLite program freed only when V8 collects its wrapper. Thousands a second of them (the sale:
 *   ~15 store writes a lead) left the C allocator's heap fragmented and resident: after 6,420
 *   sales in the sale bench its main heap held 72 MB resident, 36 MB with reuse;
 * - a transaction takes the write lock when it begins (BEGIN IMMEDIATE, not Kysely's plain BEGIN):
 *   a plain one that read first and wrote after another process (a second instance, a command
 *   line tool) committed could not take the lock at all, and SQLite refuses that at once
 *   ("database is locked"), without waiting out the busy timeout. Begun immediately, it waits its
 *   turn as a single write does. Within one process nothing changes: Kysely runs one query at a
 *   time on the connection.
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

/** Prepared statements kept per connection: Kysely's queries are a few hundred distinct SQL texts. */
export const PREPARED_STATEMENTS = 256;

const NO_ROLLBACK: SqliteStatement = { reader: false, all: () => [], run: () => ({ changes: 0, lastInsertRowid: 0 }), iterate: () => [][Symbol.iterator]() };

/** A SqliteDatabase for Kysely's SqliteDialect that reopens its file after a disk fault. */
export class ReopeningSqlite implements SqliteDatabase {
  #db: SQLite.Database;
  #stale = false;
  /** SQL text to its statement, in order of last use */
  #prepared = new Map<string, SQLite.Statement>();
  constructor(readonly file: string) {
    this.#db = openSqliteFile(file);
  }

  /** How many times the file was reopened (operators' log, tests). */
  reopened = 0;

  prepare(sql: string): SqliteStatement {
    if (this.#stale && !this.#db.inTransaction) this.#reopen();
    if (/^\s*rollback\s*$/i.test(sql) && !this.#db.inTransaction) return NO_ROLLBACK;
    const stmt = this.#statement(/^\s*begin\s*$/i.test(sql) ? 'begin immediate' : sql);
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
      // an iterator holds its statement until it is read to the end: one of its own, so a query in between cannot find the shared one busy
      iterate: guard((p: readonly unknown[]) => this.#db.prepare(sql).iterate(...p)),
    };
  }

  /** The statement for this SQL text on the open connection, prepared on first use. */
  #statement(sql: string): SQLite.Statement {
    let stmt = this.#prepared.get(sql);
    if (stmt) this.#prepared.delete(sql);
    else {
      stmt = this.#db.prepare(sql);
      if (this.#prepared.size >= PREPARED_STATEMENTS) this.#prepared.delete(this.#prepared.keys().next().value!);
    }
    this.#prepared.set(sql, stmt);
    return stmt;
  }

  close(): void {
    this.#prepared.clear();
    this.#db.close();
  }

  /** How many prepared statements this connection holds (tests). */
  get preparedCount(): number {
    return this.#prepared.size;
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
      this.#prepared.clear();
      this.#stale = false;
      this.reopened += 1;
    } catch (err) {
      // still unavailable: keep the old connection (reads may work) and try again next time
      console.error(`[store] could not reopen ${this.file}: ${(err as Error).message}`);
    }
  }
}
