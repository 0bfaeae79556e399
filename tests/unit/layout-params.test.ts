/**
 * Layout parameters: one shared layout, several routes whose pages differ in a few strings;
 * each route's pages read its own text, and a route that gives a parameter its layout does not
 * write (or misses one it does) is refused with the place and the reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../engine/site/catalog';
import { layoutParamNames, withLayoutParams } from '../../engine/site/layoutParams';
import { resolvePage } from '../../engine/site/resolve';
import type { Layout } from '../../schemas/brand.types';

const FILE = 'brands/acme.json';
const base = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
const NOW = new Date('2026-06-15T12:00:00Z');

const shared = {
  file: 'brands/layouts/guide.json',
  text: JSON.stringify({
    title: '{param.topic} in {brand.name}',
    description: 'What to know about {param.topic} before you send a request.',
    blocks: [
      { type: 'hero', heading: '{param.topic}: the basics', text: 'Read this first.' },
      { type: 'linkGrid', heading: 'More', links: [{ label: '{param.topic} by state', href: '/{param.home}' }] },
    ],
  }),
};

const withRoutes = (routes: string) => base.replace('{ "path": "/do-not-sell-or-share"', `${routes},\n    { "path": "/do-not-sell-or-share"`);

describe('layoutParamNames and withLayoutParams', () => {
  const layout: Layout = {
    title: '{param.a} for {state.name}',
    description: 'About {param.b} and {param.a}, {brand.name}.',
    blocks: [{ type: 'hero', heading: '{param.c}' }],
  };
  it.each([
    ['the names a layout writes, sorted, page placeholders aside', () => layoutParamNames(layout), ['a', 'b', 'c']],
    [
      'values put in place; page placeholders in a value stay for the page to fill',
      () => withLayoutParams(layout, { a: 'Bad Credit {loanType.name}', b: 'B', c: 'C' }),
      {
        title: 'Bad Credit {loanType.name} for {state.name}',
        description: 'About B and Bad Credit {loanType.name}, {brand.name}.',
        blocks: [{ type: 'hero', heading: 'C' }],
      },
    ],
    ['no parameters: the same layout', () => withLayoutParams(layout, undefined) === layout, true],
  ])('%s', (_, run, expected) => expect(run()).toEqual(expected));
});

describe('a shared layout with parameters', () => {
  it("shows each route's own text on its pages", () => {
    const text = withRoutes(
      '{ "path": "/guide", "layout": "guide", "layoutParams": { "topic": "Payday loans", "home": "" } },\n    { "path": "/apply-guide", "layout": "guide", "layoutParams": { "topic": "Applying", "home": "apply" } }',
    );
    const catalog = buildCatalog([{ file: FILE, text }], [shared]);
    expect(catalog.problems).toEqual([]);
    const guide = resolvePage(catalog, 'acme', '/guide', NOW)!;
    const apply = resolvePage(catalog, 'acme', '/apply-guide', NOW)!;
    expect([guide.title, guide.description]).toEqual(['Payday loans in Acme Loans | Acme Loans', 'What to know about Payday loans before you send a request.']);
    expect(guide.blocks[0]).toMatchObject({ type: 'hero', heading: 'Payday loans: the basics' });
    expect(guide.blocks[1]).toMatchObject({ links: [{ label: 'Payday loans by state', href: '/' }] });
    expect(apply.blocks[0]).toMatchObject({ heading: 'Applying: the basics' });
    expect(apply.blocks[1]).toMatchObject({ links: [{ label: 'Applying by state', href: '/apply' }] });
  });

  it('refuses a route that misses a parameter or gives one the layout does not write', () => {
    const text = withRoutes('{ "path": "/guide", "layout": "guide", "layoutParams": { "topic": "Payday loans", "hme": "" } }');
    const problems = buildCatalog([{ file: FILE, text }], [shared]).problems;
    expect(problems.map((p) => p.replace(/^\S+ /, ''))).toEqual(
      expect.arrayContaining([
        '/routes/5: layout "guide" writes {param.home}: give its text in this route\'s "layoutParams"',
        '/routes/5/layoutParams/hme: layout "guide" has no {param.hme}, so this value shows nowhere (it writes: {param.home}, {param.topic}); remove it',
      ]),
    );
  });

  it('checks the links of each filled layout against the routes that use it', () => {
    const text = withRoutes('{ "path": "/guide", "layout": "guide", "layoutParams": { "topic": "Payday loans", "home": "nowhere" } }');
    const problems = buildCatalog([{ file: FILE, text }], [shared]).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^brands\/layouts\/guide\.json\S* \/blocks\/1\/links\/0\/href: link "\/nowhere" goes to no page of brand "acme"/);
  });
});
