/** npm run traces and npm run db:migrate, run for real against a temp SQLite file. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../engine/store/db';
import { recordSessionTrace, type SessionTrace } from '../../engine/store/sessionTraces';
import { parseSince, traceTable } from '../../scripts/cliFormat';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'loansites-cli-'));
const file = join(dir, 'cli.sqlite');
const env = { ...process.env, LOANSITES_DB_FILE: file, DATABASE_URL: '' };
const tsx = (script: string, args: string[] = []) => run(process.execPath, ['--import', 'tsx', script, ...args], { env, encoding: 'utf8' });

const row = (uuid: string, minutesAgo: number, extra: Partial<SessionTrace> = {}): SessionTrace => ({
  uuid,
  brand: 'ipaydayloans',
  source1: 'spring',
  source2: '/payday-loans',
  clickId: 'ggabc',
  gaClientId: '1.2',
  userAgent: 'ua',
  ip: '203.0.113.0',
  createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  ...extra,
});

describe('parseSince', () => {
  const now = Date.parse('2025-05-01T12:00:00.000Z');
  it.each([
    ['30m', '2025-05-01T11:30:00.000Z'],
    ['1h', '2025-05-01T11:00:00.000Z'],
    ['2d', '2025-04-29T12:00:00.000Z'],
    [' 45S ', '2025-05-01T11:59:15.000Z'],
    ['1w', '2025-04-24T12:00:00.000Z'],
  ])('%s → %s', (text, iso) => expect(parseSince(text, now)?.toISOString()).toBe(iso));
  it.each(['', '1', 'h', '1.5h', '-1h', '1y', 'yesterday'])('"%s" is refused', (text) => expect(parseSince(text, now)).toBeUndefined());
});

describe('npm run db:migrate and npm run traces', () => {
  beforeAll(async () => {
    const first = await tsx('scripts/db-migrate.ts');
    expect(first.stdout).toContain('applied: 001_session_traces');
    const db = openStore({ url: '', file });
    await recordSessionTrace(db, row('cc' + '1'.repeat(32), 10, { source1: 'recent-campaign', clickId: 'ttxyz' }));
    await recordSessionTrace(db, row('cc' + '2'.repeat(32), 180, { source1: 'old-campaign' }));
    await db.destroy();
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('db:migrate a second time says it is up to date', async () => {
    expect((await tsx('scripts/db-migrate.ts')).stdout).toContain('already up to date');
  }, 30_000);

  it('--since 1h prints a table of the traces from the last hour only', async () => {
    const { stdout } = await tsx('scripts/traces.ts', ['--since', '1h']);
    expect(stdout).toMatch(/Session traces since .* \(1h\) in the sqlite store at .*: 1/);
    expect(stdout).toMatch(/time \(UTC\)\s+brand\s+source1\s+source2\s+click id/);
    expect(stdout).toContain('recent-campaign');
    expect(stdout).toContain('ttxyz');
    expect(stdout).not.toContain('old-campaign');
  }, 30_000);

  it('--since 1d --json prints both as JSON', async () => {
    const { stdout } = await tsx('scripts/traces.ts', ['--since', '1d', '--json']);
    const traces = JSON.parse(stdout) as SessionTrace[];
    expect(traces.map((t) => t.source1)).toEqual(['old-campaign', 'recent-campaign']);
  }, 30_000);

  it('a bad --since is an error with a hint, exit code 1', async () => {
    await expect(tsx('scripts/traces.ts', ['--since', 'yesterday'])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('e.g. 30m, 1h or 2d') });
  }, 30_000);
});

describe('traceTable', () => {
  it('lines up columns and cuts long values with …', () => {
    const table = traceTable([row('cc' + 'a'.repeat(32), 0, { source2: '/' + 'x'.repeat(100), gaClientId: '' })]).split('\n');
    expect(table).toHaveLength(3);
    expect(table[2]).toContain('…');
    expect(table[2]).toMatch(/ - /); // empty GA client id shown as "-"
    expect(table[0]!.indexOf('source2')).toBe(table[2]!.indexOf('/x'));
  });
});
