/**
 * A new block is its folder and `npm run gen`: in a copy of the project, a block folder is added
 * (schema, component, spec) and nothing else is edited; the generator runs there, and a page of a
 * brand that uses the block renders it with the data its spec gives.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = process.cwd();
let copy = '';

const schema = {
  title: 'PromoNoteBlock',
  description: 'A short note under a heading, the note written by the server for the brand.',
  examples: [{ type: 'promoNote', heading: 'Before you apply' }],
  type: 'object',
  additionalProperties: false,
  required: ['type', 'heading'],
  properties: {
    type: { const: 'promoNote', description: 'Which block this is.' },
    heading: { type: 'string', minLength: 1, description: 'The heading above the note.' },
  },
};

const component = `import type { BlockProps } from '../types';

export default function PromoNote({ block }: BlockProps<'promoNote'>) {
  return (
    <section>
      <h2>{block.heading}</h2>
      <p>{block.data.note}</p>
    </section>
  );
}
`;

const spec = `import type { BlockSpec } from '../../engine/site/blockSpec';

export const promoNoteSpec: BlockSpec<'promoNote', { note: string }> = {
  data: (_block, { brand }) => ({ note: \`\${brand.name} never charges for a request.\` }),
};
`;

/** The project's code, as a checkout has it: everything the generator and a page render read. */
function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'block-folder-'));
  for (const d of ['blocks', 'engine', 'schemas', 'pages']) cpSync(join(repo, d), join(dir, d), { recursive: true });
  mkdirSync(join(dir, 'scripts'));
  for (const f of ['gen-types.ts', 'schema-build.ts', 'block-maps.ts', 'check-node.cjs']) cpSync(join(repo, 'scripts', f), join(dir, 'scripts', f));
  for (const f of ['package.json', 'tsconfig.json']) cpSync(join(repo, f), join(dir, f));
  // read-only data the engine reads at run time
  for (const d of ['node_modules', 'data', 'content']) symlinkSync(join(repo, d), join(dir, d));
  return dir;
}

beforeAll(() => {
  copy = copyProject();
  const folder = join(copy, 'blocks', 'promoNote');
  mkdirSync(folder);
  writeFileSync(join(folder, 'schema.json'), JSON.stringify(schema, null, 2) + '\n');
  writeFileSync(join(folder, 'PromoNote.tsx'), component);
  writeFileSync(join(folder, 'spec.ts'), spec);
  execFileSync(join(repo, 'node_modules', '.bin', 'tsx'), ['scripts/gen-types.ts'], { cwd: copy, stdio: 'pipe' });
  // the copy's engine reads its schemas from the working directory, as the server does
  process.chdir(copy);
}, 120_000);

afterAll(() => {
  process.chdir(repo);
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('a block added as one folder', () => {
  it('is registered, typed and given its spec by the generator alone', () => {
    const generated = (file: string) => readFileSync(join(copy, 'blocks', 'generated', file), 'utf8');
    expect(generated('specs.ts')).toContain("import { promoNoteSpec } from '../promoNote/spec';");
    expect(generated('registry.ts')).toContain("promoNote: staticBlock('PromoNote'),");
    expect(generated('staticBlocks.ts')).toContain("export { default as PromoNote } from '../promoNote/PromoNote';");
    expect(readFileSync(join(copy, 'schemas', 'brand.types.ts'), 'utf8')).toContain("type: 'promoNote';");
  });

  it('renders on a brand page with the data its spec gives', async () => {
    const at = (file: string) => join(copy, file);
    const { BLOCK_SPECS } = (await import(at('blocks/generated/specs.ts'))) as typeof import('../../blocks/generated/specs');
    const { buildCatalog } = (await import(at('engine/site/catalog.ts'))) as typeof import('../../engine/site/catalog');
    const { buildPageModel } = (await import(at('engine/site/pageModel.ts'))) as typeof import('../../engine/site/pageModel');
    const { createEmbeddedSource, embeddedIndex } = (await import(at('engine/content/embedded.ts'))) as typeof import('../../engine/content/embedded');
    const { preloadBlocks } = (await import(at('blocks/loading.ts'))) as typeof import('../../blocks/loading');
    const page = (await import(at('pages/_brand/[brand]/[[...path]].tsx'))) as { default: ComponentType<{ model: unknown }> };

    const brand = readFileSync(join(repo, 'tests/fixtures/acme.json'), 'utf8').replace(
      '{ "path": "/do-not-sell-or-share"',
      '{ "path": "/before-you-apply", "layout": "promo" },\n    { "path": "/do-not-sell-or-share"',
    );
    const layout = {
      title: 'Before you apply',
      description: 'What to know before you send a request.',
      blocks: [
        { type: 'hero', heading: 'Before you apply', text: 'Read this first.' },
        { type: 'promoNote', heading: 'Free to ask' },
      ],
    };
    const catalog = buildCatalog(
      [{ file: 'brands/acme.json', text: brand }],
      [{ file: 'brands/layouts/promo.json', text: JSON.stringify(layout) }],
      BLOCK_SPECS,
    );
    expect(catalog.problems).toEqual([]);

    const model = await buildPageModel(catalog, 'acme', '/before-you-apply', { source: createEmbeddedSource(embeddedIndex()) });
    if (model === 'notFound') throw new Error('/before-you-apply is not a page');
    await preloadBlocks(model.blocks.map((b) => b.type));
    const html = renderToString(createElement(page.default, { model }));
    expect(html).toContain('<h2>Free to ask</h2>');
    expect(html).toContain(`${catalog.brands.get('acme')!.brand.name} never charges for a request.`);
  });
});
