/**
 * The SQLite connection prepares each SQL text once and reuses it, holding a bounded number of
 * statements: a query Kysely repeats (every sale writes the same few statements) no longer leaves
 * a new native statement behind each time, and a process that runs thousands of distinct queries
 * still holds at most PREPARED_STATEMENTS. Results stay right through reuse, streamed queries (one
 * left unfinished), and transactions. On a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { PREPARED_STATEMENTS, ReopeningSqlite } from '../../engine/store/sqliteConnection';

const dir = mkdtempSync(join(tmpdir(), 'loansites-prepared-'));
const connection = new ReopeningSqlite(join(dir, 'store.sqlite'));
const db = new Kysely<{ note: { id: number; text: string } }>({ dialect: new SqliteDialect({ database: connection }) });
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('prepared statements on the SQLite connection', () => {
  it('a repeated query reuses its statement and still answers with the current rows', async () => {
    await sql`create table note (id integer primary key, text text not null)`.execute(db);
    const before = connection.preparedCount;
    for (let i = 1; i <= 500; i++)
      await db
        .insertInto('note')
        .values({ id: i, text: `note ${i}` })
        .execute();
    const count = await db.selectFrom('note').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(500);
    // one insert statement and one count, not 500 inserts
    expect(connection.preparedCount - before).toBe(2);
  });

  it('holds at most PREPARED_STATEMENTS however many distinct queries run', async () => {
    for (let i = 0; i < PREPARED_STATEMENTS + 300; i++) {
      const row = await sql<{ v: number }>`select ${sql.raw(String(i))} as v`.execute(db);
      expect(row.rows[0]!.v).toBe(i);
    }
    expect(connection.preparedCount).toBe(PREPARED_STATEMENTS);
  });

  it('the same query streamed, run, and streamed again (left unfinished) reads every row each time', async () => {
    const query = db.selectFrom('note').select('id').where('id', '<=', 10).orderBy('id');
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const streamed = async (stopAt?: number) => {
      const out: number[] = [];
      for await (const row of query.stream()) {
        out.push(row.id);
        if (row.id === stopAt) break;
      }
      return out;
    };
    expect(await streamed()).toEqual(ids);
    expect(await streamed(3)).toEqual([1, 2, 3]);
    expect((await query.execute()).map((r) => r.id)).toEqual(ids);
    expect(await streamed()).toEqual(ids);
  });

  it('a transaction rolled back leaves nothing, and the next one commits', async () => {
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('note').values({ id: 1000, text: 'gone' }).execute();
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await db.transaction().execute((tx) => tx.insertInto('note').values({ id: 1001, text: 'kept' }).execute());
    const ids = await db.selectFrom('note').select('id').where('id', '>=', 1000).execute();
    expect(ids.map((r) => r.id)).toEqual([1001]);
  });
});
