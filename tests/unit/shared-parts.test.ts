/**
 * Shared parts: a list of links several brands show (the Legal column of the US brands) is
 * written once in brands/parts/<name>.json, and a brand names it where it would write the links,
 * like one of its own "linkLists". Each brand reads as if it had written the links itself, and a
 * bad reference or a bad part file is refused with the place and the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type Source } from '../../engine/site/catalog';

const base = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
const LEGAL = [
  { label: 'Payday loans', href: '/payday-loans' },
  { label: 'Apply', href: '/apply' },
];
const part = (value: unknown, name = 'legal'): Source => ({ file: `brands/parts/${name}.json`, text: JSON.stringify(value, null, 2) });
const legal = part({ description: 'The Legal footer column of the test brands.', links: LEGAL });

/** The fixture as brand `id` (its own hosts), its first footer column and first menu group naming `name`. */
function brand(id: string, name: string, lists?: Record<string, unknown>): Source {
  const b = JSON.parse(base) as {
    id: string;
    hosts: string[];
    linkLists?: unknown;
    nav: { items: { children?: unknown }[] };
    footer: { columns: { links: unknown }[] };
  };
  b.id = id;
  b.hosts = b.hosts.map((h) => `${id}-${h}`);
  b.footer.columns[0]!.links = name;
  b.nav.items[0]!.children = name;
  if (lists) b.linkLists = lists;
  return { file: `brands/${id}.json`, text: JSON.stringify(b, null, 2) };
}

describe('shared parts', () => {
  it('show their links in each brand that names them, as if the brand had written them', () => {
    const catalog = buildCatalog([brand('acme', 'legal'), brand('other', 'legal')], [legal]);
    expect(catalog.problems).toEqual([]);
    for (const id of ['acme', 'other']) {
      const loaded = catalog.brands.get(id)!.brand;
      expect(loaded.footer.columns[0]!.links).toEqual(LEGAL);
      expect(loaded.nav.items[0]!.children).toEqual(LEGAL);
    }
  });

  it('refuse a name that is neither a list of the brand nor a shared part, naming both kinds it could be', () => {
    const catalog = buildCatalog([brand('acme', 'legl')], [legal]);
    expect(catalog.brands.has('acme')).toBe(false);
    expect(catalog.problems).toEqual([
      expect.stringMatching(
        /^brands\/acme\.json:\d+:\d+ \/nav\/items\/0\/children: there is no link list "legl" in this brand's "linkLists" \(it has none\) nor a shared one in brands\/parts\/ \(there are: legal\)$/,
      ),
      expect.stringMatching(/^brands\/acme\.json:\d+:\d+ \/footer\/columns\/0\/links: there is no link list "legl"/),
    ]);
  });

  it("report a shared link to a page the brand does not have at the brand's reference", () => {
    const away = part({ description: 'Links to a page the test brand lacks.', links: [{ label: 'Gone', href: '/nowhere' }] }, 'away');
    const problems = buildCatalog([brand('acme', 'away')], [away]).problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatch(/^brands\/acme\.json:\d+:\d+ \/(nav\/items\/0\/children|footer\/columns\/0\/links): .*"\/nowhere"/);
  });

  it('refuse a brand list with the name of a shared part, which would hide it', () => {
    const problems = buildCatalog([brand('acme', 'legal', { legal: LEGAL })], [legal]).problems;
    expect(problems).toEqual([
      expect.stringMatching(
        /^brands\/acme\.json:\d+:\d+ \/linkLists\/legal: the link list "legal" has the name of the shared part brands\/parts\/legal\.json, which it would hide for this brand; rename it, or delete it and use the shared one$/,
      ),
    ]);
  });

  it.each([
    ['without a description', { links: LEGAL }, /^brands\/parts\/legal\.json:\d+:\d+ \/: missing required property "description"$/],
    [
      'with a link that is not a path',
      { description: 'The Legal footer column.', links: [{ label: 'Terms', href: 'terms' }] },
      /^brands\/parts\/legal\.json:\d+:\d+ \/links\/0\/href: "terms" is not valid: expected a path of this brand such as \/payday-loans, or an https:\/\/ address$/,
    ],
  ])('refuse a part file %s, and the brands that name it', (_, value, message) => {
    const catalog = buildCatalog([brand('acme', 'legal')], [part(value)]);
    expect(catalog.problems[0]).toMatch(message);
    expect(catalog.brands.has('acme')).toBe(false);
  });

  // a block part may be named only by shared layouts ({ "part": "<name>" }), so they are read too
  it('are every file of brands/parts/, each named by at least one brand or shared layout', () => {
    const jsonIn = (dir: string) =>
      readdirSync(join(process.cwd(), dir))
        .filter((f) => f.endsWith('.json'))
        .map((f) => readFileSync(join(process.cwd(), dir, f), 'utf8'));
    const brands = jsonIn('brands');
    expect(brands.length).toBeGreaterThanOrEqual(12);
    const texts = [...brands, ...jsonIn('brands/layouts')];
    for (const file of readdirSync(join(process.cwd(), 'brands/parts'))) {
      const name = file.replace(/\.json$/, '');
      expect(
        texts.some((t) => t.includes(`: "${name}"`)),
        `${file} is named by no brand or shared layout`,
      ).toBe(true);
    }
  });
});
