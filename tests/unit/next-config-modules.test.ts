/**
 * A production server is handed the configuration the build resolved, so Next's code for reading
 * and checking a next.config file (zod and the config schema, commander, comment-json) never runs
 * in it; server.mjs keeps it from loading at all (engine/process/nextConfigModules.mjs), which an
 * idle server's memory shows. Next is loaded here in a fresh process as server.mjs loads it (`next`,
 * then the request handlers' start-server module its prepare() requires), with Node's module hooks
 * recording every file read from disk; then one of Next's own uses of that code is called.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

/** The packages' entry files, as they end in a loaded file's URL. */
const CONFIG_ONLY = ['compiled/zod/index.cjs', 'compiled/zod-validation-error/index.js', 'compiled/commander/index.js', 'compiled/comment-json/index.js'];

const script = (defer: boolean) => `
import { createRequire, registerHooks } from 'node:module';
const read = [];
registerHooks({ load(url, context, next) { read.push(url); return next(url, context); } });
const require = createRequire(${JSON.stringify(pathToFileURL(join(root, 'package.json')).href)});
if (${defer}) (await import(${JSON.stringify(pathToFileURL(join(root, 'engine/process/nextConfigModules.mjs')).href)})).deferNextConfigModules(${JSON.stringify(root)});
const wanted = ${JSON.stringify(CONFIG_ONLY)};
const loaded = () => wanted.filter((m) => read.some((url) => url.endsWith('/node_modules/next/dist/' + m)));
await import('next');
require('next/dist/server/lib/start-server.js');
const steps = { atStart: loaded() };
// Next checking a configuration with its schema and wording what it refuses (zod), refusing a port
// option (commander) and reading a tsconfig (comment-json): the real modules, loaded now
const { configSchema } = require('next/dist/server/config-schema.js');
const checked = configSchema.safeParse({ reactStrictMode: 'yes' });
const { formatZodError } = require('next/dist/shared/lib/zod.js');
steps.refusal = checked.success ? '' : formatZodError('Invalid next.config:', checked.error).message;
const { parseValidPositiveInteger } = require('next/dist/server/lib/utils.js');
try { parseValidPositiveInteger('lots'); } catch (err) { steps.option = err.constructor.name + ': ' + err.message; }
const { loadTsConfigOptions } = require('next/dist/lib/typescript/loadTsConfig.js');
steps.tsconfigReader = typeof loadTsConfigOptions;
steps.used = loaded();
console.log(JSON.stringify(steps));
`;

async function steps(defer: boolean): Promise<{ atStart: string[]; used: string[]; refusal: string; option: string; tsconfigReader: string }> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script(defer)], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe("Next's config-reading code in a production server", () => {
  it('is not loaded when Next and its request handlers are, yet works when Next uses it', { timeout: 60_000 }, async () => {
    const deferred = await steps(true);
    expect(deferred.atStart).toEqual([]);
    expect(deferred.used.sort()).toEqual([...CONFIG_ONLY].sort());
    expect(deferred.refusal).toContain('reactStrictMode');
    expect(deferred.option).toBe("InvalidArgumentError: 'lots' is not a non-negative number.");
    expect(deferred.tsconfigReader).toBe('function');
  });

  it('is what Next loads on its own (the check above would see it)', { timeout: 60_000 }, async () => {
    expect((await steps(false)).atStart.sort()).toEqual([...CONFIG_ONLY].sort());
  });
});
