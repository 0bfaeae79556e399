/**
 * A SQLite store filled after its migrations (as every new store is) gets planner statistics from
 * the retention job, so the overview's money query reads its covering indexes instead of every
 * sale's wide lead rows: without statistics SQLite picks the sales' status index and the leads'
 * unique key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrateStore, openStore, type Database as Tables } from '../../engine/store/db';
import { writeDemoTraffic } from '../../engine/traffic/demoTraffic';
import { moneyCells } from '../../engine/traffic/moneyQuery';
import { pruneOnce } from '../../engine/traffic/pruneJob';

const tmp = mkdtempSync(join(tmpdir(), 'loansites-planner-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const NOW = new Date('2026-01-10T00:00:00.000Z');
const RANGE = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-10T00:00:00.000Z' };

/** How SQLite plans the money query's statement over the sales (the SQL the store really sends). */
async function salesPlan(file: string): Promise<string> {
  const sent: { sql: string; parameters: readonly unknown[] }[] = [];
  const raw = new Database(file);
  const db = new Kysely<Tables>({
    dialect: new SqliteDialect({ database: raw }),
    log: (e) => void (e.level === 'query' && sent.push({ sql: e.query.sql, parameters: e.query.parameters })),
  });
  try {
    await moneyCells(db, RANGE);
    const q = sent.find((s) => /from "lead_sales"/.test(s.sql))!;
    const rows = raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.parameters) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  } finally {
    await db.destroy();
  }
}

it('after the retention job, the money query reads the sales and leads from their covering indexes, and no visit', async () => {
  const file = join(tmp, 'store.sqlite');
  const db = openStore({ url: '', file });
  try {
    await migrateStore(db);
    await writeDemoTraffic(db, { events: 4000, leads: 300, days: 10, seed: 3, now: NOW });
    expect(await salesPlan(file)).not.toContain('COVERING INDEX lead_sales_money');
    // the job deletes nothing here (everything is within the retention) and refreshes the statistics
    await pruneOnce(db, NOW);
  } finally {
    await db.destroy();
  }
  const plan = await salesPlan(file);
  expect(plan).toContain('COVERING INDEX lead_sales_money');
  expect(plan).toContain('COVERING INDEX leads_money');
  // the visit's dimensions are the lead's copy: no visit is read
  expect(plan).not.toContain('traffic_visits');
}, 120_000);
