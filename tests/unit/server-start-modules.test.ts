/**
 * A server that has rendered pages without content (a brand's home page, its 404 at start) does
 * not hold the content libraries: the front-matter parser (gray-matter, with js-yaml and esprima)
 * loads with the first content query, and the Markdown sanitiser (sanitize-html, with htmlparser2
 * and postcss) with the first content body. Measured: ~1 MB of the ~6 MB of JavaScript files an
 * idle server had loaded, and RSS 5 s after start −8 MiB. The page bundle's engine (engine/site/pageModel.ts with the block specs it is handed) is run in a
 * fresh process, as the server runs it, and Node's module cache read before and after.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildFrontDoor } from '../../scripts/build-front-door';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const url = (file: string) => JSON.stringify(pathToFileURL(join(root, file)).href);

/** Loaded only for content: each package's entry module as Node's module cache names it. */
const CONTENT_ONLY = ['gray-matter/index.js', 'js-yaml/index.js', 'esprima/dist/esprima.js', 'sanitize-html/index.js', 'postcss/lib/postcss.js'];

// Builds page models as getStaticProps does and prints which of CONTENT_ONLY are loaded after each step.
const script = `
import { createRequire } from 'node:module';
import { buildPageModel } from ${url('engine/site/pageModel.ts')};
import { buildCatalog, readSources } from ${url('engine/site/catalog.ts')};
import { BLOCK_SPECS } from ${url('blocks/generated/specs.ts')};
const require = createRequire(import.meta.url);
const wanted = ${JSON.stringify(CONTENT_ONLY)};
const loaded = () => wanted.filter((m) => Object.keys(require.cache).some((f) => f.endsWith('/node_modules/' + m)));
const { brands, layouts } = readSources();
const catalog = buildCatalog(brands, layouts, BLOCK_SPECS);
const steps = { imported: loaded() };
for (const id of catalog.brands.keys()) await buildPageModel(catalog, id, '/');
await buildPageModel(catalog, 'ipaydayloans', '/__no-such-page');
steps.homesAnd404 = loaded();
const article = await buildPageModel(catalog, 'honestloans', '/blog/title-loans/alternatives-to-a-title-loan');
if (article === 'notFound') throw new Error('the article is not a page');
steps.article = loaded();
console.log(JSON.stringify(steps));
`;

describe('modules a server holds before it reads content', () => {
  it('no content parser or sanitiser is loaded until a content page is built', { timeout: 60_000 }, async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    const steps = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, string[]>;
    expect(steps.imported).toEqual([]);
    expect(steps.homesAnd404).toEqual([]);
    // the same check sees them once content is read: it would see them at start too
    expect(steps.article).toEqual(CONTENT_ONLY);
  });
});

/** Content packages, as the directory under node_modules each module's file lives in. */
const CONTENT_PACKAGES = ['gray-matter', 'js-yaml', 'esprima', 'marked', 'sanitize-html', 'htmlparser2', 'postcss'];

// Records the package of every module file Node loads (import and require alike) while the compiled front door is imported.
const packagesLoadedBy = (file: string) => `
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({
  load(url, context, next) {
    const m = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
    if (m) seen.add(m[1]);
    return next(url, context);
  },
});
await import(${url(file)});
console.log(JSON.stringify([...seen].sort()));
`;

describe('packages the compiled front door loads at start', () => {
  // The server runs one esbuild bundle, not the sources: a bundler that inlines a module behind a
  // dynamic import lifts that module's package imports to the top of the bundle, loaded at start.
  it('loads no content package until a content page is rendered', { timeout: 60_000 }, async () => {
    // inside the repository, so that the bundle's package imports resolve to node_modules as the server's do
    const dir = mkdtempSync(join(root, 'node_modules', '.front-door-test-'));
    try {
      const file = join(dir, 'front-door.mjs');
      await buildFrontDoor(file);
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', packagesLoadedBy(file.slice(root.length + 1))], {
        cwd: root,
        encoding: 'utf8',
      });
      const loaded = JSON.parse(stdout.trim().split('\n').pop()!) as string[];
      // the hook does see what the front door needs at start: the schema validator and SQLite
      expect(loaded).toEqual(expect.arrayContaining(['ajv', 'better-sqlite3', 'kysely']));
      expect(loaded.filter((p) => CONTENT_PACKAGES.includes(p))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
