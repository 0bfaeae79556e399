/**
 * The studio's check of one brand document: every kind of problem `npm run validate` reports comes
 * with the JSON pointer of the field it concerns and the exact line the validator prints; two
 * brands can never claim one host; and the catalog takes a brand's newest published revision over
 * its file, a broken one never taking another brand down.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { buildCatalog, overlayCatalog, readSources, sourcesWithRevisions, revisionText } from '../../engine/site/catalog';
import { catalogWithBrand, checkBrandDocument } from '../../engine/site/brandOverlay';

const sources = readSources({ extraDir: '' });
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const original = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand;
const copy = (): Brand => structuredClone(original);
const check = (doc: unknown, production = false) => checkBrandDocument('ipaydayloans', doc, { catalog, layouts: sources.layouts, production }).problems;

/** The validator's own line for the same document as a file (what `npm run validate` prints). */
const validatorLines = (doc: Brand): string[] => {
  const brands = sources.brands.map((s) => (s.file === 'brands/ipaydayloans.json' ? { file: s.file, text: revisionText(doc) } : s));
  // listed by the file's name (an id that is not the file's is itself the problem)
  return buildCatalog(brands, sources.layouts, BLOCK_SPECS).broken.get('ipaydayloans') ?? [];
};

describe('checkBrandDocument', () => {
  it('finds nothing wrong with a brand as it ships', () => {
    expect(check(copy())).toEqual([]);
  });

  const kinds: [string, (b: Brand) => void, string, RegExp][] = [
    ['schema: a value of the wrong type', (b) => ((b.config as { theme: unknown }).theme = 12), '/config/theme', /must be a string/],
    ['schema: an unknown property', (b) => ((b.config as unknown as Record<string, unknown>).colour = '#fff'), '/config/colour', /unknown property "colour"/],
    ['a link to a page that does not exist', (b) => (b.nav.items[0]!.children![0]!.href = '/paydy-loans'), '/nav/items/0/children/0/href', /paydy-loans/],
    ['an unknown layout', (b) => ((b.routes[0] as { layout: string }).layout = 'homme'), '/routes/0/layout', /homme/],
    [
      'a route parameter that does not exist',
      (b) => {
        const r = b.routes.find((x) => 'path' in x && x.path === '/location/{stateCode}/{city}') as { path: string };
        r.path = '/location/{stateCode}/{town}';
      },
      `/routes/${original.routes.findIndex((x) => 'path' in x && x.path === '/location/{stateCode}/{city}')}/path`,
      /town/,
    ],
    ['a colour too light for white text', (b) => (b.config.theme = '#ffd54f'), '/config/theme', /contrast/],
    ['a host another brand holds', (b) => b.hosts.push('cocoloan.com'), `/hosts/${original.hosts.length}`, /also claimed by brands\/cocoloan\.json/],
    ['an id that is not the brand being edited', (b) => (b.id = 'ipaydayloans2'), '/id', /must equal the file name/],
  ];
  for (const [kind, change, pointer, message] of kinds)
    it(`points at the field: ${kind}`, () => {
      const doc = copy();
      change(doc);
      const problems = check(doc);
      const found = problems.find((p) => p.pointer === pointer);
      expect(found, JSON.stringify(problems, null, 1)).toBeDefined();
      expect(found!.message).toMatch(message);
      // the same line the validator prints
      expect(validatorLines(doc)).toContain(found!.text);
      expect(found!.text).toMatch(new RegExp(`^brands/ipaydayloans\\.json:\\d+:\\d+ ${pointer.replace(/[/{}]/g, '\\$&')}: `));
    });

  it('points at a production placeholder when checking for production', () => {
    const doc = copy();
    doc.organization.telephone = '(555) 555-0123';
    expect(check(doc)).toEqual([]);
    const problems = check(doc, true);
    const phone = problems.find((p) => p.pointer === '/organization/telephone');
    expect(phone?.message).toMatch(/fictional telephone number/);
    expect(phone?.text).toMatch(/^brands\/ipaydayloans\.json:\d+:\d+ \/organization\/telephone: /);
  });
});

