/**
 * Block and route parts: blocks several layouts show the same, or routes several brands list the
 * same, are written once in brands/parts/<name>.json ("blocks", "routes") and named in the list,
 * { "part": "<name>" }. A page (and the sitemap) reads exactly as if the file had written them
 * out; a name that is not a part of that kind, or a problem inside a part, is refused at the
 * reference with the reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type Source } from '../../engine/site/catalog';
import { resolvePage } from '../../engine/site/resolve';

const FILE = 'brands/acme.json';
const base = JSON.parse(readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8')) as {
  layouts: Record<string, { blocks: unknown[] }>;
  footer: { columns: { links: unknown }[] };
};
const NOW = new Date('2026-06-15T12:00:00Z');

const FAQ = {
  type: 'faq',
  heading: 'Common questions',
  items: [{ question: 'Is it free?', answer: 'Yes, {brand.name} charges you nothing.' }],
};
const STEPS = { type: 'richText', heading: 'Then', paragraphs: ['A lender answers.'] };
const part = (name: string, value: object): Source => ({ file: `brands/parts/${name}.json`, text: JSON.stringify(value, null, 2) });
const questions = part('questions', { description: 'A FAQ and what follows, for the tests.', blocks: [FAQ, STEPS] });
const legal = part('legal', { description: 'A link column, for the tests.', links: [{ label: 'Apply', href: '/apply' }] });

/** The fixture brand with its home layout's blocks after the hero replaced by `rest`, and its first footer column's links. */
function brand(rest: unknown[], footerLinks?: unknown): Source {
  const b = structuredClone(base);
  b.layouts.home!.blocks = [b.layouts.home!.blocks[0], ...rest];
  if (footerLinks !== undefined) b.footer.columns[0]!.links = footerLinks;
  return { file: FILE, text: JSON.stringify(b, null, 2) };
}
const sharedLayout = (blocks: unknown[]): Source => ({
  file: 'brands/layouts/questions-page.json',
  text: JSON.stringify({ title: 'Questions for {brand.name}', description: 'The questions borrowers ask before they send a request.', blocks }),
});
const HERO = { type: 'hero', heading: 'Questions', text: 'Read before you apply.' };
const withPage = (src: Source): Source => ({
  ...src,
  text: src.text.replace('"routes": [', '"routes": [\n    { "path": "/questions", "layout": "questions-page" },'),
});
const page = (sources: Source[], shared: Source[], path: string) => {
  const catalog = buildCatalog(sources, shared);
  expect(catalog.problems).toEqual([]);
  return resolvePage(catalog, 'acme', path, NOW);
};

