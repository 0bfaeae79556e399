/**
 * The process's catalog with published revisions: built once per set of revisions (the same
 * object for every request until the set changes), the changed brand named to the listeners (who
 * drop its cached pages), and every other brand's LoadedBrand kept as it was.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import { getCatalog, onCatalogChange, setBrandRevisionSource, type BrandRevisionSource } from '../../engine/site/catalog';

const doc = (about: string): Brand => {
  const b = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand;
  b.footer.about = about;
  return b;
};
const revisionSet = (about: string, version: number) =>
  new Map<string, BrandRevisionSource>([
    ['ipaydayloans', { key: 'ipaydayloans', version, document: doc(about), savedAt: `2026-11-0${version}T00:00:00.000Z` }],
  ]);

afterEach(() => setBrandRevisionSource(undefined));

describe('the catalog over published revisions', () => {
  it('is rebuilt once per set of revisions, names the changed brand, and keeps the others as they were', () => {
    const files = getCatalog();
    let current: ReadonlyMap<string, BrandRevisionSource> = new Map();
    setBrandRevisionSource(() => current);
    expect(getCatalog()).toBe(files);

    const changes: string[][] = [];
    const stop = onCatalogChange((_c, changed) => changes.push([...changed]));
    current = revisionSet('Published once.', 1);
    const first = getCatalog();
    expect(first).not.toBe(files);
    expect(first.brands.get('ipaydayloans')!.brand.footer.about).toBe('Published once.');
    // asked again (each request does): the same catalog, no rebuild
    expect(getCatalog()).toBe(first);
    expect(getCatalog()).toBe(first);
    expect(first.brands.get('cocoloan')).toBe(files.brands.get('cocoloan'));

    current = revisionSet('Published twice.', 2);
    const second = getCatalog();
    expect(second.brands.get('ipaydayloans')!.brand.footer.about).toBe('Published twice.');
    expect(second.brands.get('cocoloan')).toBe(files.brands.get('cocoloan'));
    expect(changes).toEqual([['ipaydayloans'], ['ipaydayloans']]);
    stop();
  });
});
