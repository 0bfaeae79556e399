/**
 * Composes the brand schema from schemas/brand.base.json and one props schema per block
 * (blocks/<type>/schema.json), and generates the TypeScript types from it.
 * `npm run gen:types` writes the results; tests/unit/generated.test.ts fails when they are stale.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from 'json-schema-to-typescript';

type Schema = Record<string, unknown>;
const root = process.cwd();
const readJson = (file: string): Schema => JSON.parse(readFileSync(join(root, file), 'utf8')) as Schema;

export function blockTypes(): string[] {
  return readdirSync(join(root, 'blocks'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'blocks', d.name, 'schema.json')))
    .map((d) => d.name)
    .sort();
}

/** Every block may name the loan types it shows for, and a switch of its layout it shows with (schemas/brand.base.json $defs.blockLoanTypes, blockWhen). */
function withBlockFilters(block: Schema): Schema {
  const properties = block.properties as Schema;
  return { ...block, properties: { ...properties, loanTypes: { $ref: '#/$defs/blockLoanTypes' }, when: { $ref: '#/$defs/blockWhen' } } };
}

/** A reference to a shared part of blocks (among a layout's blocks) or of routes (among a brand's routes): its entries stand in its place (engine/site/sharedParts.ts). */
const partRef = (kind: 'blocks' | 'routes', example: string): Schema => ({
  type: 'object',
  additionalProperties: false,
  required: ['part'],
  description: `The ${kind} of a shared part, in this place, as if they were written here.`,
  properties: {
    part: {
      type: 'string',
      pattern: '^[a-z][a-z0-9-]*$',
      patternHint: `the name of a part in brands/parts/ that holds "${kind}", such as ${example}`,
      description: `The part's file name in brands/parts/ without .json; the part must hold "${kind}".`,
    },
    // a run of blocks can be left out of some pages of a shared layout, like one block; routes cannot
    ...(kind === 'blocks' ? { when: { $ref: '#/$defs/blockWhen' } } : {}),
  },
});

/** The defs of a list entry that may be a part reference: "blockPart" and "layoutEntry", or "routePart" and "routeEntry". */
const entryOrPart = (kind: 'blocks' | 'routes', entry: 'block' | 'route', example: string, what: string): Schema => ({
  [`${entry}Part`]: partRef(kind, example),
  [kind === 'blocks' ? 'layoutEntry' : 'routeEntry']: {
    description: `${what}, or { "part": "<name>" }: the ${kind} of a shared part (brands/parts/<name>.json) in its place.`,
    if: { type: 'object', required: ['part'] },
    then: { $ref: `#/$defs/${entry}Part` },
    else: { $ref: `#/$defs/${entry}` },
  },
});

/** The brand schema as editors and AJV see it: blocks dispatched on `type` with if/then, so errors point inside the block. */
export function composeBrandSchema(mode: 'validate' | 'types' = 'validate'): Schema {
  const base = readJson('schemas/brand.base.json');
  const defs = { ...(base.$defs as Schema) };
  const types = blockTypes();
  for (const type of types) defs[`block_${type}`] = withBlockFilters(readJson(`blocks/${type}/schema.json`));
  // The types describe the brand the engine reads, where the catalog has put each named link
  // list in place (engine/site/brandExpand.ts): links are always an array there.
  if (mode === 'types') defs.links = { ...(defs.links as Schema & { else: Schema }).else, description: 'Links, in order.' };
  // ...and where a brand that leaves out "apply" has its product's default (engine/site/brandExpand.ts)
  const required = mode === 'types' ? [...(base.required as string[]), 'apply'] : base.required;
  // ...and where each block part a layout names, and each route part a brand names (brands/parts/<name>.json), has been put in place
  if (mode === 'validate') {
    const layout = defs.layout as Schema & { properties: Schema & { blocks: Schema } };
    defs.layout = { ...layout, properties: { ...layout.properties, blocks: { ...layout.properties.blocks, items: { $ref: '#/$defs/layoutEntry' } } } };
    Object.assign(
      defs,
      entryOrPart('blocks', 'block', 'near-me-city-faqs', 'A block of the page'),
      entryOrPart('routes', 'route', 'legal-pages-us', 'A route'),
    );
  }
  defs.block =
    mode === 'types'
      ? { description: 'A block of a page.', anyOf: types.map((t) => ({ $ref: `#/$defs/block_${t}` })) }
      : {
          type: 'object',
          description: `A block of a page. Its "type" says which: ${types.join(', ')}.`,
          required: ['type'],
          properties: { type: { enum: types, description: 'Which block this is.' } },
          allOf: types.map((t) => ({ if: { properties: { type: { const: t } }, required: ['type'] }, then: { $ref: `#/$defs/block_${t}` } })),
        };
  const properties = base.properties as Schema & { routes: Schema };
  const routes = mode === 'validate' ? { ...properties.routes, items: { $ref: '#/$defs/routeEntry' } } : properties.routes;
  return { ...base, required, properties: { ...properties, routes }, $defs: defs };
}

