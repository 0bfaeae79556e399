/**
 * The server bounds V8's young generation so a burst of requests does not leave the process
 * ~100 MiB larger: started as `node server.mjs` (no flag), it replaces itself with the same
 * command plus --max-semi-space-size, keeping its pid, arguments and environment. The same
 * re-execution exposes V8's gc (one heap-shrinking collection once the start-up work is done) and
 * sets glibc's MALLOC_ARENA_MAX=2 (engine/process/memorySettings.mjs): ~50 MiB less resident at idle.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { memorySettingsToApply, releaseStartUpMemory } from '../../engine/process/memorySettings.mjs';
import { semiSpaceToApply } from '../../engine/process/youngGeneration.mjs';

const run = promisify(execFile);
const moduleUrl = pathToFileURL(join(__dirname, '..', '..', 'engine', 'process', 'boundYoungGeneration.mjs')).href;

// A stand-in for server.mjs: the module first, then a line about the process it ended up in.
const script = join(mkdtempSync(join(tmpdir(), 'young-gen-')), 'server.mjs');
writeFileSync(
  script,
  `import ${JSON.stringify(moduleUrl)};\nconsole.log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, argv: process.argv.slice(2), arenas: process.env.MALLOC_ARENA_MAX, gc: typeof gc }));\n`,
);

/** What a process that imports the module first ends up with: its new space's limit, pid, argv. */
async function startWith(env: Record<string, string>, nodeArgs: string[] = []) {
  const { stdout } = await run(process.execPath, [...nodeArgs, script, 'first', '--second'], {
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { pid: number; execArgv: string[]; argv: string[]; arenas?: string; gc: string };
}

describe('the server starts with a bounded young generation', () => {
  it('re-executes itself with 16 MiB semi-spaces by default, keeping its arguments', async () => {
    const started = await startWith({});
    expect(started.execArgv).toContain('--max-semi-space-size=16');
    expect(started.argv).toEqual(['first', '--second']);
  });

  it('takes the size from SERVER_SEMI_SPACE_MB, and 0 keeps V8 sizing', async () => {
    expect((await startWith({ SERVER_SEMI_SPACE_MB: '4' })).execArgv).toContain('--max-semi-space-size=4');
    expect((await startWith({ SERVER_SEMI_SPACE_MB: '0' })).execArgv.join(' ')).not.toContain('semi-space');
  });

  it('leaves a flag given on the command line or in NODE_OPTIONS alone', async () => {
    const given = await startWith({}, ['--max-semi-space-size=32']);
    expect(given.execArgv.filter((a) => a.includes('semi-space'))).toEqual(['--max-semi-space-size=32']);
    expect(semiSpaceToApply({ NODE_OPTIONS: '--max-semi-space-size=8' }, [])).toBeUndefined();
  });

  it('is what server.mjs does first, right after the Node version check', () => {
    const imports = [...readFileSync(join(__dirname, '..', '..', 'server.mjs'), 'utf8').matchAll(/^import (?:.* from )?'([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.slice(0, 2)).toEqual(['./scripts/check-node.cjs', './engine/process/boundYoungGeneration.mjs']);
  });

  it('refuses a size that is not a whole number of MiB with a readable message', () => {
    expect(() => semiSpaceToApply({ SERVER_SEMI_SPACE_MB: 'lots' }, [])).toThrow(
      'SERVER_SEMI_SPACE_MB must be a whole number of MiB from 0 to 256, not "lots"',
    );
    expect(() => semiSpaceToApply({ SERVER_SEMI_SPACE_MB: '1000' }, [])).toThrow(/from 0 to 256/);
  });
});

describe('the server starts with its memory settings', () => {
  it('re-executes itself with gc exposed and two malloc arenas by default', async () => {
    const started = await startWith({ MALLOC_ARENA_MAX: '' });
    expect(started.execArgv).toContain('--expose-gc');
    expect(started.gc).toBe('function');
    expect(started.arenas).toBe('2');
    expect(started.argv).toEqual(['first', '--second']);
  });

  it('keeps an arena count the environment sets', async () => {
    expect((await startWith({ MALLOC_ARENA_MAX: '4' })).arenas).toBe('4');
  });

  it('a process started with everything set is not started again', () => {
    expect(memorySettingsToApply({ MALLOC_ARENA_MAX: '2' }, ['--expose-gc'])).toEqual({ flags: [], env: {} });
    expect(memorySettingsToApply({ MALLOC_ARENA_MAX: '2', NODE_OPTIONS: '--expose-gc' }, [])).toEqual({ flags: [], env: {} });
    expect(semiSpaceToApply({}, ['--max-semi-space-size=16'])).toBeUndefined();
  });

  it('the collection after start asks V8 for its heap-shrinking flavour, and is skipped without gc', () => {
    const asked: object[] = [];
    expect(releaseStartUpMemory({ gc: (o) => asked.push(o) })).toBe(true);
    expect(asked).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
    expect(releaseStartUpMemory({})).toBe(false);
  });
});
