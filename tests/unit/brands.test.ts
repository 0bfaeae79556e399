/** The real brand files: all valid, and the pages they promise resolve to real content. */
import { describe, expect, it } from 'vitest';
import { buildCatalog, readSources } from '../../engine/site/catalog';
import { NOT_FOUND_PATH } from '../../engine/site/pageMatch';
import { resolvePage } from '../../engine/site/resolve';

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts);

describe('brand files', () => {
  it('are all valid (npm run validate would pass)', () => {
    expect(catalog.problems).toEqual([]);
    expect(catalog.broken.size).toBe(0);
  });
  it('include the payday and Canadian brands', () => {
    expect([...catalog.brands.keys()]).toEqual(expect.arrayContaining(['ipaydayloans', 'weloans']));
  });
  it('claim distinct hosts', () => {
    const ids = new Set(catalog.hostMap.values());
    expect(ids.size).toBe(catalog.brands.size);
    expect(catalog.hostMap.get('weloans.ca')).toBe('weloans');
    expect(catalog.hostMap.get('dev.weloans.ca')).toBe('weloans');
  });
});

describe('resolvePage', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('fills state placeholders and lists cities of that state', () => {
    const model = resolvePage(catalog, 'ipaydayloans', '/location/tx', now)!;
    expect(model.status).toBe(200);
    expect(model.title).toMatch(/Texas/);
    expect(model.canonical).toBe('https://ipaydayloans.com/location/tx');
    const hero = model.blocks.find((b) => b.type === 'hero');
    expect(hero?.type === 'hero' && hero.heading).toBe('Payday Loans in Texas');
    const cities = model.blocks.find((b) => b.type === 'cityList');
    expect(cities?.type === 'cityList' && cities.data.links.map((l) => l.href)).toContain('/location/tx/houston');
    expect(cities?.type === 'cityList' && cities.data.total).toBeGreaterThan(1000);
    const withoutItemTemplates = JSON.stringify(model, (key, value: unknown) => (/hrefTemplate$/i.test(key) ? undefined : value));
    expect(withoutItemTemplates).not.toMatch(/\{(state|city|brand|loanType)\.[a-zA-Z]+\}/);
  });

  it('says a no-service state is not served', () => {
    const model = resolvePage(catalog, 'ipaydayloans', '/location/ar', now)!;
    const facts = model.blocks.find((b) => b.type === 'locationFacts');
    expect(facts?.type === 'locationFacts' && facts.data.paragraphs[0]).toContain('cannot currently connect borrowers in Arkansas');
  });

  it('writes city pages with nearby cities that link to real city pages', () => {
    const model = resolvePage(catalog, 'ipaydayloans', '/location/ca/los-angeles', now)!;
    const facts = model.blocks.find((b) => b.type === 'locationFacts');
    if (facts?.type !== 'locationFacts') throw new Error('no facts block');
    expect(facts.data.nearby?.length).toBe(6);
    for (const near of facts.data.nearby!) {
      expect(resolvePage(catalog, 'ipaydayloans', near.href!, now)?.status, near.href).toBe(200);
    }
    expect(model.jsonLd.map((d) => d['@type'])).toEqual(expect.arrayContaining(['Organization', 'BreadcrumbList', 'FAQPage']));
  });

  it('gives the brand 404 model for unmatched paths and the internal 404 path', () => {
    for (const path of ['/nope', '/location/zz', NOT_FOUND_PATH]) {
      const model = resolvePage(catalog, 'ipaydayloans', path, now)!;
      expect(model.status, path).toBe(404);
      expect(model.brand.name).toBe('iPaydayLoans');
    }
  });

  it('returns nothing for an unknown brand', () => {
    expect(resolvePage(catalog, 'nobrand', '/', now)).toBeUndefined();
  });

  it('puts the current year in the copyright and the restricted states in the disclaimers', () => {
    const model = resolvePage(catalog, 'ipaydayloans', '/', now)!;
    expect(model.brand.footer.copyright).toContain('© 2026');
    expect(model.brand.footer.disclaimers.join(' ')).toContain('Arkansas, New York, Vermont, West Virginia, Washington and Pennsylvania');
    expect(model.brand.apply.href).toBe('/apply?v1=landing-page');
  });

  it('every internal link of every brand page model resolves (nav, footer, blocks)', () => {
    const checked = new Set<string>();
    for (const [id, loaded] of catalog.brands) {
      const staticPaths = loaded.brand.routes.filter((r) => !r.path.includes('{')).map((r) => r.path);
      for (const path of staticPaths) {
        const model = resolvePage(catalog, id, path, now)!;
        const links = [
          ...model.brand.nav.flatMap((n) => [...(n.href ? [n.href] : []), ...(n.children ?? []).map((c) => c.href)]),
          ...model.brand.footer.columns.flatMap((c) => c.links.map((l) => l.href)),
          ...(model.brand.footer.stateLinks?.links.map((l) => l.href) ?? []),
          ...(model.brand.exitPopup?.stores?.map((l) => l.href) ?? []),
          ...model.blocks.flatMap((b) => (b.type === 'linkGrid' ? b.links.map((l) => l.href) : b.type === 'stateList' ? b.data.links.map((l) => l.href) : [])),
        ].filter((h) => h.startsWith('/'));
        for (const href of new Set(links)) {
          const target = href.replace(/\?.*$/, '');
          if (checked.has(`${id} ${target}`)) continue;
          checked.add(`${id} ${target}`);
          expect(resolvePage(catalog, id, target, now)?.status, `${id}${path} → ${href}`).toBe(200);
        }
      }
    }
  }, 60_000);
});

describe('exit-intent popup in the page model', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it('the payday brand links all 11 store brands to pages it serves', () => {
    const popup = resolvePage(catalog, 'ipaydayloans', '/', now)!.brand.exitPopup!;
    expect(popup.variant).toBe('payday');
    expect(popup.maskClosable).toBe(true);
    expect(popup.stores?.map((s) => s.label)).toEqual([
      'Ace Cash Express',
      'Advance America',
      'Cash Store',
      'Check City',
      'Check Into Cash',
      'Mariner Finance',
      'Money Mart',
      'PAYOMATIC',
      'Red River Credit',
      'The Check Cashing Store',
      'TitleMax',
    ]);
    for (const store of popup.stores!) {
      const page = resolvePage(catalog, 'ipaydayloans', store.href, now)!;
      expect(page.status, store.href).toBe(200);
      expect(page.title, store.href).toContain(store.label);
    }
  });
  it('is not on the apply page (the visitor is already applying)', () => {
    expect(resolvePage(catalog, 'ipaydayloans', '/apply', now)!.brand.exitPopup).toBeUndefined();
    expect(resolvePage(catalog, 'weloans', '/apply', now)!.brand.exitPopup).toBeUndefined();
    expect(resolvePage(catalog, 'weloans', '/payday-loans', now)!.brand.exitPopup).toEqual({ variant: 'generic', maskClosable: true });
  });
});