/** Shared layout files (brands/layouts/*.json) are checked against this. */
export function composeLayoutSchema(): Schema {
  const brand = composeBrandSchema();
  return {
    $schema: brand.$schema,
    $id: 'https://loansites.dev/schemas/layout.schema.json',
    title: 'Layout',
    description: 'A page layout shared by several brands: title and description templates and the ordered blocks.',
    $ref: '#/$defs/layout',
    $defs: brand.$defs,
  };
}

/**
 * Shared parts (brands/parts/<name>.json) are checked against this: a list of links several brands
 * show (a footer column, a menu group), which a brand names like one of its own "linkLists".
 */
export function composePartSchema(): Schema {
  const brand = composeBrandSchema();
  return {
    $schema: brand.$schema,
    $id: 'https://loansites.dev/schemas/part.schema.json',
    title: 'Part',
    description:
      'A part several brands or layouts share, written once in brands/parts/<name>.json: a list of links, a run of blocks or a run of routes. A brand gives a link part\'s name where it would write the links (a menu\'s "children", a footer column\'s "links" or a linkGrid block\'s "links" in its own layouts), e.g. "links": "legal-us"; a layout names a block part among its blocks, { "part": "near-me-city-faqs" }, and a brand a route part among its routes, { "part": "legal-pages-us" }.',
    type: 'object',
    additionalProperties: false,
    required: ['description'],
    properties: {
      $schema: { type: 'string', description: 'Path to this schema, for editors: ../../schemas/part.schema.json.' },
      description: { type: 'string', minLength: 10, description: 'What the part is and which brands show it, for the next person who edits it.' },
      links: {
        type: 'array',
        minItems: 1,
        items: { $ref: '#/$defs/link' },
        description:
          'A link part: the links, in order; each href must be a page of every brand that names this part. A part has one of "links", "blocks" and "routes".',
      },
      blocks: {
        type: 'array',
        minItems: 1,
        items: { $ref: '#/$defs/block' },
        description:
          'A block part: the blocks, in order, that stand where a layout writes { "part": "<name>" }; they are checked as blocks of each layout that names them. A part has one of "links", "blocks" and "routes".',
      },
      routes: {
        type: 'array',
        minItems: 1,
        items: { $ref: '#/$defs/route' },
        description:
          'A route part: the routes, in order, that stand where a brand\'s "routes" write { "part": "<name>" }; they are checked as routes of each brand that names them. A part has one of "links", "blocks" and "routes".',
      },
    },
    $defs: brand.$defs,
  };
}

/** Block fields that may name a link list instead of writing the links: their schema is the shared "links" definition. */
export function blockLinkListFields(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const type of blockTypes()) {
    const props = (readJson(`blocks/${type}/schema.json`).properties ?? {}) as Record<string, Schema>;
    for (const [name, prop] of Object.entries(props)) if (prop.$ref === '#/$defs/links') (out[type] ??= []).push(name);
  }
  return out;
}

/** Each block's link-template fields, marked "x-template": "<item kind>" in its schema. */
export function blockTemplateFields(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const type of blockTypes()) {
    const props = (readJson(`blocks/${type}/schema.json`).properties ?? {}) as Record<string, Schema>;
    for (const [name, prop] of Object.entries(props)) if (typeof prop['x-template'] === 'string') (out[type] ??= {})[name] = prop['x-template'];
  }
  return out;
}

const banner = '// Generated by `npm run gen:types` from schemas/brand.base.json and blocks/<type>/schema.json. Do not edit.';

