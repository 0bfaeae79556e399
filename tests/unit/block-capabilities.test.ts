/**
 * What the engine knows about each block type comes from its spec (engine/blockSpecs): which
 * blocks have each capability, and what a page with such a block does because of it (the CSP of a
 * third-party form: csp.test.ts; the privacy-choice page: privacy.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { BlockType } from '../../schemas/brand.types';
import { BLOCK_SPECS } from '../../engine/blockSpecs';
import type { BlockSpec } from '../../engine/blockSpecs/types';
import { getCatalog } from '../../engine/site/catalog';
import { formTracePublicKey } from '../../engine/keys/formTraceKeys';
import { pageUsesGeolocation } from '../../engine/site/geolocation';
import { buildPageModel } from '../../engine/site/pageModel';
import { resolvePage } from '../../engine/site/resolve';

type Capability = Exclude<keyof BlockSpec<BlockType>, 'data' | 'props' | 'check'>;

/** Every capability (a new one fails `tsc` until it has a row) and the block types that declare it. */
const HOLDERS: Record<Capability, BlockType[]> = {
  applyWidget: ['getYourCash', 'quickAmount', 'rangeSlider'],
  content: ['contentBody', 'contentList'],
  isApplication: ['applyForm'],
  noApply: ['contactOptOut'],
  usesGeocoder: ['addressAutocomplete', 'locationSearch'],
  isPlaceSearch: ['locationSearch'],
  asksGeolocation: ['locationSearch'],
  thirdPartyOrigins: ['applyForm'],
  offersPrivacyChoices: ['privacyChoice'],
  faqItems: ['faq'],
  article: ['contentBody'],
  pageHeading: ['hero'],
  searchTarget: ['searchForm'],
};

describe('block capabilities', () => {
  it.each(Object.entries(HOLDERS))('%s is declared by exactly these block types', (capability, types) => {
    const holders = Object.entries(BLOCK_SPECS)
      .filter(([, spec]) => capability in spec)
      .map(([type]) => type);
    expect(holders.sort()).toEqual([...types].sort());
  });

  const catalog = getCatalog();
  const layouts = [...catalog.brands.values()].flatMap((loaded) =>
    loaded.brand.routes.map((r) => ({ loaded, route: r, layout: loaded.layout(r.layout, r.layoutParams) })),
  );

  it('a place search asks for the visitor position unless its layout turns it off; an address field never does', () => {
    expect(pageUsesGeolocation({ blocks: [{ type: 'locationSearch' }] })).toBe(true);
    expect(pageUsesGeolocation({ blocks: [{ type: 'locationSearch', geolocation: false }] })).toBe(false);
    expect(pageUsesGeolocation({ blocks: [{ type: 'addressAutocomplete' }] })).toBe(false);
  });

  it('a page whose form captures the trace gives that form the server key, and shows no other apply button', async () => {
    const found = layouts.find(({ layout, route }) => !route.path.includes('{') && layout?.blocks.some((b) => b.type === 'applyForm' && b.traceCapture));
    expect(found, 'a brand page whose form captures the trace').toBeDefined();
    const model = await buildPageModel(catalog, found!.loaded.brand.id, found!.route.path);
    expect(model).not.toBe('notFound');
    if (model === 'notFound') return;
    const form = model.blocks.find((b) => b.type === 'applyForm');
    expect(form?.type === 'applyForm' && form.data.traceKey).toBe(formTracePublicKey());
    expect(model.noApply).toBe(true);
  });

  it("a page's FAQ block is given to search engines as FAQPage JSON-LD", () => {
    const found = layouts.find(({ layout, route }) => !route.path.includes('{') && layout?.blocks.some((b) => b.type === 'faq'));
    expect(found, 'a brand page with a FAQ block').toBeDefined();
    const page = resolvePage(catalog, found!.loaded.brand.id, found!.route.path)!;
    const faq = page.blocks.find((b) => b.type === 'faq');
    const ld = page.jsonLd.find((j) => j['@type'] === 'FAQPage') as { mainEntity: { name: string }[] } | undefined;
    expect(ld?.mainEntity.map((q) => q.name)).toEqual(faq?.type === 'faq' ? faq.items.map((i) => i.question) : []);
  });
});
