/**
 * The file validators are compiled when a file of their kind is first checked, and layouts and
 * parts are checked against the brand schema's definitions (compiled once) rather than their own
 * file's copy of them. What an editor of brand files sees must not change: every document gets
 * exactly the problems its schema file, compiled whole, gives, whichever kind is checked first.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toProblems } from '../../engine/validate/problems';

type Schemas = typeof import('../../engine/validate/schema');
const fresh = async (): Promise<Schemas> => {
  vi.resetModules();
  return import('../../engine/validate/schema');
};

const readJson = (file: string): unknown => JSON.parse(readFileSync(join(process.cwd(), file), 'utf8'));

/** The problems a schema file gives when compiled as it is written (its own copy of the definitions). */
function wholeFileChecker(kind: 'layout' | 'part'): (doc: unknown) => unknown {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false });
  ajv.addKeyword({ keyword: 'patternHint', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-template', schemaType: 'string' });
  const v = ajv.compile(readJson(`schemas/${kind}.schema.json`) as object);
  return (doc) => (v(doc) ? [] : toProblems(v.errors));
}

const BAD_PARTS: [string, unknown][] = [
  ['a link without its href', { description: 'The Legal footer column.', links: [{ label: 'Privacy Policy' }] }],
  ['an unknown block', { description: 'Questions of the city pages.', blocks: [{ type: 'faqq', heading: 'Questions' }] }],
  ['a block missing what it needs', { description: 'Questions of the city pages.', blocks: [{ type: 'faq', heading: 'Questions' }] }],
  ['a route with an unknown property', { description: 'The legal pages of the US brands.', routes: [{ path: '/privacy', layout: 'privacy', colour: 'red' }] }],
  ['a short description and an unknown property', { description: 'Legal', links: [], extra: true }],
];

const BAD_LAYOUTS: [string, unknown][] = [
  ['no blocks', { title: 'Payday loans', description: 'Payday loans online' }],
  ['an unknown block among parts', { title: 'T', description: 'D', blocks: [{ part: 'near-me-city-faqs' }, { type: 'heroo' }] }],
  ['a block of the wrong shape', { title: 'T', description: 'D', blocks: [{ type: 'hero', heading: 42 }] }],
];

describe('file validators', () => {
  let schemas: Schemas;
  beforeEach(async () => {
    schemas = await fresh();
  });

  it('compiles only the validator of the kind of file checked', () => {
    expect(schemas.checkBuyerSchema({ id: 'x' }).length).toBeGreaterThan(0);
    expect(schemas.compiledKinds()).toEqual(['buyer']);
    expect(schemas.checkPartSchema({ description: 'A part of the test brands.', links: [{ label: 'A', href: '/a' }] })).toEqual([]);
    expect(schemas.compiledKinds()).toEqual(['buyer', 'part']);
  });

  it.each(BAD_PARTS)('refuses a part with %s exactly as part.schema.json compiled whole does, checked before any brand', (_, doc) => {
    const problems = schemas.checkPartSchema(doc);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems).toEqual(wholeFileChecker('part')(doc));
  });

  it.each(BAD_LAYOUTS)('refuses a layout with %s exactly as layout.schema.json compiled whole does, after a brand', (_, doc) => {
    schemas.checkBrandSchema(readJson('tests/fixtures/acme.json'));
    const problems = schemas.checkLayoutSchema(doc);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems).toEqual(wholeFileChecker('layout')(doc));
  });

  it('words a bad part the way an editor of brand files has always read it', () => {
    expect(schemas.checkPartSchema({ description: 'Questions of the city pages.', blocks: [{ type: 'faqq' }], links: [{ label: 'A' }] })).toEqual([
      { pointer: '/links/0', message: 'missing required property "href"' },
      {
        pointer: '/blocks/0/type',
        message: expect.stringMatching(/^unknown block "faqq" \(known: addressAutocomplete, applyCta, .*, storeFacts\)$/),
      },
    ]);
  });

  it('accepts every shared layout and part of the repository', () => {
    for (const dir of ['brands/layouts', 'brands/parts'])
      for (const f of readdirSync(join(process.cwd(), dir)).filter((n) => n.endsWith('.json'))) {
        const doc = readJson(`${dir}/${f}`);
        expect(dir === 'brands/parts' ? schemas.checkPartSchema(doc) : schemas.checkLayoutSchema(doc), `${dir}/${f}`).toEqual([]);
      }
  });

  it("points a layout or part schema's own definitions at the brand schema's", () => {
    const brandId = 'https://loansites.dev/schemas/brand.schema.json';
    const part = readJson('schemas/part.schema.json') as Parameters<Schemas['onBrandDefs']>[0];
    const pointed = schemas.onBrandDefs(part, brandId);
    expect(pointed.$defs).toBeUndefined();
    const refs = JSON.stringify(pointed).match(/"\$ref":"[^"]*"/g) ?? [];
    expect(refs).toEqual([`"$ref":"${brandId}#/$defs/link"`, `"$ref":"${brandId}#/$defs/block"`, `"$ref":"${brandId}#/$defs/route"`]);
  });
});
