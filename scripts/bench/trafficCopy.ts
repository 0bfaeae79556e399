/**
 * Copies the bench's traffic tables from its SQLite file into a migrated PostgreSQL database, so
 * both stores answer over the very same rows (generating 1,000,000 events again through the writer
 * would take many minutes and give other random ids). One INSERT … SELECT FROM unnest($1, $2, …)
 * per chunk of rows: a parameter per column, not per value. VACUUM ANALYZE at the end, as
 * autovacuum would do after a bulk load, so the planner has statistics and index-only scans work.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

export const COPIED_TABLES = [
  'traffic_visits',
  'traffic_events',
  'traffic_hourly',
  'traffic_daily',
  'traffic_daily_pairs',
  'leads',
  'lead_sales',
  'lead_returns',
  'sale_events',
  'ad_costs',
] as const;
const CHUNK = 20_000;
const ARRAY_TYPE: Record<string, string> = { text: 'text[]', integer: 'int4[]', bigint: 'int8[]' };

export async function copySqliteToPostgres(sqliteFile: string, pgUrl: string, tables: readonly string[] = COPIED_TABLES): Promise<Record<string, number>> {
  const src = new Database(sqliteFile, { readonly: true });
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  const copied: Record<string, number> = {};
  try {
    for (const table of tables) {
      const { rows: cols } = await client.query<{ column_name: string; data_type: string }>(
        'select column_name, data_type from information_schema.columns where table_name = $1 order by ordinal_position',
        [table],
      );
      const names = cols.map((c) => `"${c.column_name}"`).join(', ');
      const types = cols.map((c, i) => {
        const t = ARRAY_TYPE[c.data_type];
        if (!t) throw new Error(`${table}.${c.column_name}: no copy rule for ${c.data_type}`);
        return `$${i + 1}::${t}`;
      });
      const insert = `insert into "${table}" (${names}) select * from unnest(${types.join(', ')})`;
      const it = src.prepare(`select ${names} from "${table}"`).raw().iterate() as IterableIterator<unknown[]>;
      let columns: unknown[][] = cols.map(() => []);
      let n = 0;
      const flush = async () => {
        if (columns[0]!.length) await client.query(insert, columns);
        columns = cols.map(() => []);
      };
      await client.query('begin');
      for (const row of it) {
        for (let i = 0; i < row.length; i++) columns[i]!.push(row[i]);
        if (++n % CHUNK === 0) await flush();
      }
      await flush();
      await client.query('commit');
      copied[table] = n;
    }
    await client.query('vacuum analyze');
  } finally {
    await client.end();
    src.close();
  }
  return copied;
}
