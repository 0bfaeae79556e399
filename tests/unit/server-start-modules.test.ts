/**
 * A server that has rendered pages without content (a brand's home page, its 404 at start) does
 * not hold the content libraries: the front-matter parser (gray-matter, with js-yaml and esprima)
 * loads with the first content query, and the Markdown sanitiser (sanitize-html, with htmlparser2
 * and postcss) with the first content body. Measured: ~1 MB of the ~6 MB of JavaScript files an
 * idle server had loaded, and RSS 5 s after start −8 MiB. The page bundle's engine (engine/site/pageModel.ts with the block specs it is handed) is run in a
 * fresh process, as the server runs it, and Node's module cache read before and after.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

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
