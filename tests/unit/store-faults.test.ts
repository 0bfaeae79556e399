/**
 * The store after disk faults, on real files and a real PostgreSQL server:
 * - a SQLite file that opens only for reading (made immutable: chattr +i stops root too, where
 *   chmod would not) is refused at start with the reason — the server does not report the store
 *   ready — and accepted once it is writable again;
 * - a connection that opened the file read-only is reopened after "attempt to write a readonly
 *   database", so a write works again once the file is writable, without a restart;
 * - a full database (SQLite's max_page_count on the store's own connection: a real SQLITE_FULL)
 *   is reported as full, not as "cannot rollback - no transaction is active", and the next
 *   write after the space is back succeeds;
 * - a PostgreSQL database in read-only mode is refused at start the same way.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeStore, getStore, migrateStore, openStore, type Store } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { leadRow } from '../support/leadRow';
import { startPostgres, type RunningPostgres } from '../support/postgres';

const tmp = mkdtempSync(join(tmpdir(), 'loansites-faults-'));
const chattr = (flag: '+i' | '-i', file: string) => execFileSync('chattr', [flag, file]);
/** Whether this file system lets us make a file immutable (ext4, xfs, tmpfs on Linux ≥ 6.0; not overlayfs). */
const immutableWorks = (() => {
  try {
    const probe = join(tmp, 'probe');
    writeFileSync(probe, '');
    chattr('+i', probe);
    chattr('-i', probe);
    return true;
  } catch {
    return false;
  }
})();
const immutable: string[] = [];
const freeze = (file: string) => (chattr('+i', file), immutable.push(file));
const thaw = (file: string) => chattr('-i', file);

let postgres: RunningPostgres | undefined;
const saved = { file: process.env.LOANSITES_DB_FILE, url: process.env.DATABASE_URL };
beforeAll(async () => {
  process.env.LEADS_ENCRYPTION_KEY = '7'.repeat(64);
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await closeStore();
  for (const f of immutable) {
    try {
      thaw(f);
    } catch {
      // already writable
    }
  }
  Object.assign(process.env, { LOANSITES_DB_FILE: saved.file ?? '', DATABASE_URL: saved.url ?? '' });
  await postgres?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const lead = leadRow;

async function migratedFile(name: string): Promise<string> {
  const file = join(tmp, name);
  const db = openStore({ url: '', file });
  await migrateStore(db);
  await db.destroy();
  return file;
}

describe.skipIf(!immutableWorks)('SQLite on a file that cannot be written', () => {
  it('is refused at start with the reason, and accepted once writable again', async () => {
    const file = await migratedFile('readonly-start.sqlite');
    Object.assign(process.env, { LOANSITES_DB_FILE: file, DATABASE_URL: '' });
    freeze(file);
    await expect(getStore()).rejects.toThrow(/sqlite store at .*readonly-start\.sqlite cannot be written: attempt to write a readonly database/);
    thaw(file);
    const db = await getStore();
    expect((await insertLead(db, lead(), [])).created).toBe(true);
    await closeStore();
  });

  it('a connection that opened the file read-only is reopened: the first write after the fault works', async () => {
    const file = await migratedFile('readonly-reopen.sqlite');
    freeze(file);
    const db = openStore({ url: '', file });
    try {
      await expect(insertLead(db, lead(), [])).rejects.toThrow('attempt to write a readonly database');
      await expect(insertLead(db, lead(), [])).rejects.toThrow('attempt to write a readonly database');
      thaw(file);
      expect((await insertLead(db, lead(), [])).created).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});

describe('SQLite with a full database', () => {
  let db: Store;
  beforeAll(async () => {
    db = openStore({ url: '', file: await migratedFile('full.sqlite') });
  });
  afterAll(() => db?.destroy());

  it('says the database is full (not "cannot rollback"), and the next write after that works', async () => {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(db);
    const big = () => lead({ consent_text: 'x'.repeat(200_000) });
    const err = await insertLead(db, big(), ['buyer']).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('database or disk is full');
    expect((await insertLead(db, big(), ['buyer'])).created).toBe(true);
  });
});

describe('PostgreSQL in read-only mode', () => {
  it('is refused at start with the reason, and accepted once writable again', async () => {
    const url = await postgres!.createDatabase('readonly_store');
    const admin = openStore({ url: postgres!.url });
    try {
      const db = openStore({ url });
      await migrateStore(db);
      await db.destroy();
      await sql`alter database readonly_store set default_transaction_read_only = on`.execute(admin);
      Object.assign(process.env, { DATABASE_URL: url });
      await expect(getStore()).rejects.toThrow(/postgres store at .* cannot be written: the PostgreSQL server accepts only reads/);
      await sql`alter database readonly_store set default_transaction_read_only = off`.execute(admin);
      expect((await insertLead(await getStore(), lead(), [])).created).toBe(true);
    } finally {
      await closeStore();
      await admin.destroy();
      process.env.DATABASE_URL = '';
    }
  });
});
