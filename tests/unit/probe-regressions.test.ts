/** Engine behaviour that probing the sites found wrong once (each test failed before its fix): possessives, search by loan type, blog-host links, only real pages rendered, installs from the lock. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { mainSiteHref, mainSiteHtml } from '../../engine/site/blogLinks';
import { getCatalog } from '../../engine/site/catalog';
import { availabilitySentence } from '../../engine/site/locationText';
import { buildPageModel } from '../../engine/site/pageModel';
import { matchPath, searchRedirect } from '../../engine/site/pageMatch';
import { resolvePage } from '../../engine/site/resolve';
import { stateByCode } from '../../engine/geo/states';
import { fill, possessive } from '../../engine/site/templates';

const catalog = getCatalog();

describe('possessives of names ending in s (8.14)', () => {
  it.each([
    ['US Title Loans', "US Title Loans'"],
    ['WeLoans', "WeLoans'"],
    ['iPaydayLoans', "iPaydayLoans'"],
    ['Ohio', "Ohio's"],
    ['CocoLoan', "CocoLoan's"],
  ])('%s → %s', (name, out) => expect(possessive(name)).toBe(out));

  it("a template's {x}'s follows the same rule", () => {
    expect(fill("{brand.name}'s network and {state.name}'s rules", { 'brand.name': 'US Title Loans', 'state.name': 'Texas' })).toBe(
      "US Title Loans' network and Texas' rules",
    );
    expect(fill("{state.name}'s rules", { 'state.name': 'Ohio' })).toBe("Ohio's rules");
    expect(fill("{state.name}'s", {})).toBe("{state.name}'s");
  });

  it('the title-exclusion sentence on ustitleloans reads right', () => {
    const text = availabilitySentence(stateByCode('ny')!, 'US Title Loans', 'title loan', true);
    expect(text).toContain("through US Title Loans' lender network");
    expect(text).not.toContain("Loans's");
  });
});

describe('search goes to the chosen loan type (8.10)', () => {
  const payday = catalog.brands.get('ipaydayloans')!;
  it.each([
    ['state=ca&type=title-loans', '/title-loans/location/ca'],
    ['state=ca&type=installment-loans', '/installment-loans/location/ca'],
    ['state=ca&type=personal-loans', '/personal-loans/location/ca'],
    ['state=ca&type=payday-loans', '/location/ca'],
    ['state=ca', '/location/ca'],
  ])('ipaydayloans /search?%s → %s', (query, target) => {
    expect(searchRedirect(payday, '/search', new URLSearchParams(query))).toBe(target);
  });

  it("a search page under a loan type asked for a state alone goes to that loan type's state page", () => {
    const cocoloan = catalog.brands.get('cocoloan')!;
    expect(searchRedirect(cocoloan, '/payday-loans/search', new URLSearchParams('state=Texas'))).toBe('/payday-loans/state/texas');
    expect(searchRedirect(cocoloan, '/installment-loans/search', new URLSearchParams('state=Texas'))).toBe('/installment-loans/state/texas');
    // a type asked for still decides
    expect(searchRedirect(cocoloan, '/payday-loans/search', new URLSearchParams('state=tx&type=personal-loans'))).toBe('/personal-loans/state/texas');
  });

  it('on every brand, every search page sends every loan type to a page of that type', () => {
    const wrong: string[] = [];
    for (const [id, loaded] of catalog.brands) {
      for (const route of loaded.routes) {
        const layout = loaded.layout(route.layout);
        if (!layout?.blocks.some((b) => b.type === 'searchForm')) continue;
        const samplePath = route.path.replace('{loanType}', loaded.brand.loanTypes[0]!);
        if (!matchPath(loaded, samplePath)) continue;
        for (const type of loaded.brand.loanTypes) {
          const target = searchRedirect(loaded, samplePath, new URLSearchParams({ state: 'ca', type }));
          const match = target ? matchPath(loaded, target) : undefined;
          const landed = match?.params.loanType ?? match?.route.loanType;
          if (!target || landed !== type) wrong.push(`${id} ${samplePath}?type=${type} → ${target ?? 'nothing'} (${landed ?? 'no loan type'})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('links on a separate blog host lead to the main site (8.9)', () => {
  it.each([
    ['/apply?v1=x', 'https://ipaydayloans.com/apply?v1=x'],
    ['/payday-loans', 'https://ipaydayloans.com/payday-loans'],
    ['/', 'https://ipaydayloans.com/'],
    ['/blog/payday-loans', '/blog/payday-loans'],
    ['/blog', '/blog'],
    ['#main', '#main'],
    ['https://example.org/x', 'https://example.org/x'],
    ['//evil.example/x', '//evil.example/x'],
  ])('%s → %s', (href, out) => expect(mainSiteHref(href, 'https://ipaydayloans.com')).toBe(out));

  it('rewrites links inside article HTML', () => {
    expect(mainSiteHtml('<a href="/payday-loans">x</a> <a href="/blog/a">y</a>', 'https://ipaydayloans.com')).toBe(
      '<a href="https://ipaydayloans.com/payday-loans">x</a> <a href="/blog/a">y</a>',
    );
  });

  it('the payday blog page: header, footer and apply links are absolute to the main host', () => {
    const model = resolvePage(catalog, 'ipaydayloans', '/blog')!;
    expect(model.brand.homeHref).toBe('https://ipaydayloans.com/');
    expect(model.brand.apply.href).toMatch(/^https:\/\/ipaydayloans\.com\/apply\?v1=landing-page$/);
    expect(model.brand.apply.path).toBe('https://ipaydayloans.com/apply');
    const hrefs = JSON.stringify(model.brand).match(/"href":"[^"]*"/g)!;
    const relative = hrefs.filter((h) => h.startsWith('"href":"/') && !h.startsWith('"href":"/blog'));
    expect(relative).toEqual([]);
  });

  it('pages on the main host keep relative links', () => {
    const model = resolvePage(catalog, 'ipaydayloans', '/payday-loans')!;
    expect(model.brand.homeHref).toBe('/');
    expect(model.brand.apply.path).toBe('/apply');
  });
});

describe('only a real page is ever rendered for the cache (8.1)', () => {
  it.each(['/made-up-path', '/payday-loans/zzz', '/location/zz', '/_brand/x'])('%s on a brand → notFound', async (path) => {
    expect(await buildPageModel(catalog, 'usbadcreditloans', path)).toBe('notFound');
  });
  it('a real page and the internal 404 page still build', async () => {
    expect(await buildPageModel(catalog, 'usbadcreditloans', '/payday-loans')).toMatchObject({ status: 200 });
    expect(await buildPageModel(catalog, 'usbadcreditloans', '/_404')).toMatchObject({ status: 404 });
  });
});

describe('install (8.16)', () => {
  it('npm ci accepts package-lock.json (every optional platform package is in the lock)', () => {
    const r = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], { encoding: 'utf8', timeout: 60_000 });
    expect(
      r.stderr
        .split('\n')
        .filter((l) => l.includes('npm error'))
        .slice(0, 5),
    ).toEqual([]);
    expect(r.status).toBe(0);
  });
});
