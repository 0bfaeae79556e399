/**
 * The checks JSON Schema cannot express: routes compile and name a layout that exists,
 * links go to real pages, placeholders are known where they are used, each page has one
 * hero first, colours are readable, hosts belong to one brand.
 */
import type { Block, Brand, Layout } from '../../../schemas/brand.types';
import { specOf, type BlockSpecs } from '../blockSpec';
import { TEMPLATE_FIELDS, templateFieldsOf } from '../templateFields';
import { whiteTextProblem } from '../../browser/colors';
import { compileRoute, matchRoute, RoutePatternError, type CompiledRoute, type ParamKind } from '../routes';
import { ALL_VARS, ALWAYS_VARS, itemVarsOf, sampleItemVars, varsOfRoute, type ItemKind } from '../routeParams';
import { blogHostsOf, hostsOfBrand, type HostOwners } from '../hosts';
import { TITLE_APPLY } from '../../browser/applyUrl';
import { STORE_BRANDS } from '../../browser/data/stores';
import { isLayoutParam, shownBlockIndexes, withLayoutParams } from '../layoutParams';
import { fill, placeholdersIn } from '../templates';
import { encodePointer } from '../../validate/locate';
import type { Problem } from '../../validate/schema';
import { privacyChoicePath } from '../privacyChoicePage';
import { checkLayoutParams, checkLoanTypeFilters, checkShadowedLayouts, checkSwitchedBlocks, heroProblems } from './layoutReuse';
import { pageLoanTypes } from '../routeLoanTypes';
import { countryFormProblems } from './countryForm';
import { countryRouteProblems } from './countryRoutes';
import { consentLookProblems } from '../consentLook';
import { checkExperiments } from './experiments';

export interface FileProblem extends Problem {
  file: string;
  /** where known without a pointer (JSON syntax errors) */
  position?: { line: number; column: number };
}

export interface LayoutSource {
  file: string;
  /** pointer of the layout inside its file ('' for a shared layout file) */
  pointer: string;
  layout: Layout;
}

/** Every string in a value with its pointer, skipping nothing. */
function* strings(value: unknown, at: (string | number)[]): Generator<{ text: string; path: (string | number)[] }> {
  if (typeof value === 'string') yield { text: value, path: at };
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* strings(value[i], [...at, i]);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, [...at, k]);
}

