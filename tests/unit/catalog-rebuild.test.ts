/**
 * A catalog built again (each publish does, on every instance) checks and compiles again only the
 * brands whose text changed, yet finds every problem a build from nothing would: a brand unchanged
 * since the last build is refused when a newer brand takes one of its hosts, and refused when the
 * shared layout it uses is gone; a draft checked alone leaves the served brands as they were built.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { buildCatalog, getCatalog, readSources, revisionText, type Source } from '../../engine/site/catalog';
import { checkBrandDocument } from '../../engine/site/brandOverlay';

/** ipaydayloans' document under another id and host, as the studio's "copy of a brand" makes it. */
function copy(id: string, hosts = [`${id}.example`]): Source {
  const b = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand & { blogHost?: string };
  Object.assign(b, { id, hosts });
  delete b.blogHost;
  return { file: `brands/${id}.json`, text: revisionText(b) };
}

const { layouts } = readSources();

describe('a catalog built again', () => {
  it('keeps a brand whose text did not change as it was built, even after a draft was checked alone', () => {
    // the process's own catalog is built before any publish, as in a server
    getCatalog();
    const a = copy('rebuilda');
    const b = copy('rebuildb');
    const first = buildCatalog([a, b], layouts, BLOCK_SPECS);
    expect([...first.brands.keys()]).toEqual(['rebuilda', 'rebuildb']);

    // the studio checks a draft on its own between two publishes
    const draft = copy('rebuilddraft');
    expect(checkBrandDocument('rebuilddraft', JSON.parse(draft.text), { catalog: first, layouts }).problems).toEqual([]);

    const changed = JSON.parse(b.text) as Brand;
    changed.footer.about = 'Published again.';
    const second = buildCatalog([a, { file: b.file, text: revisionText(changed) }], layouts, BLOCK_SPECS);
    expect(second.brands.get('rebuilda')).toBe(first.brands.get('rebuilda'));
    expect(second.brands.get('rebuildb')).not.toBe(first.brands.get('rebuildb'));
    expect(second.brands.get('rebuildb')!.brand.footer.about).toBe('Published again.');
    expect(second.problems).toEqual([]);
  });

  it('refuses an unchanged brand when a brand before it now claims one of its hosts', () => {
    const x = copy('hostsx');
    const y = copy('hostsy', ['hostsy.example', 'shared-host.example']);
    const first = buildCatalog([x, y], layouts, BLOCK_SPECS);
    expect(first.brands.has('hostsy')).toBe(true);

    const taker = copy('hostsa', ['shared-host.example']);
    const second = buildCatalog([taker, x, y], layouts, BLOCK_SPECS);
    expect(second.brands.has('hostsy')).toBe(false);
    expect(second.broken.get('hostsy')!.join('\n')).toContain(
      'host "shared-host.example" is also claimed by brands/hostsa.json; a host can belong to one brand only',
    );
    expect(second.brands.get('hostsx')).toBe(first.brands.get('hostsx'));
    expect(second.hostMap.get('shared-host.example')).toBe('hostsa');
  });

  it('refuses an unchanged brand whose shared layout is no longer there', () => {
    const p = copy('layoutp');
    const q = copy('layoutq');
    const first = buildCatalog([p, q], layouts, BLOCK_SPECS);
    expect(first.brands.size).toBe(2);
    const used = (JSON.parse(p.text) as Brand).routes.map((r) => r.layout).find((name) => layouts.some((l) => l.file === `brands/layouts/${name}.json`));
    expect(used, 'ipaydayloans names a shared layout').toBeDefined();

    const fewer = layouts.filter((l) => l.file !== `brands/layouts/${used}.json`);
    const second = buildCatalog([p, q], fewer, BLOCK_SPECS);
    expect(second.brands.size).toBe(0);
    expect(second.broken.get('layoutp')!.join('\n')).toContain(`no layout named "${used}"`);
  });
});