export async function generatedFiles(): Promise<Record<string, string>> {
  const forTypes = composeBrandSchema('types');
  // Drop editor-only keywords the TS generator does not know, and "one of these properties is
  // required" rules (anyOf of bare `required`), which TypeScript cannot say and which would
  // otherwise become an unnamed `{ [k: string]: unknown }` type.
  const requirementOnly = (value: unknown) =>
    Array.isArray(value) && value.every((v) => v && typeof v === 'object' && Object.keys(v as object).join() === 'required');
  const ts = await compile(
    JSON.parse(
      JSON.stringify(forTypes, (key, value) =>
        key === 'patternHint' || key === 'x-template' || (key === 'anyOf' && requirementOnly(value)) ? undefined : value,
      ),
    ),
    'Brand',
    {
      bannerComment: banner,
      additionalProperties: false,
      unreachableDefinitions: true,
      style: { singleQuote: true, printWidth: 120 },
      cwd: root,
    },
  );
  const types = blockTypes();
  const extra =
    `\n/** Every block type declared by a blocks/<type>/schema.json. */\nexport const BLOCK_TYPES = ${JSON.stringify(types)} as const;\nexport type BlockType = Block['type'];\n` +
    `\n/** Link-template fields of each block ("x-template" in its schema): the kind of item whose variables fill each. */\nexport const BLOCK_TEMPLATE_FIELDS = ${JSON.stringify(blockTemplateFields())} as const;\n` +
    `\n/** Block fields that may give a link list's name instead of the links (their schema is the "links" definition). */\nexport const BLOCK_LINK_LIST_FIELDS: Partial<Record<BlockType, readonly string[]>> = ${JSON.stringify(blockLinkListFields())};\n`;
  return {
    'schemas/brand.schema.json': JSON.stringify(composeBrandSchema(), null, 2) + '\n',
    'schemas/layout.schema.json': JSON.stringify(composeLayoutSchema(), null, 2) + '\n',
    'schemas/part.schema.json': JSON.stringify(composePartSchema(), null, 2) + '\n',
    'schemas/brand.types.ts': ts + extra,
    'schemas/api.types.ts': await apiTypes(),
    'schemas/buyer.types.ts': await buyerTypes(),
    'engine/blockSpecs/specMap.ts': blockSpecMap(types),
  };
}

/** The map of block specs: engine/blockSpecs/<type>.ts exports <type>Spec; a type without a file has none. */
function blockSpecMap(types: readonly string[]): string {
  const dir = join(root, 'engine/blockSpecs');
  const withSpec = types.filter((t) => existsSync(join(dir, `${t}.ts`)));
  const parts = new Set(['index', 'links', 'specMap', 'templateFields', 'types']);
  const stray = readdirSync(dir).filter((f) => f.endsWith('.ts') && !parts.has(f.slice(0, -3)) && !types.includes(f.slice(0, -3)));
  if (stray.length) throw new Error(`engine/blockSpecs: ${stray.join(', ')} names no block type (known: ${types.join(', ')})`);
  return [
    '// Generated by `npm run gen:types` from blocks/<type>/schema.json and engine/blockSpecs/<type>.ts. Do not edit.',
    "import type { BlockType } from '../../schemas/brand.types';",
    "import type { AnySpec } from './types';",
    ...withSpec.map((t) => `import { ${t}Spec } from './${t}';`),
    '',
    "/** Every block type's spec; a type without a spec file has none ({}). A missing entry fails `tsc`. */",
    'export const BLOCK_SPECS = {',
    ...types.map((t) => `  ${t}: ${withSpec.includes(t) ? `${t}Spec` : '{}'},`),
    '} satisfies { [K in BlockType]: AnySpec<K> };',
    '',
  ].join('\n');
}

/** The buyer document's types (schemas/buyer.schema.json, written by hand: it is not composed). */
async function buyerTypes(): Promise<string> {
  const schema = JSON.parse(readFileSync(join(root, 'schemas/buyer.schema.json'), 'utf8'), (key, value) =>
    key === 'patternHint' || key === '$id' ? undefined : value,
  ) as Schema;
  const ts = await compile(schema, 'Buyer', {
    bannerComment: '// Generated by `npm run gen:types` from schemas/buyer.schema.json. Do not edit.',
    additionalProperties: false,
    unreachableDefinitions: true,
    style: { singleQuote: true, printWidth: 120 },
    cwd: root,
  });
  return ts;
}

/** The types of every API body (schemas/api/*.json), each named by its schema's title. */
async function apiTypes(): Promise<string> {
  const dir = join(root, 'schemas/api');
  const parts: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const schema = JSON.parse(readFileSync(join(dir, file), 'utf8'), (key, value) => (key === 'patternHint' || key === '$id' ? undefined : value)) as Schema & {
      title: string;
    };
    parts.push(
      await compile(schema, schema.title, {
        bannerComment: '',
        additionalProperties: false,
        unreachableDefinitions: true,
        style: { singleQuote: true, printWidth: 120 },
        cwd: dir,
      }),
    );
  }
  return `// Generated by \`npm run gen:types\` from schemas/api/*.json. Do not edit.\n\n${parts.join('\n')}`;
}