const pathOnly = (href: string) => href.replace(/[?#].*$/, '');
const routeList = (routes: readonly CompiledRoute[]) => routes.map((r) => r.path).join(', ');

export function checkBrand(
  brand: Brand,
  file: string,
  sharedLayouts: ReadonlyMap<string, LayoutSource>,
  hostOwners: HostOwners,
  specs: BlockSpecs,
): FileProblem[] {
  const problems: FileProblem[] = [];
  const add = (f: string, pointer: string, message: string) => problems.push({ file: f, pointer, message });

  const expectedId = file.replace(/^.*\//, '').replace(/\.json$/, '');
  if (brand.id !== expectedId) add(file, '/id', `"${brand.id}" must equal the file name "${expectedId}" (the id is how the brand is found)`);

  for (const [i, host] of brand.hosts.entries()) {
    const owner = hostOwners.get(host);
    if (owner && owner !== file) add(file, `/hosts/${i}`, `host "${host}" is also claimed by ${owner}; a host can belong to one brand only`);
  }
  for (const host of blogHostsOf(brand)) {
    const owner = hostOwners.get(host);
    if (owner && owner !== file) add(file, '/blogHost', `host "${host}" is also claimed by ${owner}; a host can belong to one brand only`);
    if (brand.hosts.includes(host)) add(file, '/blogHost', `"${host}" is already one of the brand's hosts; the blog host must be a separate one`);
  }
  for (const host of hostsOfBrand(brand)) {
    const owner = hostOwners.get(host);
    if (owner && owner !== file && !brand.hosts.includes(host)) add(file, '/hosts', `the automatic host "${host}" clashes with ${owner}`);
  }

  problems.push(...checkShadowedLayouts(brand, file, sharedLayouts));

  const unreadable = whiteTextProblem(brand.config.theme);
  if (unreadable) add(file, '/config/theme', unreadable);

  // Routes compile and name existing layouts.
  const own = brand.layouts ?? {};
  const layoutOf = (name: string): LayoutSource | undefined =>
    own[name] ? { file, pointer: encodePointer(['layouts', name]), layout: own[name]! } : sharedLayouts.get(name);
  const compiled: CompiledRoute[] = [];
  const seenPaths = new Map<string, number>();
  brand.routes.forEach((spec, i) => {
    const prior = seenPaths.get(spec.path);
    if (prior !== undefined) add(file, `/routes/${i}/path`, `"${spec.path}" is already route ${prior}; each path pattern appears once`);
    seenPaths.set(spec.path, i);
    try {
      compiled.push(compileRoute(spec, i));
    } catch (err) {
      if (err instanceof RoutePatternError) add(file, `/routes/${i}/path`, err.message);
      else throw err;
    }
    if (spec.path.includes('{slug}') && !spec.content)
      add(file, `/routes/${i}`, 'a route with {slug} needs "content": the collection its slug names (article, answer, hub, author, category or tag)');
    if (!layoutOf(spec.layout)) {
      add(
        file,
        `/routes/${i}/layout`,
        `no layout named "${spec.layout}" (this brand's: ${Object.keys(own).join(', ') || 'none'}; shared: ${[...sharedLayouts.keys()].join(', ') || 'none'})`,
      );
    }
  });

  // Third parties and the privacy choice (engine/browser/privacy.ts, blocks/chrome/thirdParties.ts).
  if (brand.config.tiktokPixelId && brand.product !== 'general') {
    add(file, '/config/tiktokPixelId', `the pixel is for general brands only (this brand's product is "${brand.product}"); remove tiktokPixelId`);
  }
  if (
    brand.country === 'US' &&
    !privacyChoicePath(
      brand,
      (name, params) => {
        const source = layoutOf(name);
        return source && withLayoutParams(source.layout, params);
      },
      specs,
    )
  ) {
    add(
      file,
      '/routes',
      'a US brand needs its "Do Not Sell or Share My Personal Information" page: add { "path": "/do-not-sell-or-share", "layout": "do-not-sell" } (any path without parameters whose layout has a privacyChoice block); the footer links to it',
    );
  }

  const resolves = (href: string) => matchRoute(compiled, pathOnly(href), { loanTypes: brand.loanTypes, disabledPaths: brand.disabledPaths }) !== undefined;
  const checkLink = (f: string, pointer: string, href: string) => {
    if (href.startsWith('https://')) return;
    const whose = f === file ? 'this brand' : `brand "${brand.id}"`;
    if (!resolves(href)) add(f, pointer, `link "${href}" goes to no page of ${whose} (no route matches it; routes: ${routeList(compiled)})`);
  };

  // A route's canonical address: its own parameters only, and a literal one a page of the same layout.
  brand.routes.forEach((spec, i) => {
    if (!spec.canonical) return;
    const own = new Set(placeholdersIn(spec.path.replace('{page?}', '{page}')));
    const named = placeholdersIn(spec.canonical.replace('{page?}', '{page}'));
    const foreign = named.find((n) => !own.has(n));
    const there = named.length ? undefined : matchRoute(compiled, spec.canonical, { loanTypes: brand.loanTypes, disabledPaths: brand.disabledPaths });
    if (spec.canonical === spec.path) add(file, `/routes/${i}/canonical`, 'the canonical address is this route\'s own path; leave "canonical" out');
    else if (foreign)
      add(file, `/routes/${i}/canonical`, `"${spec.canonical}" names {${foreign}}, which "${spec.path}" does not have; use only this route's own parameters`);
    else if (!named.length && !there) add(file, `/routes/${i}/canonical`, `"${spec.canonical}" goes to no page of this brand (no route matches it)`);
    else if (there && there.route.layout !== spec.layout)
      add(
        file,
        `/routes/${i}/canonical`,
        `"${spec.canonical}" shows layout "${there.route.layout}", not this route's "${spec.layout}": a canonical address is the same page`,
      );
  });

  if (!resolves(brand.apply.path)) add(file, '/apply/path', `the apply page "${brand.apply.path}" has no route; add a route for it`);
  if (!resolves('/')) add(file, '/routes', 'there is no route for the home page "/"');
  if (brand.blogHost && !resolves('/blog')) add(file, '/blogHost', 'a blog host needs a route for "/blog" (its home page)');

  brand.nav.items.forEach((item, i) => {
    if (item.href) checkLink(file, `/nav/items/${i}/href`, item.href);
    item.children?.forEach((child, j) => checkLink(file, `/nav/items/${i}/children/${j}/href`, child.href));
  });
  brand.footer.columns.forEach((col, i) => col.links.forEach((l, j) => checkLink(file, `/footer/columns/${i}/links/${j}/href`, l.href)));
  if (brand.nav.search) {
    checkLink(file, '/nav/search/href', brand.nav.search.href);
    const route = matchRoute(compiled, pathOnly(brand.nav.search.href), { loanTypes: brand.loanTypes, disabledPaths: brand.disabledPaths })?.route;
    if (route && !layoutOf(route.layout)?.layout.blocks.some((b) => specOf(specs, b.type).isPlaceSearch)) {
      add(file, '/nav/search/href', `the header search goes to "${brand.nav.search.href}", whose layout "${route.layout}" has no locationSearch block to open`);
    }
  }

  const samples = sampleItemVars(brand);
  /**
   * A link template may use its items' variables and, in a layout, any variable every route
   * using the layout has (e.g. {loanType.slug}); it must give a real page on each such route.
   */
  const checkItemTemplate = (f: string, pointer: string, template: string, kind: ItemKind, routes: readonly CompiledRoute[] = []) => {
    const pageVars = routes.length ? [...varsOfRoute(routes[0]!)].filter((v) => routes.every((r) => varsOfRoute(r).has(v))) : [...ALWAYS_VARS];
    const allowed = new Set<string>([...itemVarsOf(kind), ...pageVars]);
    const unknown = placeholdersIn(template).filter((p) => !allowed.has(p));
    if (unknown.length) {
      add(f, pointer, `unknown placeholder {${unknown[0]}} in a link template (available: ${[...allowed].map((v) => `{${v}}`).join(', ')})`);
      return;
    }
    const whose = f === file ? 'this brand' : `brand "${brand.id}"`;
    for (const route of routes.length ? routes : [undefined]) {
      const href = fill(template, { ...samples, ...(route?.loanType ? { 'loanType.slug': route.loanType } : {}) });
      if (!resolves(href)) {
        add(f, pointer, `link template "${template}" gives "${href}"${route ? ` on route "${route.path}"` : ''}, which no route of ${whose} matches`);
        return;
      }
    }
  };
  if (brand.footer.stateLinks) checkItemTemplate(file, '/footer/stateLinks/hrefTemplate', brand.footer.stateLinks.hrefTemplate, 'state');

  const popup = brand.exitPopup;
  if (popup) {
    if (popup.variant === 'title' && !resolves(TITLE_APPLY.path)) {
      add(
        file,
        '/exitPopup/variant',
        `the title popup's Contact Now goes to "${TITLE_APPLY.path}", which has no route; add a route for it or pick another variant`,
      );
    }
    if (popup.variant === 'payday' && !popup.storeHrefTemplate) {
      add(file, '/exitPopup', 'the payday popup links to the 11 store brands: add "storeHrefTemplate", e.g. "/loans-near-me/lending-companies/{store.slug}"');
    }
    if (popup.storeHrefTemplate && popup.variant !== 'payday')
      add(file, '/exitPopup/storeHrefTemplate', `only the payday variant uses store links; remove this or set "variant": "payday"`);
    if (popup.variant === 'payday' && popup.storeHrefTemplate) {
      const template = popup.storeHrefTemplate;
      const before = problems.length;
      checkItemTemplate(file, '/exitPopup/storeHrefTemplate', template, 'store');
      if (problems.length === before) {
        const missing = STORE_BRANDS.map((st) => fill(template, { 'store.slug': st.slug })).filter((href) => !resolves(href));
        if (missing.length) add(file, '/exitPopup/storeHrefTemplate', `store links go to no page of this brand: ${missing.join(', ')}`);
      }
    }
  }

  // The application form's country: currency, locale, the cost disclosure and licence it shows.
  for (const [pointer, message] of countryFormProblems(brand)) add(file, pointer, message);
  // Location pages name US states and cities: a Canadian or Australian brand has none.
  for (const [pointer, message] of countryRouteProblems(brand)) add(file, pointer, message);
  // The consent beside the submit button: legible by the brand's own rules, or no lead of it is defensible.
  for (const [pointer, message] of consentLookProblems(brand)) add(file, pointer, message);

  const footerVars = new Set<string>([...ALWAYS_VARS, 'noServiceStates']);
  brand.footer.disclaimers.forEach((text, i) => {
    for (const p of placeholdersIn(text))
      if (!footerVars.has(p))
        add(file, `/footer/disclaimers/${i}`, `unknown placeholder {${p}} (available: ${[...footerVars].map((v) => `{${v}}`).join(', ')})`);
  });

  // Layouts: each used one is checked against the routes that use it.
  const usedBy = new Map<string, CompiledRoute[]>();
  for (const r of compiled) usedBy.set(r.layout, [...(usedBy.get(r.layout) ?? []), r]);
  for (const [name, routes] of usedBy) {
    const source = layoutOf(name);
    if (!source) continue;
    problems.push(...checkLoanTypeFilters(source, routes, brand), ...checkLayoutParams(source, routes, file), ...checkSwitchedBlocks(source, specs));
    // routes giving the same parameters show the same filled layout: each such layout is checked with its routes
    const byParams = new Map<string, CompiledRoute[]>();
    for (const r of routes) byParams.set(JSON.stringify(r.layoutParams ?? {}), [...(byParams.get(JSON.stringify(r.layoutParams ?? {})) ?? []), r]);
    for (const group of byParams.values()) {
      const params = group[0]!.layoutParams;
      const filled = { ...source, layout: withLayoutParams(source.layout, params) };
      // a filled layout may leave switched blocks out: its problems are reported at the block as the layout wrote it
      const shown = shownBlockIndexes(source.layout, params);
      const blocks = `${source.pointer}/blocks/`;
      const written = (pointer: string) => {
        const index = pointer.startsWith(blocks) ? /^\d+/.exec(pointer.slice(blocks.length))?.[0] : undefined;
        return index === undefined ? pointer : blocks + String(shown[Number(index)]) + pointer.slice(blocks.length + index.length);
      };
      for (const p of checkLayoutUse(brand, filled, group, checkLink, checkItemTemplate, specs)) problems.push({ ...p, pointer: written(p.pointer) });
    }
  }

  // Experiments: each variant's page gets the same checks as a route's (what checkLink adds is taken back and returned).
  const pageProblems = (source: LayoutSource, routes: readonly CompiledRoute[], params: CompiledRoute['layoutParams']): FileProblem[] => {
    const before = problems.length;
    const filled = { ...source, layout: withLayoutParams(source.layout, params) };
    const found = [...checkLayoutParams(source, routes, file), ...checkLayoutUse(brand, filled, routes, checkLink, checkItemTemplate, specs)];
    return [...problems.splice(before), ...found];
  };
  problems.push(...checkExperiments(brand, file, compiled, layoutOf, pageProblems));
  return problems;
}

function checkLayoutUse(
  brand: Brand,
  source: LayoutSource,
  routes: readonly CompiledRoute[],
  checkLink: (f: string, pointer: string, href: string) => void,
  checkItemTemplate: (f: string, pointer: string, template: string, kind: ItemKind, routes?: readonly CompiledRoute[]) => void,
  specs: BlockSpecs,
): FileProblem[] {
  const problems: FileProblem[] = [];
  const { file, layout } = source;
  const base = source.pointer;
  const add = (pointer: string, message: string) => problems.push({ file, pointer, message });

  for (const [i, message] of heroProblems(layout.blocks, pageLoanTypes(routes, brand), specs))
    add(`${base}/blocks/${i}${message.startsWith('the first') ? '/type' : ''}`, message);

  const routeVars = routes.map((r) => ({ route: r, vars: varsOfRoute(r) }));
  const scan = (value: unknown, at: (string | number)[], templateFields: ReadonlySet<string> = new Set()) => {
    for (const { text, path } of strings(value, at)) {
      // link templates (and maps of them, like hrefTemplateByLoanType) are checked per item
      if (path.some((key) => typeof key === 'string' && templateFields.has(key))) continue;
      for (const p of placeholdersIn(text)) {
        const pointer = base + encodePointer(path);
        if (isLayoutParam(p)) continue; // a parameter no route gave: checkLayoutParams says so
        if (!ALL_VARS.has(p)) {
          add(pointer, `unknown placeholder {${p}} (known: ${[...ALL_VARS].map((v) => `{${v}}`).join(', ')})`);
          continue;
        }
        const missing = routeVars.find((rv) => !rv.vars.has(p));
        if (missing)
          add(
            pointer,
            `placeholder {${p}} has no value on route "${missing.route.path}" (available there: ${[...missing.vars].map((v) => `{${v}}`).join(', ')})`,
          );
      }
    }
  };
  scan(layout.title, ['title']);
  scan(layout.description, ['description']);

  layout.blocks.forEach((block: Block, i) => {
    const at = `${base}/blocks/${i}`;
    scan(block, ['blocks', i], templateFieldsOf(block.type));
    const hasParam = (r: CompiledRoute, ...kinds: ParamKind[]) => r.params.some((p) => kinds.includes(p));
    specOf(specs, block.type).check?.(block, {
      brand,
      at,
      routes,
      add,
      hasParam,
      checkLink: (pointer, href) => checkLink(file, pointer, href),
      needs: (what, ok) => {
        const without = routes.find((r) => !ok(r));
        if (without) add(at, `a ${block.type} block needs a route with ${what}; route "${without.path}" has none`);
      },
    });
    for (const [field, kind] of Object.entries(TEMPLATE_FIELDS[block.type] ?? {})) {
      const value: unknown = Object.entries(block).find(([k]) => k === field)?.[1];
      if (typeof value === 'string') checkItemTemplate(file, `${at}/${field}`, value, kind, routes);
      else if (value && typeof value === 'object')
        for (const [key, t] of Object.entries(value)) checkItemTemplate(file, `${at}/${field}/${key}`, t as string, kind, routes);
    }
  });
  return problems;
}
