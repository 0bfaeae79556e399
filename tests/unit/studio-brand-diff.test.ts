/** The history page's diff: labelled field changes a person reads, routes matched by their path. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Brand, Route } from '../../schemas/brand.types';
import { diffBrands, fieldPlaceOf } from '../../engine/browser/studio/brandDiff';

const brand = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand;
const copy = () => structuredClone(brand);

describe('the diff between two brand versions', () => {
  it('is empty for the same document', () => {
    expect(diffBrands(brand, copy())).toEqual([]);
  });

  it('names a changed headline by its place, with both texts', () => {
    const b = copy();
    const hero = b.layouts!.home!.blocks[0] as { heading: string };
    const old = hero.heading;
    hero.heading = 'Cash when you need it';
    expect(diffBrands(brand, b)).toEqual([
      {
        kind: 'changed',
        pointer: '/layouts/home/blocks/0/heading',
        label: 'Layouts › Home › Blocks › 1. Cash when you need it › Heading',
        before: old,
        after: 'Cash when you need it',
      },
    ]);
  });

  it("names a problem's field by its place, in the diff's words, for the editor's list of problems", () => {
    const b = copy();
    (b.layouts!.home!.blocks[0] as { heading: string }).heading = '';
    // an emptied heading: the block is named by its type, not by the text that is gone
    expect(fieldPlaceOf(b, '/layouts/home/blocks/0/heading')).toBe('Layouts › Home › Blocks › 1. Hero block › Heading');
    expect(fieldPlaceOf(b, `/routes/${b.routes.findIndex((r) => 'path' in r && r.path === '/')}/layout`)).toBe('Routes › / › Layout');
    expect(fieldPlaceOf(b, '/name')).toBe('Name');
    expect(fieldPlaceOf(b, '')).toBe('The brand');
  });

  it('a route added at the top is one added route, not every route changed', () => {
    const b = copy();
    b.routes.unshift({ path: '/new-page', layout: 'about-us' });
    const changes = diffBrands(brand, b);
    expect(changes.filter((c) => c.kind !== 'changed' || !c.label.endsWith('(order)'))).toEqual([
      { kind: 'added', pointer: '/routes/0', label: 'Routes › /new-page', before: '', after: 'Path: /new-page; Layout: about-us' },
    ]);
  });

  it('a changed colour and host list read as words, not JSON', () => {
    const b = copy();
    b.config.theme = '#123456';
    b.hosts = [...b.hosts, 'example.org'];
    const changes = diffBrands(brand, b);
    expect(changes).toContainEqual({ kind: 'changed', pointer: '/config/theme', label: 'Config › Brand colour', before: brand.config.theme, after: '#123456' });
    expect(changes).toContainEqual({
      kind: 'changed',
      pointer: '/hosts',
      label: 'Host names',
      before: brand.hosts.join(', '),
      after: [...brand.hosts, 'example.org'].join(', '),
    });
  });

  it('a removed route and a reorder are both said', () => {
    const b = copy();
    const [removed] = b.routes.splice(2, 1);
    const changes = diffBrands(brand, b);
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'removed', label: `Routes › ${(removed as Route).path}` }));
    const c = copy();
    c.routes.splice(2, 2, c.routes[3]!, c.routes[2]!);
    expect(diffBrands(brand, c)).toEqual([expect.objectContaining({ kind: 'changed', label: 'Routes (order)' })]);
  });
});
