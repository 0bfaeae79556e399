/**
 * The NOT NULL column runs the migrations repeat, written as one line each. A run adds exactly
 * the columns its migration used to add one `.addColumn(name, type, (c) => c.notNull())` at a
 * time, in the same order: a migration that has run must keep making the same schema, so what
 * this adds for a given text may never change.
 */
import type { CreateTableBuilder, Kysely } from 'kysely';

const TYPES = ['text', 'integer', 'bigint'] as const;

/**
 * `'brand created_at amount:integer'` → brand text, created_at text, amount integer, each NOT
 * NULL, in that order (a name alone is text); for a table builder's `.$call()`.
 */
export const notNull =
  (columns: string) =>
  <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>): CreateTableBuilder<TB, string> =>
    columns
      .split(/\s+/)
      .filter(Boolean)
      .reduce<CreateTableBuilder<TB, string>>((t, column) => {
        const [name = '', type = 'text'] = column.split(':');
        if (!(TYPES as readonly string[]).includes(type)) throw new Error(`column ${name}: type ${type} is not one of ${TYPES.join(', ')}`);
        return t.addColumn(name, type as (typeof TYPES)[number], (c) => c.notNull());
      }, table);

/** `create table name (key text primary key, …the NOT NULL columns…)`, to go on with or `.execute()`. */
export const keyedTable = (db: Kysely<unknown>, name: string, key: string, columns: string) =>
  db.schema
    .createTable(name)
    .addColumn(key, 'text', (c) => c.primaryKey())
    .$call(notNull(columns));
