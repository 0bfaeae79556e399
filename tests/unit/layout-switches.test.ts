/**
 * Layout switches: one shared layout serves pages that differ in whether a block is there at
 * all. A block (or a block part named in the layout) says "when": "<switch>" and shows only on
 * the pages of routes whose "layoutParams" give that switch as true; every other page is as if
 * the layout had never written it. A switch given wrongly is refused with the place and reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../engine/site/catalog';
import { consoleHostsOf, decide, permissionsPolicy } from '../../engine/frontDoor/frontDoor';
import { layoutSwitchNames, withLayoutParams } from '../../engine/site/layoutParams';
import { privacyChoicePath } from '../../engine/site/privacyChoicePage';
import { resolvePage } from '../../engine/site/resolve';
import type { Brand, Layout } from '../../schemas/brand.types';

const FILE = 'brands/acme.json';
const base = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
const NOW = new Date('2026-06-15T12:00:00Z');

const hero = { type: 'hero', heading: '{param.topic}', text: 'Read this first.' } as const;
const more = { type: 'linkGrid', heading: 'Keep reading', links: [{ label: 'Home', href: '/' }] } as const;
const faq = { type: 'faq', heading: 'Questions', items: [{ question: 'Is it free?', answer: 'Yes, it is free.' }] } as const;

const layoutFile = (blocks: unknown[], name = 'guide') => ({
  file: `brands/layouts/${name}.json`,
  text: JSON.stringify({ title: '{param.topic} guide', description: 'What to know before you send a request.', blocks }),
});
const part = (name: string, blocks: unknown[]) => ({
  file: `brands/parts/${name}.json`,
  text: JSON.stringify({ description: 'Blocks several guides show.', blocks }),
});
const withRoutes = (routes: string) => base.replace('{ "path": "/do-not-sell-or-share"', `${routes},\n    { "path": "/do-not-sell-or-share"`);
const two = (first: string, second: string) =>
  withRoutes(
    `{ "path": "/guide", "layout": "guide", "layoutParams": ${first} },\n    { "path": "/other-guide", "layout": "guide", "layoutParams": ${second} }`,
  );
const headings = (catalog: ReturnType<typeof buildCatalog>, path: string) =>
  resolvePage(catalog, 'acme', path, NOW)!.blocks.map((b) => (b as { heading?: string }).heading);

describe('withLayoutParams with switches', () => {
  const layout = { title: '{param.topic}', description: 'About {param.topic}.', blocks: [hero, { ...more, when: 'keepReading' }, faq] } as unknown as Layout;
  it.each([
    ['a switch given as true shows its block, without "when"', { topic: 'T', keepReading: true }, [hero.type, 'linkGrid', 'faq'], false],
    ['a switch given as false leaves its block out', { topic: 'T', keepReading: false }, ['hero', 'faq'], false],
    ['a switch left out is off', { topic: 'T' }, ['hero', 'faq'], false],
    ['no parameters at all: switched blocks are left out too', undefined, ['hero', 'faq'], false],
  ])('%s', (_, params, types, hasWhen) => {
    const made = withLayoutParams(layout, params);
    expect(made.blocks.map((b) => b.type)).toEqual(types);
    expect(made.blocks.some((b) => 'when' in b)).toBe(hasWhen);
  });
  it('text parameters are put in alongside the switches', () => {
    expect(withLayoutParams(layout, { topic: 'Payday', keepReading: true }).blocks[0]).toEqual({ ...hero, heading: 'Payday' });
  });
  it('lists the switch names a layout uses', () => expect(layoutSwitchNames(layout)).toEqual(['keepReading']));
});

describe('a shared layout with a switched block', () => {
  it('shows the block on the pages of the route that switches it on, and only there', () => {
    const catalog = buildCatalog(
      [{ file: FILE, text: two('{ "topic": "Payday", "keepReading": true }', '{ "topic": "Title" }') }],
      [layoutFile([hero, { ...more, when: 'keepReading' }, faq])],
    );
    expect(catalog.problems).toEqual([]);
    expect(headings(catalog, '/guide')).toEqual(['Payday', 'Keep reading', 'Questions']);
    expect(headings(catalog, '/other-guide')).toEqual(['Title', 'Questions']);
  });

  it('switches every block of a block part named with "when"', () => {
    const catalog = buildCatalog(
      [{ file: FILE, text: two('{ "topic": "Payday", "extras": true }', '{ "topic": "Title" }') }],
      [layoutFile([hero, { part: 'guide-extras', when: 'extras' }]), part('guide-extras', [more, faq])],
    );
    expect(catalog.problems).toEqual([]);
    expect(headings(catalog, '/guide')).toEqual(['Payday', 'Keep reading', 'Questions']);
    expect(headings(catalog, '/other-guide')).toEqual(['Title']);
  });

  it('does not hold a loan-type filter against routes that leave its block out', () => {
    const filtered = { ...more, when: 'keepReading', loanTypes: ['title-loans'] };
    const catalog = buildCatalog([{ file: FILE, text: two('{ "topic": "Payday" }', '{ "topic": "Title" }') }], [layoutFile([hero, filtered, faq])]);
    expect(catalog.problems).toEqual([]);
  });

  it('needs the text of the blocks a route shows only', () => {
    const titled = { ...more, heading: '{param.moreHeading}', when: 'keepReading' };
    const catalog = buildCatalog(
      [{ file: FILE, text: two('{ "topic": "Payday", "keepReading": true, "moreHeading": "More" }', '{ "topic": "Title" }') }],
      [layoutFile([hero, titled, faq])],
    );
    expect(catalog.problems).toEqual([]);
    expect(headings(catalog, '/guide')).toEqual(['Payday', 'More', 'Questions']);
  });

  it('reports a problem in a block after a left-out one at the block as the layout wrote it', () => {
    const broken = { ...faq, heading: 'Questions about {nothing}' };
    const problems = buildCatalog(
      [{ file: FILE, text: two('{ "topic": "Payday" }', '{ "topic": "Title" }') }],
      [layoutFile([hero, { ...more, when: 'keepReading' }, broken])],
    ).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^brands\/layouts\/guide\.json\S* \/blocks\/2\/heading: unknown placeholder \{nothing\}/);
  });
});

describe('what a page asks of the browser follows its own switches', () => {
  it('a privacy-choice block counts only on the route that switches it on', () => {
    const layout = { title: 'T', description: 'D', blocks: [hero, { type: 'privacyChoice', heading: 'Your choices', when: 'choices' }] } as unknown as Layout;
    const routes: Brand['routes'] = [
      { path: '/about', layout: 'page' },
      { path: '/choices', layout: 'page', layoutParams: { choices: true } },
    ];
    expect(privacyChoicePath({ routes }, (_, params) => withLayoutParams(layout, params))).toBe('/choices');
  });

  it('"Use my location" allows geolocation only on the pages of the route that switches its search on', () => {
    const search = { type: 'locationSearch', heading: 'Find your state', when: 'search' };
    const catalog = buildCatalog(
      [{ file: FILE, text: two('{ "topic": "Payday", "search": true }', '{ "topic": "Title" }') }],
      [layoutFile([hero, search, faq])],
    );
    expect(catalog.problems).toEqual([]);
    const door = { catalog, previewModeId: 'p'.repeat(32), consoleHosts: consoleHostsOf({}), trustForwardedHost: false, production: true, env: {} };
    const policyOf = (target: string) => permissionsPolicy(decide({ method: 'GET', target, host: 'acme.localhost' }, door));
    expect(policyOf('/guide')).toMatch(/^geolocation=\(self\)/);
    expect(policyOf('/other-guide')).toMatch(/^geolocation=\(\)/);
  });
});

describe('a switch given or written wrongly is refused at its place', () => {
  const switched = layoutFile([hero, { ...more, when: 'keepReading' }, faq]);
  const problemsOf = (routeParams: string, shared: { file: string; text: string }[] = [switched]) =>
    buildCatalog([{ file: FILE, text: withRoutes(`{ "path": "/guide", "layout": "guide", "layoutParams": ${routeParams} }`) }], shared).problems.map((p) =>
      p.replace(/:\d+:\d+ /, ' '),
    );
  it.each([
    [
      'a switch given as text',
      '{ "topic": "T", "keepReading": "yes" }',
      [switched],
      'brands/acme.json /routes/5/layoutParams/keepReading: "keepReading" is a switch of layout "guide" ("when": "keepReading" shows a block on some pages): give true to show it, or leave it out, not text',
    ],
    [
      'a text parameter given as true',
      '{ "topic": true }',
      [switched],
      'brands/acme.json /routes/5/layoutParams/topic: "topic" is text in layout "guide" ({param.topic}): give the text to show, not true',
    ],
    [
      'a name the layout neither writes nor switches on',
      '{ "topic": "T", "keepReadng": true }',
      [switched],
      'brands/acme.json /routes/5/layoutParams/keepReadng: layout "guide" has no {param.keepReadng}, so this value shows nowhere (it writes: {param.topic}; its switches: "keepReading"); remove it',
    ],
    [
      'text given for a block the route switches off',
      '{ "topic": "T", "moreHeading": "More" }',
      [layoutFile([hero, { ...more, heading: '{param.moreHeading}', when: 'keepReading' }])],
      'brands/acme.json /routes/5/layoutParams/moreHeading: layout "guide" writes {param.moreHeading} only in blocks this route switches off ("when": "keepReading"), so this value shows nowhere; remove it',
    ],
    [
      'a switch named like a text parameter',
      '{ "topic": "T" }',
      [layoutFile([hero, { ...more, when: 'topic' }])],
      'brands/layouts/guide.json /blocks/1/when: "topic" is already a text parameter of this layout ({param.topic}): give the switch another name',
    ],
    [
      'a switched hero',
      '{ "topic": "T", "intro": true }',
      [layoutFile([{ ...hero, when: 'intro' }, faq])],
      'brands/layouts/guide.json /blocks/0/when: a hero holds the page\'s one <h1> heading, so every page of the layout shows it: remove "when" (to show another heading on some pages, use a layout parameter)',
    ],
    [
      'a switch inside a part file',
      '{ "topic": "T" }',
      [layoutFile([hero, { part: 'guide-extras' }]), part('guide-extras', [{ ...more, when: 'keepReading' }])],
      'brands/parts/guide-extras.json /blocks/0/when: a part\'s blocks show wherever it is named, so they cannot say "when": remove it here and switch the part where a layout names it ({ "part": "guide-extras", "when": "keepReading" })',
    ],
    [
      'a switch name that is not a name',
      '{ "topic": "T" }',
      [layoutFile([hero, { ...more, when: 'keep reading' }])],
      expect.stringMatching(/^brands\/layouts\/guide\.json \/blocks\/1\/when: .*a switch name of letters and digits/),
    ],
  ])('%s', (_, params, shared, expected) => expect(problemsOf(params, shared)).toContainEqual(expected));

  it('a switch on a route part, which a brand always lists whole', () => {
    const text = base.replace('{ "path": "/do-not-sell-or-share"', '{ "part": "extra-routes", "when": "x" },\n    { "path": "/do-not-sell-or-share"');
    const problems = buildCatalog([{ file: FILE, text }], []).problems.map((p) => p.replace(/:\d+:\d+ /, ' '));
    expect(problems).toContainEqual(expect.stringMatching(/^brands\/acme\.json \/routes\/5\/when: unknown property "when" \(allowed: part\)/));
  });
});