describe('block parts', () => {
  it("put the part's blocks in a brand layout's page, as if the layout had written them", () => {
    const written = page([brand([FAQ, STEPS])], [], '/');
    const named = page([brand([{ part: 'questions' }])], [questions, legal], '/');
    expect(named).toEqual(written);
    expect(named?.blocks.map((b) => b.type)).toEqual(['hero', 'faq', 'richText']);
  });

  it("put the part's blocks in a shared layout's page, blocks written after the part included", () => {
    const after = { type: 'richText', heading: 'Last', paragraphs: ['The end.'] };
    const written = page([withPage(brand([STEPS]))], [sharedLayout([HERO, FAQ, STEPS, after])], '/questions');
    const named = page([withPage(brand([STEPS]))], [sharedLayout([HERO, { part: 'questions' }, after]), questions], '/questions');
    expect(named).toEqual(written);
  });

  it.each([
    [
      'a name that is no part',
      'qestions',
      /\/layouts\/home\/blocks\/1\/part: there is no shared part "qestions" in brands\/parts\/ \(parts with blocks: there are: questions\)$/,
    ],
    [
      'a part of links',
      'legal',
      /\/layouts\/home\/blocks\/1\/part: the shared part "legal" \(brands\/parts\/legal\.json\) holds links, not blocks: name it where links go \("links": "legal"\), or name a part that holds "blocks" here \(there are: questions\)$/,
    ],
  ])('refuse %s among the blocks, saying which parts there are', (_, name, message) => {
    const catalog = buildCatalog([brand([{ part: name }])], [questions, legal]);
    expect(catalog.brands.has('acme')).toBe(false);
    expect(catalog.problems).toEqual([expect.stringMatching(new RegExp(`^brands/acme\\.json:\\d+:\\d+ ${message.source}`))]);
  });

  it('refuse a part of blocks where links go', () => {
    const problems = buildCatalog([brand([STEPS], 'questions')], [questions, legal]).problems;
    expect(problems).toEqual([
      expect.stringMatching(
        /^brands\/acme\.json:\d+:\d+ \/footer\/columns\/0\/links: the shared part "questions" \(brands\/parts\/questions\.json\) holds blocks, not links: name it among a layout's blocks \(\{ "part": "questions" \}\), or give links or a link list here$/,
      ),
    ]);
  });

  it("report a problem inside a part's blocks at the layout's reference, and one after it at its own place", () => {
    const away = part('away', {
      description: 'A link to a page the test brand lacks.',
      blocks: [FAQ, { type: 'linkGrid', heading: 'More', links: [{ label: 'Gone', href: '/nowhere' }] }],
    });
    const problems = buildCatalog([brand([{ part: 'away' }, { type: 'richText', heading: 'After', paragraphs: ['{nope}'] }])], [away]).problems;
    expect(problems).toEqual([
      expect.stringMatching(/^brands\/acme\.json:\d+:\d+ \/layouts\/home\/blocks\/1: link "\/nowhere" goes to no page of this brand/),
      expect.stringMatching(/^brands\/acme\.json:\d+:\d+ \/layouts\/home\/blocks\/2\/paragraphs\/0: unknown placeholder \{nope\}/),
    ]);
  });

  it('report a problem after a part in a shared layout at its place in the layout file', () => {
    const layout = sharedLayout([HERO, { part: 'questions' }, { type: 'richText', heading: 'After', paragraphs: ['{nope}'] }]);
    const problems = buildCatalog([withPage(brand([STEPS]))], [layout, questions]).problems;
    expect(problems).toEqual([
      expect.stringMatching(/^brands\/layouts\/questions-page\.json:\d+:\d+ \/blocks\/2\/paragraphs\/0: unknown placeholder \{nope\}/),
    ]);
  });

  it.each([
    [
      'no links, blocks or routes',
      { description: 'Nothing in it at all.' },
      /\/: a part holds one of "links" .*, "blocks" .* and "routes" .*, and this has none$/,
    ],
    ['both links and blocks', { description: 'Too much in it.', links: [{ label: 'Apply', href: '/apply' }], blocks: [FAQ] }, /\/: .*, not more than one$/],
    [
      'a block naming a brand link list',
      { description: 'Links by a brand list name.', blocks: [{ type: 'linkGrid', heading: 'More', links: 'loans' }] },
      /\/blocks\/0\/links: a shared part belongs to no brand, so it cannot name a link list \("loans"\): write the links here$/,
    ],
  ])('refuse a part file with %s', (_, value, message) => {
    const problems = buildCatalog([brand([STEPS])], [part('odd', value)]).problems;
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^brands/parts/odd\\.json:\\d+:\\d+ ${message.source}`))]);
  });
});

describe('route parts', () => {
  const LEGAL_ROUTES = [
    { path: '/privacy', layout: 'home' },
    { path: '/terms', layout: 'home' },
  ];
  const legalPages = part('legal-pages', { description: 'Two legal pages, for the tests.', routes: LEGAL_ROUTES });
  /** The fixture brand with `entries` before its own routes. */
  const withRoutes = (entries: unknown[]): Source => {
    const b = JSON.parse(brand([STEPS]).text) as { routes: unknown[] };
    b.routes = [...entries, ...b.routes];
    return { file: FILE, text: JSON.stringify(b, null, 2) };
  };

  it("give the brand the part's routes in that place, as if it had listed them", () => {
    const written = buildCatalog([withRoutes(LEGAL_ROUTES)], []);
    const named = buildCatalog([withRoutes([{ part: 'legal-pages' }])], [legalPages]);
    expect(named.problems).toEqual([]);
    expect(named.brands.get('acme')!.brand.routes).toEqual(written.brands.get('acme')!.brand.routes);
    expect(resolvePage(named, 'acme', '/terms', NOW)).toEqual(resolvePage(written, 'acme', '/terms', NOW));
  });

  it('report a problem in a route after a part at its place in the file, and refuse a part of blocks among routes', () => {
    const problems = buildCatalog(
      [withRoutes([{ part: 'legal-pages' }, { path: '/gone', layout: 'nowhere' }, { part: 'questions' }])],
      [legalPages, questions],
    ).problems;
    expect(problems).toEqual([
      expect.stringMatching(
        /^brands\/acme\.json:\d+:\d+ \/routes\/2\/part: the shared part "questions" \(brands\/parts\/questions\.json\) holds blocks, not routes: name it among a layout's blocks, or name a part that holds "routes" here \(there are: legal-pages\)$/,
      ),
      expect.stringMatching(/^brands\/acme\.json:\d+:\d+ \/routes\/1\/layout: no layout named "nowhere"/),
    ]);
  });
});
