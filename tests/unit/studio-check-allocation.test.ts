/**
 * The studio checks and previews a draft by building it alone, beside the brands served. A draft
 * of a brand whose bandit experiment gains a variant must not reach the visitors of the brand as
 * published: the served experiment keeps assigning its new visitors to the published variants
 * until the draft itself is published.
 */
import { describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import { BLOCK_SPECS } from '../../blocks/generated/specs';
import { buildCatalog, readSources, revisionText } from '../../engine/site/catalog';
import { checkBrandDocument } from '../../engine/site/brandOverlay';

const sources = readSources({ extraDir: '' });

/** ipaydayloans with its experiment run by the bandit over `ids` (the first is the page as written). */
function withBandit(ids: string[]): Brand {
  const brand = JSON.parse(sources.brands.find((s) => s.file === 'brands/ipaydayloans.json')!.text) as Brand;
  const e = brand.experiments![0]!;
  const weight = Math.floor(100 / ids.length);
  brand.experiments = [
    {
      ...e,
      allocation: 'bandit',
      burnIn: 100,
      variants: ids.map((id, i) => ({
        id,
        weight: i === 0 ? 100 - weight * (ids.length - 1) : weight,
        ...(i ? { texts: { '/blocks/0/heading': `Heading ${id}` } } : {}),
      })) as Brand['experiments'] extends (infer E)[] | undefined ? (E extends { variants: infer V } ? V : never) : never,
    },
  ];
  return brand;
}

describe("a studio draft's check", () => {
  it('leaves the variants new visitors of the published brand are assigned to as they were', () => {
    const published = withBandit(['control', 'second', 'third']);
    const served = buildCatalog(
      sources.brands.map((s) => (s.file === 'brands/ipaydayloans.json' ? { ...s, text: revisionText(published) } : s)),
      sources.layouts,
      BLOCK_SPECS,
    );
    expect(served.problems).toEqual([]);
    const live = served.brands.get('ipaydayloans')!.experiments.list[0]!;
    const assigned = () => live.allocation!.variants.map((v) => v.id);
    expect(assigned()).toEqual(['control', 'second', 'third']);

    const draft = withBandit(['control', 'second', 'third', 'fourth']);
    expect(checkBrandDocument('ipaydayloans', draft, { catalog: served }).problems).toEqual([]);
    expect(assigned()).toEqual(['control', 'second', 'third']);
  });
});
