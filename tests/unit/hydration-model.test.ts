/**
 * What a first load sends the browser (blocks/hydrationModel.ts, written into __NEXT_DATA__ by
 * pages/_document.tsx): only what the live parts hydrate — no nav, footer lists, lending texts,
 * JSON-LD or static block data.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { resolvePage } from '../../engine/site/resolve';
import { hydrationModel, isKeptBlock } from '../../blocks/hydrationModel';
import { storeLinks } from '../../blocks/parts/storeLinks';
import { registry } from '../../blocks/registry';
import { keptOnFirstLoad } from '../../blocks/lazyBlock';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts);
const now = new Date('2026-03-01T12:00:00Z');
const INTERACTIVE = ['addressAutocomplete', 'applyForm', 'contactOptOut', 'getYourCash', 'locationSearch', 'privacyChoice', 'quickAmount', 'rangeSlider'];

describe('hydrationModel', () => {
  it('marks exactly the blocks without interactive code as kept', () => {
    const kept = Object.entries(registry)
      .filter(([, c]) => keptOnFirstLoad(c))
      .map(([t]) => t);
    expect(kept.filter((t) => INTERACTIVE.includes(t))).toEqual([]);
    expect(kept.length + INTERACTIVE.length).toBe(Object.keys(registry).length);
  });

  for (const [brand, path] of [
    ['ipaydayloans', '/'],
    ['ipaydayloans', '/payday-loans'],
    ['ipaydayloans', '/location/ca'],
    ['usbadcreditloans', '/'],
    ['ustitleloans', '/apply-title-loans'],
  ] as const) {
    it(`${brand}${path}: the brand's live fields and the interactive blocks' data only`, () => {
      const full = resolvePage(catalog, brand, path, now)!;
      const slim = hydrationModel(full);
      expect(slim.kept).toBe(true);
      for (const field of ['nav', 'footer', 'lending', 'search', 'privacyChoice']) expect(slim.brand).not.toHaveProperty(field);
      expect(slim.brand).toMatchObject({ id: full.brand.id, theme: full.brand.theme, apply: full.brand.apply });
      expect(slim.jsonLd).toEqual([]);
      expect(slim.blocks.map((b) => [b.type, b.key])).toEqual(full.blocks.map((b) => [b.type, b.key]));
      for (const [i, b] of slim.blocks.entries()) {
        if (INTERACTIVE.includes(b.type)) expect(b).toEqual(full.blocks[i]);
        else expect(isKeptBlock(b) && Object.keys(b).sort()).toEqual(['kept', 'key', 'type']);
      }
      // The payday popup's store links travel as their pattern, and come back the same.
      const popup = slim.brand.exitPopup;
      if (full.brand.exitPopup?.stores) {
        expect(popup).not.toHaveProperty('stores');
        expect(storeLinks(popup!.storeHref!)).toEqual(full.brand.exitPopup.stores);
      } else expect(popup).toEqual(full.brand.exitPopup);
      // The full model is left as it was: it is also the data of client-side navigations.
      expect(full.brand.footer).toBeDefined();
      // (The application form's own data — consent text, the states it cannot serve — is most of an apply page's.)
      expect(JSON.stringify(slim).length).toBeLessThan(JSON.stringify(full).length / (path.startsWith('/apply') ? 2 : 3));
    });
  }
});
