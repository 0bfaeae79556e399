/**
 * What a brand file writes once: named link lists ("linkLists", given by name in a menu, a
 * footer column or a linkGrid block) and content sections ("contentSections": the blog's, hub's
 * and answers' routes). The loaded brand reads as if the file had written everything out, and a
 * mistake is refused with the place in the file and the reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultApply } from '../../engine/site/brandExpand';
import { buildCatalog } from '../../engine/site/catalog';
import { matchPath } from '../../engine/site/pageMatch';
import { resolvePage } from '../../engine/site/resolve';

const FILE = 'brands/acme.json';
const base = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
const NOW = new Date('2026-06-15T12:00:00Z');
const LOANS = [
  { label: 'Payday loans', href: '/payday-loans' },
  { label: 'Apply', href: '/apply' },
];

/** The fixture with its link places given by name and a "linkLists" of its own. */
function withLists(lists: Record<string, unknown>, names: { nav?: string; footer?: string; grid?: string } = {}) {
  const brand = JSON.parse(base) as {
    linkLists?: unknown;
    nav: { items: { children?: unknown }[] };
    footer: { columns: { links: unknown }[] };
    layouts: { home: { blocks: unknown[] } };
  };
  brand.linkLists = lists;
  if (names.nav) brand.nav.items[0]!.children = names.nav;
  if (names.footer) brand.footer.columns[0]!.links = names.footer;
  if (names.grid) brand.layouts.home.blocks.push({ type: 'linkGrid', heading: 'Our loans', links: names.grid });
  return JSON.stringify(brand, null, 2);
}

const contentLayouts = ['content-blog-index', 'content-blog-list', 'content-article', 'content-tags', 'content-tag', 'content-authors', 'content-author'].map(
  (name) => ({ file: `brands/layouts/${name}.json`, text: readFileSync(join(process.cwd(), 'brands/layouts', `${name}.json`), 'utf8') }),
);

describe('named link lists', () => {
  it('show their links in every menu, footer column and link grid that names them', () => {
    const catalog = buildCatalog([{ file: FILE, text: withLists({ loans: LOANS }, { nav: 'loans', footer: 'loans', grid: 'loans' }) }], []);
    expect(catalog.problems).toEqual([]);
    const { brand } = catalog.brands.get('acme')!;
    expect(brand.nav.items[0]!.children).toEqual(LOANS);
    expect(brand.footer.columns[0]!.links).toEqual(LOANS);
    const home = resolvePage(catalog, 'acme', '/', NOW)!;
    expect(home.blocks.find((b) => b.type === 'linkGrid')).toMatchObject({ heading: 'Our loans', links: LOANS });
  });

  it.each([
    [
      'a name the brand has no list for, with the lists it has',
      withLists({ loans: LOANS }, { nav: 'loans', footer: 'lons' }),
      /^brands\/acme\.json:\d+:\d+ \/footer\/columns\/0\/links: there is no link list "lons" in this brand's "linkLists" \(it has: loans\) nor a shared one in brands\/parts\/ \(there are none\)$/,
    ],
    [
      'a list nothing names',
      withLists({ loans: LOANS, spare: LOANS }, { nav: 'loans' }),
      /^brands\/acme\.json:\d+:\d+ \/linkLists\/spare: no menu, footer column or linkGrid block names the link list "spare", so it shows nowhere/,
    ],
    [
      'a broken link in a list, once, where the list writes it (not at each place that names it)',
      withLists({ loans: [{ label: 'Nowhere', href: '/nowhere' }] }, { nav: 'loans', footer: 'loans' }),
      /^brands\/acme\.json:\d+:\d+ \/linkLists\/loans\/0\/href: .*"\/nowhere"/,
    ],
    [
      'a list name that is not a name',
      withLists({ loans: LOANS }, { nav: 'loans', footer: 'Loans!' }),
      /^brands\/acme\.json:\d+:\d+ \/footer\/columns\/0\/links: "Loans!" is not valid: expected the name of one of the brand's "linkLists" or of a shared part in brands\/parts\/, such as loans$/,
    ],
  ])('refuses %s', (_, text, message) => {
    const catalog = buildCatalog([{ file: FILE, text }], []);
    expect(catalog.brands.has('acme')).toBe(false);
    expect(catalog.problems).toHaveLength(1);
    expect(catalog.problems[0]).toMatch(message);
  });

  it('are refused in a shared layout, which belongs to no brand', () => {
    const shared = {
      file: 'brands/layouts/guide.json',
      text: JSON.stringify({
        title: 'A guide',
        description: 'A guide to short-term loans.',
        blocks: [
          { type: 'hero', heading: 'Guide' },
          { type: 'linkGrid', heading: 'More', links: 'loans' },
        ],
      }),
    };
    expect(buildCatalog([], [shared]).problems).toEqual([
      'brands/layouts/guide.json:1:145 /blocks/1/links: a shared layout belongs to no brand, so it cannot name a link list ("loans"): write the links here',
    ]);
  });
});

describe('a spelt-out brand', () => {
  it('is itself a brand file that loads the same', () => {
    const text = withLists({ loans: LOANS }, { nav: 'loans', footer: 'loans' }).replace('"routes": [', '"contentSections": ["blog"],\n  "routes": [');
    const once = buildCatalog([{ file: FILE, text }], contentLayouts).brands.get('acme')!.brand;
    const again = buildCatalog([{ file: FILE, text: JSON.stringify(once) }], contentLayouts);
    expect(again.problems).toEqual([]);
    expect(again.brands.get('acme')!.brand).toEqual(once);
  });
});

