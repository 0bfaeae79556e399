/**
 * The operator commands, run for real against a temp SQLite file: a mistyped option, an option
 * without its value or a word they do not read is refused with the reason and a non-zero exit,
 * before anything is read or written — never taken as "not given".
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkArgs } from '../../scripts/cliFormat';
import { workerIntervalFromEnv } from '../../engine/outbox/workerInterval';

const root = join(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loansites-cli-args-'));
const file = join(dir, 'store.sqlite');

/** Runs scripts/<script> with the args; resolves with its exit code and output whatever the code. */
function run(
  script: string,
  args: string[],
  opts: { cwd?: string; dbFile?: string; env?: Record<string, string>; timeout?: number } = {},
): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, LOANSITES_DB_FILE: opts.dbFile ?? file, DATABASE_URL: '', ...opts.env };
  return new Promise((resolve) => {
    // tsx by path: the command may run in another folder (keys writes under its working directory)
    execFile(
      process.execPath,
      ['--import', pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, join(root, 'scripts', script), ...args],
      { env, cwd: opts.cwd ?? root, encoding: 'utf8', timeout: opts.timeout ?? 0 },
      (error, out, err) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkArgs', () => {
  const spec = { values: ['--since', '--brand'], flags: ['--json'] };

  it('accepts the options, with a value after or after "="', () => {
    expect(() => checkArgs(['--since', '2d', '--brand=ipaydayloans', '--json'], spec)).not.toThrow();
  });

  it('refuses an option given without its value, last or followed by another option', () => {
    expect(() => checkArgs(['--brand'], spec)).toThrow('--brand needs a value after it');
    expect(() => checkArgs(['--brand', '--json'], spec)).toThrow('--brand needs a value after it');
    expect(() => checkArgs(['--brand='], spec)).toThrow('--brand needs a value after it');
  });

  it('refuses an option it does not have, naming the ones it has', () => {
    expect(() => checkArgs(['--sinse', '2d'], spec)).toThrow('unknown option --sinse (the options are --since, --brand, --json)');
  });

  it('refuses a word it does not read, and a value given to an option that takes none', () => {
    expect(() => checkArgs(['ipaydayloans'], spec)).toThrow('"ipaydayloans" is not an option');
    expect(() => checkArgs(['--json=yes'], spec)).toThrow('--json takes no value');
  });
});

describe('the commands refuse what they would have ignored', { timeout: 60_000 }, () => {
  it('npm run leads -- --brand (no value) is refused instead of listing every brand', async () => {
    const r = await run('leads.ts', ['--since', '2d', '--brand']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('--brand needs a value after it');
    expect(r.out).toBe('');
  });

  it('npm run leads -- --sinse 2d is refused instead of listing the default day', async () => {
    const r = await run('leads.ts', ['--sinse', '2d']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('unknown option --sinse');
  });

  it('npm run leads -- --brand with an id no brand has is refused when nothing is listed, rather than "0 leads"', async () => {
    const typo = await run('leads.ts', ['--since', '2d', '--brand', 'ipaydayloan']);
    expect(typo.code).toBe(1);
    expect(typo.err).toContain('--brand ipaydayloan: no brand has that id');
    expect(typo.out).toBe('');
    const known = await run('leads.ts', ['--since', '2d', '--brand', 'ipaydayloans']);
    expect(known.code).toBe(0);
    expect(known.out).toContain(': 0');
  });

  it('npm run costs -- import <a folder> says it is a folder', async () => {
    const r = await run('costs.ts', ['import', dir, '--source', 'google']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`costs: ${dir} is a folder, not a file`);
  });

  it('npm run events:prune -- --help explains and deletes nothing; an option it does not read is refused', async () => {
    const help = await run('events-prune.ts', ['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('It takes no options');
    expect(help.out).not.toContain('deleted');
    const days = await run('events-prune.ts', ['--days', '7']);
    expect(days.code).toBe(2);
    expect(days.err).toContain('"--days" is not read, so nothing was deleted');
  });

  it('npm run db:migrate -- --dry-run is refused before the store is made or changed', async () => {
    const fresh = join(dir, 'never-made.sqlite');
    const r = await run('db-migrate.ts', ['--dry-run'], { dbFile: fresh });
    expect(r.code).toBe(2);
    expect(r.err).toContain('"--dry-run" is not read, so nothing was changed');
    expect(existsSync(fresh)).toBe(false);
  });

  it('npm run preview-link signs no link the server would refuse: an unknown brand, or an option taken for the brand', async () => {
    const env = { CONTENT_PREVIEW_SECRET: 'a-preview-secret-for-the-test' };
    const unknown = await run('preview-link.ts', ['ipaydayloan', '/blog/my-draft'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('preview-link: no brand "ipaydayloan"');
    expect(unknown.out).toBe('');
    const help = await run('preview-link.ts', ['--help', '/blog/my-draft'], { env });
    expect(help.code).toBe(0);
    expect(help.out).toContain('usage: CONTENT_PREVIEW_SECRET=');
    expect(help.out).not.toContain('/api/preview');
    const good = await run('preview-link.ts', ['ipaydayloans', '/blog/my-draft'], { env });
    expect(good.code).toBe(0);
    expect(good.out).toMatch(/^\/api\/preview\?brand=ipaydayloans&path=%2Fblog%2Fmy-draft&sig=[0-9a-f]{64}\n$/);
  });

  it('npm run worker -- --help explains and starts no worker; an interval that is not a number is refused, not polled every millisecond', async () => {
    const help = await run('worker.ts', ['--help'], { timeout: 20_000 });
    expect(help.code).toBe(0);
    expect(help.out).toContain('It takes no options');
    expect(help.out).not.toContain('destinations for');
    const typo = await run('worker.ts', [], { env: { LEADS_WORKER_INTERVAL_MS: '2s' }, timeout: 20_000 });
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('LEADS_WORKER_INTERVAL_MS must be a whole number of milliseconds, 10 or more (e.g. 2000), not "2s"');
  });

  it("the interval the server's worker polls at: the default, with the reason, for a value that is not a whole number", () => {
    expect(workerIntervalFromEnv({})).toEqual({ ms: 2000 });
    expect(workerIntervalFromEnv({ LEADS_WORKER_INTERVAL_MS: '500' })).toEqual({ ms: 500 });
    for (const raw of ['2s', 'abc', '0', '-5', '1.5']) {
      const r = workerIntervalFromEnv({ LEADS_WORKER_INTERVAL_MS: raw });
      expect(r.ms, raw).toBe(2000);
      expect(r.problem, raw).toContain(`not "${raw}"`);
    }
  });

  it('npm run keys -- --help or a mistyped command writes no key pair', async () => {
    const cwd = join(dir, 'keys-cwd');
    mkdirSync(cwd);
    const help = await run('keys.ts', ['--help'], { cwd });
    expect(help.code).toBe(0);
    expect(help.out).toContain('npm run keys -- rotate');
    const typo = await run('keys.ts', ['rotat'], { cwd });
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('"rotat" is not a command (the command is rotate); nothing was written');
    expect(existsSync(join(cwd, 'data'))).toBe(false);
  });
});
