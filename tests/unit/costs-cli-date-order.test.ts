/**
 * `npm run costs -- import` run for real against a temp SQLite file: a report writing its days
 * day-first (as Australian, Canadian and UK accounts export them) is refused without
 * `--date-order day-first`, the line named and the option to use said, and imported with it, each
 * day where it belongs; a date order it does not know is refused before anything is read.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { costCells } from '../../engine/store/costs';
import { openStore } from '../../engine/store/db';

const root = join(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loansites-costs-cli-'));
const file = join(dir, 'store.sqlite');

function costs(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '' };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, join(root, 'scripts/costs.ts'), ...args],
      { env, cwd: root, encoding: 'utf8' },
      (error, out, err) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run costs -- import --date-order', () => {
  const report = join(dir, 'au-report.csv');
  writeFileSync(report, 'Day,Campaign,Cost,Clicks\n5/10/2026,au-installment,2.50,1\n17/10/2026,au-installment,7.00,3\n');

  it('refuses a day-first report read month-first (the default), naming the line and the option; imports it with --date-order day-first', async () => {
    const refused = await costs(['import', report, '--source', 'google']);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `costs: ${report} was not imported:\n  line 3: the day "17/10/2026" is not a date written month-first (M/D/YYYY); if this file writes the day first, run it again with --date-order day-first\n`,
    );
    const imported = await costs(['import', report, '--source', 'google', '--date-order', 'day-first']);
    expect(imported.err).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.out).toBe('costs: 2 day-campaign rows from google (2026-10-05 … 2026-10-17); 0 replaced earlier imports\n');
    const db = openStore({ url: '', file });
    try {
      expect((await costCells(db, '2026-05-01', '2026-11-01')).map((c) => [c.day, c.costCents, c.clicks]).sort()).toEqual([
        ['2026-10-05', 250, 1],
        ['2026-10-17', 700, 3],
      ]);
    } finally {
      await db.destroy();
    }
  }, 60_000);

  it('refuses a date order it does not know, before reading the report', async () => {
    const r = await costs(['import', join(dir, 'no-such.csv'), '--source', 'google', '--date-order', 'dd/mm/yyyy']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('costs: --date-order is month-first or day-first, not "dd/mm/yyyy"');
  }, 60_000);
});
