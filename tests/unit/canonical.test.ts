/**
 * A page shown at two paths has one canonical URL, and the sitemap lists that one only.
 * usinstallmentloans has /{loanType}/state/{state}, /{loanType}/state/{state}-cities and
 * /{loanType}/city/{letter}/{page?} beside the same routes without the loan type (its only loan
 * type, installment-loans), and its pages link the short ones. ustitleloans keeps older
 * addresses answering (/remove-your-loan-store, /title-loans-near-me/location/{state}) beside
 * the ones it links, each route saying which it is ("canonical").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { resolvePage } from '../../engine/site/resolve';
import { brandPaths } from '../../engine/site/seo/sitemap';
import { SAMPLE_NOW } from '../support/pageSamples';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const canonicalOf = (brand: string, path: string) => {
  const model = resolvePage(catalog, brand, path, SAMPLE_NOW)!;
  expect(model.status, `${brand}${path}`).toBe(200);
  return model.canonical;
};

describe('one canonical URL for a page two routes show', () => {
  it.each([
    ['/installment-loans/state/texas', '/state/texas'],
    ['/installment-loans/state/texas-cities', '/state/texas-cities'],
    ['/installment-loans/city/h', '/city/h'],
    ['/installment-loans/city/h/2', '/city/h/2'],
  ])('usinstallmentloans %s is known by %s', (path, short) => {
    expect(canonicalOf('usinstallmentloans', path)).toBe(`https://usinstallmentloans.com${short}`);
    expect(canonicalOf('usinstallmentloans', short)).toBe(`https://usinstallmentloans.com${short}`);
    const trail = resolvePage(catalog, 'usinstallmentloans', path, SAMPLE_NOW)!.jsonLd.find((ld) => ld['@type'] === 'BreadcrumbList');
    if (trail) expect(JSON.stringify(trail)).not.toContain('/installment-loans/');
  });

  it('a loan-type path with no other route for the same page keeps its own canonical URL', () => {
    expect(canonicalOf('cocoloan', '/payday-loans/state/texas-cities')).toBe('https://cocoloan.com/payday-loans/state/texas-cities');
    expect(canonicalOf('usinstallmentloans', '/installment-loans')).toBe('https://usinstallmentloans.com/installment-loans');
    expect(canonicalOf('usbadcreditloans', '/payday-loans/location/texas')).toBe('https://usbadcreditloans.com/payday-loans/location/texas');
  });

  it('the sitemap lists each page once, at its canonical URL', () => {
    const paths = brandPaths(catalog.brands.get('usinstallmentloans')!);
    expect(paths).toContain('/state/texas');
    expect(paths).toContain('/city/h/2');
    expect(paths.filter((p) => /^\/installment-loans\/(state|city)\//.test(p))).toEqual([]);
    for (let i = 0; i < paths.length; i += 499) expect(canonicalOf('usinstallmentloans', paths[i]!)).toBe(`https://usinstallmentloans.com${paths[i]}`);
  }, 60_000);
});

describe('a route\'s "canonical" address', () => {
  it.each([
    ['/remove-your-loan-store', '/remove-your-store-profile'],
    ['/update-your-loan-store-profile', '/update-your-store-profile'],
    ['/title-loans-near-me/location/texas', '/title-loans-near-me/texas'],
  ])('ustitleloans %s is known by %s, which the sitemap lists instead', (path, linked) => {
    expect(canonicalOf('ustitleloans', path)).toBe(`https://ustitleloans.com${linked}`);
    expect(canonicalOf('ustitleloans', linked)).toBe(`https://ustitleloans.com${linked}`);
    const paths = new Set(brandPaths(catalog.brands.get('ustitleloans')!));
    expect(paths.has(linked)).toBe(true);
    expect(paths.has(path)).toBe(false);
  });

  const ust = readFileSync(join(__dirname, '../../brands/ustitleloans.json'), 'utf8');
  const problemsWith = (canonical: string) =>
    buildCatalog(
      [{ file: 'brands/ustitleloans.json', text: ust.replace('"canonical": "/remove-your-store-profile"', `"canonical": "${canonical}"`) }],
      sources.layouts,
      BLOCK_SPECS,
    ).problems;

  it('is refused when it is no page, another layout, or names a parameter the route has not', () => {
    expect(problemsWith('/remove-your-store-profile')).toEqual([]);
    expect(problemsWith('/no-such-page')).toEqual([expect.stringMatching(/\/routes\/\d+\/canonical.*"\/no-such-page" goes to no page of this brand/)]);
    expect(problemsWith('/contact-us')).toEqual([
      expect.stringMatching(/canonical: "\/contact-us" shows layout "contact-us", not this route's "store-remove-listing"/),
    ]);
    expect(problemsWith('/title-loans/{state}')).toEqual([
      expect.stringMatching(/canonical: "\/title-loans\/\{state\}" names \{state\}, which "\/remove-your-loan-store" does not have/),
    ]);
  });
});

describe("cocoloan's city letter pages", () => {
  it('are one page whatever the loan type in the path, known by /city/{letter}/{page?}', () => {
    for (const loanType of ['installment-loans', 'personal-loans', 'payday-loans']) {
      expect(canonicalOf('cocoloan', `/${loanType}/city/h`)).toBe('https://cocoloan.com/city/h');
      expect(canonicalOf('cocoloan', `/${loanType}/city/h/2`)).toBe('https://cocoloan.com/city/h/2');
    }
    expect(canonicalOf('cocoloan', '/city/h/2')).toBe('https://cocoloan.com/city/h/2');
    const paths = brandPaths(catalog.brands.get('cocoloan')!);
    expect(paths).toContain('/city/h/2');
    expect(paths.filter((p) => /^\/[a-z-]+-loans\/city\/[a-z](\/\d+)?$/.test(p))).toEqual([]);
  });
});
