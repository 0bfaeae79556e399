import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../scripts/schema-build';

describe('generated schema and types are up to date', () => {
  it.each([
    'schemas/brand.schema.json',
    'schemas/layout.schema.json',
    'schemas/part.schema.json',
    'schemas/brand.types.ts',
    'schemas/api.types.ts',
    'schemas/buyer.types.ts',
    'blocks/generated/specs.ts',
    'blocks/generated/registry.ts',
    'blocks/generated/staticBlocks.ts',
  ])('%s matches `npm run gen:types`', async (file) => {
    const fresh = (await generatedFiles())[file];
    const committed = readFileSync(join(process.cwd(), file), 'utf8');
    expect(committed, `${file} is stale: run npm run gen:types and commit the result`).toBe(fresh);
  });
});