describe('host uniqueness', () => {
  it('refuses a new brand a host another brand holds, its dev. host included, and the other keeps it', () => {
    const doc = { ...copy(), id: 'newbrand', hosts: ['ipaydayloans.com'] } as Brand;
    const problems = checkBrandDocument('newbrand', doc, { catalog, layouts: sources.layouts }).problems;
    expect(problems.map((p) => p.pointer)).toContain('/hosts/0');
    const viaDev = checkBrandDocument('newbrand', { ...doc, hosts: ['dev.ipaydayloans.com'] }, { catalog, layouts: sources.layouts }).problems;
    expect(viaDev.find((p) => p.pointer.startsWith('/hosts'))?.message).toMatch(/ipaydayloans/);
  });

  it('in the catalog, a revision claiming a host keeps none of it: the brand that held it still answers there', () => {
    const thief = { ...copy(), id: 'aaathief' } as Brand;
    const overlay = overlayCatalog(catalog, new Map([['aaathief', { key: 'aaathief', version: 1, document: thief, savedAt: '2026-01-01T00:00:00.000Z' }]]));
    expect(overlay.catalog.hostMap.get('ipaydayloans.com')).toBe('ipaydayloans');
    expect(overlay.catalog.brands.has('ipaydayloans')).toBe(true);
    expect(overlay.refused.get('aaathief')?.join('\n')).toMatch(/also claimed by brands\/ipaydayloans\.json/);
  });
});

describe('the catalog with published revisions', () => {
  it('serves the newest published revision over the file, and the file where there is none', () => {
    const doc = copy();
    doc.name = 'iPayday Revised';
    const overlay = overlayCatalog(
      catalog,
      new Map([['ipaydayloans', { key: 'ipaydayloans', version: 3, document: doc, savedAt: '2026-01-01T00:00:00.000Z' }]]),
    );
    expect(overlay.catalog.brands.get('ipaydayloans')?.brand.name).toBe('iPayday Revised');
    expect(overlay.catalog.brands.get('ipaydayloans')?.file).toBe('brands/ipaydayloans.json');
    // the others are the very objects the files made (their caches hang off them)
    expect(overlay.catalog.brands.get('cocoloan')).toBe(catalog.brands.get('cocoloan'));
  });

  it('answers a brand made in the studio on its hosts, dev. and test123. included', () => {
    const doc = { ...copy(), id: 'studiobrand', hosts: ['studiobrand.example'] } as Brand;
    delete (doc as { blogHost?: string }).blogHost;
    const overlay = overlayCatalog(catalog, new Map([['studiobrand', { key: 'studiobrand', version: 1, document: doc, savedAt: '2026-01-01T00:00:00.000Z' }]]));
    expect(overlay.refused.get('studiobrand')).toBeUndefined();
    for (const host of ['studiobrand.example', 'dev.studiobrand.example', 'test123.studiobrand.example', 'studiobrand.localhost'])
      expect(overlay.catalog.hostMap.get(host)).toBe('studiobrand');
  });

  it('leaves a broken revision out (its file applies) without taking another brand down', () => {
    const doc = copy();
    (doc.routes[0] as { layout: string }).layout = 'no-such-layout';
    const overlay = overlayCatalog(
      catalog,
      new Map([['ipaydayloans', { key: 'ipaydayloans', version: 2, document: doc, savedAt: '2026-01-01T00:00:00.000Z' }]]),
    );
    expect(overlay.catalog.brands.get('ipaydayloans')?.brand.name).toBe(original.name);
    expect(overlay.catalog.brands.size).toBe(catalog.brands.size);
    expect(overlay.refused.get('ipaydayloans')?.[0]).toMatch(/no-such-layout/);
  });

  it('orders revised brands after the files, oldest publication first', () => {
    const a = { document: {}, savedAt: '2026-02-01' };
    const b = { document: {}, savedAt: '2026-01-01' };
    const files = sourcesWithRevisions(
      sources.brands,
      new Map([
        ['zz-new', a],
        ['cocoloan', b],
      ]),
    ).map((s) => s.file);
    expect(files.slice(-2)).toEqual(['brands/cocoloan.json', 'brands/zz-new.json']);
  });
});

describe('catalogWithBrand, for the preview', () => {
  it('holds the draft in place of the brand, checked as the catalog checks it', () => {
    const doc = copy();
    doc.name = 'iPayday Draft';
    const preview = catalogWithBrand('ipaydayloans', doc);
    expect(preview.brands.get('ipaydayloans')?.brand.name).toBe('iPayday Draft');
    expect(catalogWithBrand('ipaydayloans', structuredClone(doc))).toBe(preview);
    const thief = { ...copy(), hosts: ['cocoloan.com'] } as Brand;
    const refused = catalogWithBrand('ipaydayloans', thief);
    expect(refused.brands.has('ipaydayloans')).toBe(false);
    expect(refused.findings.get('ipaydayloans')?.map((f) => f.pointer)).toContain('/hosts/0');
  });
});
