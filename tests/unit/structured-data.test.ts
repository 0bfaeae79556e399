/**
 * The organization's SearchAction, on every brand's pages: a search engine may send a visitor to
 * its target with a state typed in, so that target must be a search the brand's host answers.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { consoleHostsOf, decide } from '../../engine/frontDoor/frontDoor';
import { resolvePage } from '../../engine/site/resolve';
import { SAMPLE_NOW } from '../support/pageSamples';
import { BLOCK_SPECS } from '../../blocks/generated/specs';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts, BLOCK_SPECS);
const door = { catalog, previewModeId: null, consoleHosts: consoleHostsOf({}), trustForwardedHost: false, production: true, env: {} };
const answer = (url: URL) => decide({ method: 'GET', target: url.pathname + url.search, host: url.host }, door);

describe('the SearchAction in the organization structured data', () => {
  it('names, on every brand that has one, a search that takes the visitor to the state typed in', () => {
    const searchable: string[] = [];
    for (const [id] of catalog.brands) {
      const model = resolvePage(catalog, id, '/', SAMPLE_NOW)!;
      const org = model.jsonLd.find((ld) => ld['@type'] === 'Organization')!;
      const action = org.potentialAction as { target: { urlTemplate: string } } | undefined;
      if (!action) continue;
      searchable.push(id);
      const url = new URL(action.target.urlTemplate.replace('{search_term_string}', 'Texas'));
      const search = answer(url);
      expect(search, `${id}: ${url.href}`).toMatchObject({ kind: 'redirect', status: 302 });
      const state = answer(new URL((search as { location: string }).location, url));
      expect(state, `${id}: ${url.href}`).toMatchObject({ kind: 'page', brand: id });
    }
    // the brands with a search form; the others have no search to name
    expect(searchable.sort()).toEqual(['cocoloan', 'fasttitle', 'ipaydayloans', 'usbadcreditloans', 'usinstallmentloans', 'ustitleloans']);
  });
});

describe('the breadcrumb trail of a city page', () => {
  const trailOf = (brand: string, path: string) => {
    const model = resolvePage(catalog, brand, path, SAMPLE_NOW)!;
    expect(model.status, `${brand}${path}`).toBe(200);
    const list = model.jsonLd.find((ld) => ld['@type'] === 'BreadcrumbList')!;
    return (list.itemListElement as { name: string; item: string }[]).map((i) => [i.name, i.item]);
  };

  it.each([
    ['ipaydayloans', '/location/tx/houston', 'https://ipaydayloans.com/location/tx'],
    ['ustitleloans', '/title-loans/houston', 'https://ustitleloans.com/title-loans/texas'],
    ['usbadcreditloans', '/payday-loans/location/houston', 'https://usbadcreditloans.com/payday-loans/location/texas'],
    ['fasttitle', '/title-loans-near-me/location/houston', 'https://fasttitleloansnearme.com/title-loans-near-me/location/texas'],
  ])("%s %s goes through its state, Texas, at that state's own page", (brand, path, texas) => {
    const trail = trailOf(brand, path);
    expect(trail).toHaveLength(3);
    expect(trail[1]).toEqual(['Texas', texas]);
    const page = resolvePage(catalog, brand, new URL(texas).pathname, SAMPLE_NOW)!;
    expect(page.status).toBe(200);
    expect(page.canonical).toBe(texas);
  });

  it('names no state where the brand has no page of it beside the city (never a loan-type page under a state name)', () => {
    expect(trailOf('usinstallmentloans', '/city/houston-tx').map(([name]) => name)).toEqual(['US Installment Loans', 'Loans in Houston, TX']);
  });
});