describe('content sections', () => {
  const withSections = (sections: string[], extraRoute = '') =>
    base.replace('"routes": [', `"contentSections": ${JSON.stringify(sections)},\n  "routes": [${extraRoute}`);

  it("add the section's routes after the brand's own, and its pages answer", () => {
    const catalog = buildCatalog([{ file: FILE, text: withSections(['blog']) }], contentLayouts);
    expect(catalog.problems).toEqual([]);
    const loaded = catalog.brands.get('acme')!;
    expect(loaded.brand.routes.map((r) => r.path)).toEqual([
      '/',
      '/payday-loans',
      '/apply',
      '/location/{stateCode}',
      '/location/{stateCode}/{city}',
      '/do-not-sell-or-share',
      '/blog/{page?}',
      '/blog/{list}/{page?}',
      '/blog/{list}/{slug}',
      '/tag',
      '/tag/{slug}',
      '/author',
      '/author/{slug}',
    ]);
    expect(matchPath(loaded, '/tag')?.route.layout).toBe('content-tags');
  });

  it("keep a route the brand writes itself with one of their paths, at the brand's place", () => {
    const own = '\n    { "path": "/blog/{page?}", "layout": "content-blog-index" },';
    const catalog = buildCatalog([{ file: FILE, text: withSections(['blog'], own) }], contentLayouts);
    expect(catalog.problems).toEqual([]);
    const paths = catalog.brands.get('acme')!.brand.routes.map((r) => r.path);
    expect(paths.filter((p) => p === '/blog/{page?}')).toHaveLength(1);
    expect(paths.slice(0, 2)).toEqual(['/blog/{page?}', '/']);
  });

  it('report a problem with a section route at the section in the file', () => {
    const problems = buildCatalog([{ file: FILE, text: withSections(['blog']) }], []).problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatch(/^brands\/acme\.json:38:\d+ \/contentSections\/0: no layout named "content-/);
  });
});

describe('a link grid written once for every loan type of its layout', () => {
  const withGrid = (href: string) => {
    const brand = JSON.parse(base) as { routes: unknown[]; layouts: Record<string, unknown> };
    brand.routes.push({ path: '/{loanType}/location/{stateCode}', layout: 'type-state' });
    brand.layouts['type-state'] = {
      title: '{loanType.name} in {state.name}',
      description: 'What borrowers in {state.name} should know about {loanType.plural}.',
      blocks: [
        { type: 'hero', heading: '{loanType.name} in {state.name}' },
        { type: 'linkGrid', heading: 'Keep reading', links: [{ label: '{loanType.name} by state', href }] },
      ],
    };
    return JSON.stringify(brand, null, 2);
  };

  it("links each page to its own loan type's page", () => {
    const catalog = buildCatalog([{ file: FILE, text: withGrid('/{loanType.slug}/location/tx') }], []);
    expect(catalog.problems).toEqual([]);
    const grid = (path: string) => resolvePage(catalog, 'acme', path, NOW)!.blocks.find((b) => b.type === 'linkGrid');
    expect(grid('/payday-loans/location/il')).toMatchObject({ links: [{ label: 'Payday Loans by state', href: '/payday-loans/location/tx' }] });
    expect(grid('/installment-loans/location/il')).toMatchObject({ links: [{ label: 'Installment Loans by state', href: '/installment-loans/location/tx' }] });
  });

  it('refuses a link that gives no page for one of the loan types, saying which link it gave', () => {
    const problems = buildCatalog([{ file: FILE, text: withGrid('/{loanType.slug}') }], []).problems;
    expect(problems).toEqual([
      expect.stringMatching(/^brands\/acme\.json:\d+:\d+ \/layouts\/type-state\/blocks\/1\/links\/0\/href: link "\/installment-loans" goes to no page/),
    ]);
  });
});

describe('apply settings', () => {
  const without = (product: string) => {
    const brand = JSON.parse(base) as { apply?: unknown; product: string };
    delete brand.apply;
    brand.product = product;
    return JSON.stringify(brand, null, 2);
  };

  it.each([
    ['payday', { path: '/apply', amountParam: 'requested_amount' }],
    ['general', { path: '/apply', amountParam: 'requested_amount' }],
    ['title', { path: '/apply-title-loans', amountParam: 'requestedamount' }],
  ])('a %s brand that writes none applies on its product default', (product, apply) => {
    expect(defaultApply(product as Parameters<typeof defaultApply>[0])).toEqual(apply);
    if (product === 'title') return; // the fixture has no title-loan apply page
    const catalog = buildCatalog([{ file: FILE, text: without(product) }], []);
    expect(catalog.problems).toEqual([]);
    expect(catalog.brands.get('acme')!.brand.apply).toEqual(apply);
  });

  it("are the brand's own when it writes them", () => {
    const text = base.replace(
      '"apply": { "path": "/apply", "amountParam": "requested_amount" }',
      '"apply": { "path": "/apply", "amountParam": "requestedamount" }',
    );
    expect(buildCatalog([{ file: FILE, text }], []).brands.get('acme')!.brand.apply).toEqual({ path: '/apply', amountParam: 'requestedamount' });
  });
});
