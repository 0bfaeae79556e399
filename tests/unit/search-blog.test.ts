import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../engine/site/catalog';
import { searchRedirect } from '../../engine/site/pageMatch';
import { resolvePage } from '../../engine/site/resolve';

const acme = readFileSync(join(__dirname, '../fixtures/acme.json'), 'utf8');
const withSearchAndBlog = acme
  .replace('"hosts": ["acmeloans.com", "www.acmeloans.com"],', '"hosts": ["acmeloans.com", "www.acmeloans.com"],\n  "blogHost": "blog.acmeloans.com",')
  .replace(
    '{ "path": "/apply", "layout": "home" },',
    `{ "path": "/apply", "layout": "home" },
    { "path": "/search", "layout": "search" },
    { "path": "/blog", "layout": "home" },`,
  )
  .replace(
    '"layouts": {',
    `"layouts": {
    "search": {
      "title": "Search by state",
      "description": "Find what short-term loans look like in your state: choose it and we take you to its page.",
      "blocks": [
        { "type": "hero", "heading": "Search by state" },
        { "type": "searchForm", "heading": "Choose your state", "hrefTemplate": "/location/{state.shortName}" }
      ]
    },`,
  );
const catalog = buildCatalog([{ file: 'brands/acme.json', text: withSearchAndBlog }], []);
const loaded = catalog.brands.get('acme')!;
const q = (s: string) => new URLSearchParams(s);

describe('search redirect', () => {
  it('the fixture is valid', () => expect(catalog.problems).toEqual([]));
  it.each([
    ['state=texas', '/location/tx'],
    ['state=TX', '/location/tx'],
    ['state=tx&type=payday-loans', '/location/tx'],
    ['state=District%20Of%20Columbia', '/location/dc'],
  ])('/search?%s → %s', (query, target) => {
    expect(searchRedirect(loaded, '/search', q(query))).toBe(target);
  });
  it.each([
    ['state=atlantis', 'unknown state'],
    ['state=', 'empty'],
    ['type=payday-loans', 'no state'],
    ['state=tx&type=boat-loans', 'loan type the brand does not offer'],
  ])('/search?%s stays on the search page (%s)', (query) => {
    expect(searchRedirect(loaded, '/search', q(query))).toBeUndefined();
  });
  it('only pages with a search form redirect', () => {
    expect(searchRedirect(loaded, '/', q('state=tx'))).toBeUndefined();
  });
  it('renders the form with every state and the brand loan types', () => {
    const model = resolvePage(catalog, 'acme', '/search')!;
    const form = model.blocks.find((b) => b.type === 'searchForm');
    if (form?.type !== 'searchForm') throw new Error('no form');
    expect(form.data.action).toBe('/search');
    expect(form.data.states).toHaveLength(51);
    expect(form.data.loanTypes.map((t) => t.value)).toEqual(['payday-loans', 'installment-loans']);
  });
});

describe('blog host', () => {
  it('maps the blog host, its dev./test123. hosts and blog.{id}.localhost to the brand', () => {
    for (const h of ['blog.acmeloans.com', 'dev.blog.acmeloans.com', 'test123.blog.acmeloans.com', 'blog.acme.localhost'])
      expect(catalog.blogHostMap.get(h), h).toBe('acme');
    expect(catalog.blogHostMap.get('acmeloans.com')).toBeUndefined();
  });
  it('gives blog pages the blog host as canonical and other pages the primary host', () => {
    expect(resolvePage(catalog, 'acme', '/blog')!.canonical).toBe('https://blog.acmeloans.com/blog');
    expect(resolvePage(catalog, 'acme', '/search')!.canonical).toBe('https://acmeloans.com/search');
  });
  it('needs a /blog route', () => {
    const noBlog = withSearchAndBlog.replace('{ "path": "/blog", "layout": "home" },', '');
    expect(buildCatalog([{ file: 'brands/acme.json', text: noBlog }], []).problems).toEqual([
      expect.stringMatching(/^brands\/acme\.json:\d+:\d+ \/blogHost: a blog host needs a route for "\/blog" \(its home page\)$/),
    ]);
  });
});
