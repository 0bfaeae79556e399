/**
 * React picks its development or production build from NODE_ENV the first time it is required,
 * and server.mjs sets NODE_ENV only after its static imports have run. So none of the modules it
 * imports may load React (or react-dom) at import: a production server would then render every
 * page with React's development build — slower, and writing React's development warnings to the
 * log. Each engine module server.mjs imports is imported here in a fresh process without NODE_ENV,
 * and Node's module cache read after.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');

/** The engine modules server.mjs imports statically, as written there. */
const imported = [...readFileSync(join(root, 'server.mjs'), 'utf8').matchAll(/^import [^;]*? from '(\.\/engine\/[^']+\.mjs)';/gms)].map((m) => m[1]!);

const script = `
import { createRequire } from 'node:module';
${imported.map((file) => `await import(${JSON.stringify(pathToFileURL(join(root, file)).href)});`).join('\n')}
const require = createRequire(import.meta.url);
console.log(JSON.stringify(Object.keys(require.cache).filter((f) => /\\/node_modules\\/react(-dom)?\\//.test(f))));
`;

describe("the server's imports and React's build", () => {
  it('finds the engine modules server.mjs imports', () => {
    expect(imported).toContain('./engine/http/coldPageRender.mjs');
    expect(imported).toContain('./engine/http/reactRenderer.mjs');
  });

  it('loads no React module while server.mjs imports them (NODE_ENV is set after)', { timeout: 60_000 }, async () => {
    const { NODE_ENV: _unset, ...env } = process.env as Record<string, string | undefined>;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env: env as NodeJS.ProcessEnv });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual([]);
  });
});
