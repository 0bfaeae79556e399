/**
 * The catalog: every brand file, shared layout and shared part read from disk, checked (schema, then the
 * semantic checks) and compiled. A broken brand is kept out — its hosts answer with a
 * configuration-error page — and never takes the other brands down. Loaded once in
 * production; in development it reloads when a file under brands/ changes.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Brand, Layout } from '../../schemas/brand.types';
import type { BlockSpecs } from './blockSpec';
import { expandParts, linkListNamesIn, pointerVia, switchesIn, type Moved, type SharedPart } from './sharedParts';
import { expandBrand } from './brandExpand';
import { withLayoutParams, type LayoutParams } from './layoutParams';
import { blogHostsOf, buildHostMap, hostsOfBrand, type HostMap, type HostOwners } from './hosts';
import { compileRoute, type CompiledRoute } from './routes';
import { withSharedRoutes } from '../browser/sharedRoutes';
import { locate, parseJson, type ParsedJson } from '../validate/locate';
import { checkBrandSchema, checkLayoutSchema, checkPartSchema } from '../validate/schema';
import { checkBrand, type FileProblem, type LayoutSource } from './brandChecks/semantic';
import { compileExperiments, type BrandExperiments } from './experiments/compile';

export interface Source {
  /** path relative to the project root, e.g. brands/ipaydayloans.json */
  file: string;
  text: string;
}

export interface LoadedBrand {
  brand: Brand;
  file: string;
  routes: CompiledRoute[];
  /** A layout by name; with a route's layoutParams, the layout that route shows (engine/site/layoutParams.ts). */
  layout(name: string, params?: LayoutParams): Layout | undefined;
  /** every block type's spec: the catalog's (Catalog.specs), here for whatever works on one brand */
  specs: BlockSpecs;
  /** the brand's experiments: which covers a route, and the route each variant's page renders from */
  experiments: BrandExperiments;
}

export interface Catalog {
  brands: ReadonlyMap<string, LoadedBrand>;
  /** brand id → its problems, for brands kept out */
  broken: ReadonlyMap<string, string[]>;
  /** host → brand id, broken brands included (they get an error page, not "host not found") */
  hostMap: HostMap;
  /** blog host → brand id (a brand's separate blog host serves only its /blog pages) */
  blogHostMap: HostMap;
  /** every problem, formatted "file:line:col /pointer: message" */
  problems: string[];
  /** brand id → its problems one by one (the file and pointer they were found at, the message, and the line above), for brands kept out */
  findings: ReadonlyMap<string, Finding[]>;
  /** every block type's spec, as handed to buildCatalog (blocks/generated/specs.ts): the engine imports no block */
  specs: BlockSpecs;
}

export interface Finding {
  /** the file the problem is in: the brand's, or a shared layout's or part's */
  file: string;
  pointer: string;
  message: string;
  /** as `npm run validate` prints it */
  text: string;
}

export interface BuildOptions {
  /** host → the file of a brand outside these sources that claims it (a brand checked alone still may not take another's host) */
  hostOwners?: ReadonlyMap<string, string>;
  /**
   * The brands are built to be checked or previewed (a studio draft), not served: their bandit
   * experiments leave the served allocations as they are, and the build is not kept for the next.
   */
  alone?: boolean;
}

export function formatProblem(p: FileProblem, parsed: ReadonlyMap<string, { text: string; json: ParsedJson }>): string {
  const src = parsed.get(p.file);
  const pos = p.position ?? (src ? locate(src.text, src.json.tree, p.pointer) : undefined);
  return `${p.file}${pos ? `:${pos.line}:${pos.column}` : ''} ${p.pointer || '/'}: ${p.message}`;
}

const layoutName = (file: string) => file.replace(/^.*\//, '').replace(/\.json$/, '');
/**
 * A broken brand is listed by its id, or by its file's name when the id is not that (a copy whose
 * id was not changed yet): listed by the id it copied, it would have the brand it was copied from
 * reported left out while that brand is served, and its own problems put over the other's.
 */
const brokenKey = (id: string, file: string) => (id === layoutName(file) ? id : layoutName(file));
/** A shared part (brands/parts/<name>.json) travels with the shared layouts; its folder tells it apart. */
export const isPartFile = (file: string): boolean => /(^|\/)parts\/[^/]+\.json$/.test(file);

/**
 * A checked brand, ready to serve. Made outside buildCatalog: closures made there would keep its
 * whole scope alive with the catalog, the parsed sources and their syntax trees (~5 MB) included.
 */
function loadedBrandOf(brand: Brand, file: string, shared: ReadonlyMap<string, LayoutSource>, specs: BlockSpecs, alone: boolean): LoadedBrand {
  const own = brand.layouts ?? {};
  // one filled copy per route's parameters (a route's object lives as long as the catalog), and
  // one per layout with switches for routes that give none
  const filled = new WeakMap<LayoutParams, Layout>();
  const unswitched = new Map<string, Layout>();
  // an experiment's variant layouts, under names no layout file can have (engine/site/experiments/compile.ts)
  const variants = new Map<string, Layout>();
  const named = (name: string) => variants.get(name) ?? own[name] ?? shared.get(name)?.layout;
  const layout = (name: string, params?: LayoutParams): Layout | undefined => {
    const found = named(name);
    if (!found) return found;
    const known = params ? filled.get(params) : unswitched.get(name);
    if (known) return known;
    const made = withLayoutParams(found, params);
    if (params) filled.set(params, made);
    else if (made !== found) unswitched.set(name, made);
    return made;
  };
  const routes = withSharedRoutes(brand.routes, (name) => Object.hasOwn(own, name) || shared.has(name)).map((r, i) => compileRoute(r, i));
  // each route's layout is made now, with the catalog, rather than by the first request for one of its pages
  for (const r of routes) layout(r.layout, r.layoutParams);
  const experiments = compileExperiments(brand, routes, layout, (name, made) => variants.set(name, made), alone);
  // a stopped experiment's winner is its routes' own page
  return { brand, file, routes: experiments.served ? [...experiments.served] : routes, layout, specs, experiments };
}

/**
 * The clean brands of the last catalog built, by file and text, with the shared layouts, parts and
 * block specs they were built against. A publish rebuilds the catalog on every instance, at once
 * and synchronously: with these, it checks and compiles the brands that changed, not all of them
 * (~500 ms for 40 published brands otherwise, every request waiting meanwhile; npm run bench,
 * "catalog rebuild"). On globalThis: Next bundles this module more than once, and the catalog
 * (overlayHolder) is shared by all of them.
 */
interface BuiltBrands {
  specs: BlockSpecs;
  shared: string;
  brands: ReadonlyMap<string, LoadedBrand>;
}
const BUILT = Symbol.for('loansites.catalog.builtBrands');
const builtHolder = globalThis as { [BUILT]?: BuiltBrands };
// digests, not the texts: the texts would be a second copy of every brand held for as long as the process runs
const digest = (text: string) => createHash('sha256').update(text).digest('base64');
const sharedKey = (layoutSources: readonly Source[]) => digest(layoutSources.map((s) => `${s.file}\n${s.text}`).join('\0'));
const builtKey = (src: Source) => `${src.file}\n${digest(src.text)}`;

function builtBrandsFor(specs: BlockSpecs, layoutSources: readonly Source[]): ReadonlyMap<string, LoadedBrand> {
  const held = builtHolder[BUILT];
  return held && held.specs === specs && held.shared === sharedKey(layoutSources) ? held.brands : new Map();
}

/** Holds exactly this build's clean brands: a brand's earlier texts go, so nothing is held the catalog does not hold. */
function keepBuiltBrands(specs: BlockSpecs, layoutSources: readonly Source[], brands: ReadonlyMap<string, LoadedBrand>): void {
  builtHolder[BUILT] = { specs, shared: sharedKey(layoutSources), brands };
}

/** No other file claims one of the brand's hosts (its own, its blog's, its automatic ones). */
function ownsItsHosts(brand: Brand, file: string, hostOwners: HostOwners): boolean {
  for (const host of [...brand.hosts, ...blogHostsOf(brand), ...hostsOfBrand(brand)]) {
    const owner = hostOwners.get(host);
    if (owner !== undefined && owner !== file) return false;
  }
  return true;
}

/**
 * Check and compile brand sources and shared sources: layouts and parts (from disk or from a test),
 * with the block specs (blocks/generated/specs.ts BLOCK_SPECS) their blocks are checked and resolved by.
 */
export function buildCatalog(brandSources: readonly Source[], layoutSources: readonly Source[], specs: BlockSpecs, options: BuildOptions = {}): Catalog {
  const earlier = builtBrandsFor(specs, layoutSources);
  const kept = new Map<string, LoadedBrand>();
  const parsed = new Map<string, { text: string; json: ParsedJson }>();
  const problems: FileProblem[] = [];
  const parse = (src: Source) => {
    const json = parseJson(src.text);
    parsed.set(src.file, { text: src.text, json });
    if (json.error) problems.push({ file: src.file, pointer: json.error.pointer ?? '', message: json.error.message, position: json.error.position });
    return json;
  };

  const parts = new Map<string, SharedPart>();
  for (const src of layoutSources.filter((s) => isPartFile(s.file))) {
    const json = parse(src);
    if (json.error) continue;
    const found = checkPartSchema(json.value).map((p) => ({ ...p, file: src.file }));
    const { links, blocks, routes } = json.value as Omit<SharedPart, 'file'>;
    const kinds = [links, blocks, routes].filter(Boolean).length;
    if (!found.length && kinds !== 1)
      found.push({
        file: src.file,
        pointer: '',
        message: `a part holds one of "links" (a list of links, named where links go), "blocks" (named among a layout's blocks) and "routes" (named among a brand's routes), ${kinds ? 'not more than one' : 'and this has none'}`,
      });
    if (!found.length)
      for (const { pointer, name } of linkListNamesIn(blocks ?? []))
        found.push({ file: src.file, pointer, message: `a shared part belongs to no brand, so it cannot name a link list ("${name}"): write the links here` });
    if (!found.length)
      for (const { pointer, name } of switchesIn(blocks ?? []))
        found.push({
          file: src.file,
          pointer,
          message: `a part's blocks show wherever it is named, so they cannot say "when": remove it here and switch the part where a layout names it ({ "part": "${layoutName(src.file)}", "when": "${name}" })`,
        });
    problems.push(...found);
    if (!found.length) parts.set(layoutName(src.file), { file: src.file, links, blocks, routes });
  }

  const shared = new Map<string, LayoutSource>();
  // where each block of a shared layout that names block parts was written, by file
  const sharedMoved = new Map<string, Moved[]>();
  for (const src of layoutSources.filter((s) => !isPartFile(s.file))) {
    const json = parse(src);
    if (json.error) continue;
    const found = checkLayoutSchema(json.value).map((p) => ({ ...p, file: src.file }));
    const layout = json.value as Layout;
    const expanded = found.length ? undefined : expandParts('blocks', layout.blocks, parts, ['blocks']);
    if (expanded) {
      found.push(...expanded.problems.map((p) => ({ ...p, file: src.file })));
      sharedMoved.set(src.file, expanded.moved);
    }
    if (!found.length)
      for (const { pointer, name } of linkListNamesIn(layout.blocks))
        found.push({
          file: src.file,
          pointer,
          message: `a shared layout belongs to no brand, so it cannot name a link list ("${name}"): write the links here`,
        });
    problems.push(...found);
    if (!found.length) shared.set(layoutName(src.file), { file: src.file, pointer: '', layout: { ...layout, blocks: expanded!.entries as Layout['blocks'] } });
  }

  // Each brand spelt out (its named link lists and content sections in place); a problem found
  // in a spelt-out part is reported where the file wrote it.
  const candidates: ({ src: Source; key: string; again?: LoadedBrand } & ReturnType<typeof expandBrand>)[] = [];
  const brokenIds = new Map<string, FileProblem[]>();
  const brokenHosts: { id: string; hosts: string[] }[] = [];
  for (const src of brandSources) {
    const key = builtKey(src);
    const again = earlier.get(key);
    if (again) {
      // checked again only for its hosts (below), whose pointers are the file's own
      candidates.push({ src, key, brand: again.brand, problems: [], fileFor: (pointer) => pointer, again });
      continue;
    }
    const json = parse(src);
    const value = json.value as Partial<Brand> | undefined;
    const id = typeof value?.id === 'string' ? value.id : layoutName(src.file);
    const own = json.error ? [problems[problems.length - 1]!] : checkBrandSchema(json.value).map((p) => ({ ...p, file: src.file }));
    if (!json.error) problems.push(...own);
    if (own.length) {
      brokenIds.set(brokenKey(id, src.file), own);
      const hosts = Array.isArray(value?.hosts) ? value.hosts.filter((h): h is string => typeof h === 'string') : [];
      brokenHosts.push({ id: brokenKey(id, src.file), hosts });
    } else candidates.push({ src, key, ...expandBrand(value as Brand, parts) });
  }

  // Every file that claims each host. A host two files claim is refused in both: their order in
  // the folder is no reason to give it to one of them (a brand copied from another whose hosts are
  // not yet changed would take the other's domain, and the brand that served it would be left out).
  const claimers = new Map<string, string[]>();
  const claim = (host: string, file: string) => {
    const list = claimers.get(host);
    if (!list) claimers.set(host, [file]);
    else if (!list.includes(file)) list.push(file);
  };
  for (const [h, file] of options.hostOwners ?? []) claim(h, file);
  // A file whose id is not its name (a copy whose id was not changed yet) is refused for that
  // and claims no host: its hosts, and the {id}.localhost its wrong id makes, stay the other brand's.
  for (const { src, brand } of candidates)
    if (brand.id === layoutName(src.file)) for (const h of [...hostsOfBrand(brand), ...blogHostsOf(brand)]) claim(h, src.file);
  /** For one file: another file that claims the host, if there is one. */
  const ownersFor = (file: string): HostOwners => ({ get: (host) => claimers.get(host)?.find((f) => f !== file) ?? claimers.get(host)?.[0] });

  const brands = new Map<string, LoadedBrand>();
  for (const { src, key, brand, problems: unexpanded, fileFor, again } of candidates) {
    // built before from the same text, layouts and specs, without a problem: still without one
    // unless another brand now claims one of its hosts (the only thing its checks read from the others)
    if (again && ownsItsHosts(brand, src.file, ownersFor(src.file))) {
      kept.set(key, again);
      brands.set(brand.id, again);
      continue;
    }
    const raw: FileProblem[] = [...unexpanded.map((p) => ({ ...p, file: src.file })), ...checkBrand(brand, src.file, shared, ownersFor(src.file), specs)];
    const found = raw.map((p) => {
      if (p.file === src.file) return { ...p, pointer: fileFor(p.pointer) };
      const moved = sharedMoved.get(p.file);
      return moved ? { ...p, pointer: pointerVia(moved, p.pointer) } : p;
    });
    problems.push(...found);
    if (found.length) {
      brokenIds.set(brokenKey(brand.id, src.file), found);
      brokenHosts.push({ id: brokenKey(brand.id, src.file), hosts: brand.hosts });
      continue;
    }
    const loaded = loadedBrandOf(brand, src.file, shared, specs, options.alone === true);
    kept.set(key, loaded);
    brands.set(brand.id, loaded);
  }
  // a catalog's build keeps its clean brands for the next (a studio draft's does not: drafts would
  // push out the brands served)
  if (!options.alone) keepBuiltBrands(specs, layoutSources, kept);

  /** Each problem with its line, a line given twice kept once. */
  const withText = (list: readonly FileProblem[]) => {
    const seen = new Set<string>();
    const out: Finding[] = [];
    for (const p of list) {
      const text = formatProblem(p, parsed);
      if (seen.has(text)) continue;
      seen.add(text);
      out.push({ file: p.file, pointer: p.pointer, message: p.message, text });
    }
    return out;
  };
  const formatted = withText(problems).map((f) => f.text);
  const findings = new Map([...brokenIds].map(([id, list]) => [id, withText(list)] as const));
  const broken = new Map([...findings].map(([id, list]) => [id, list.map((f) => f.text)]));
  return {
    brands,
    broken,
    hostMap: buildHostMap([...[...brands.values()].map((b) => b.brand), ...brokenHosts]),
    blogHostMap: new Map([...brands.values()].flatMap((b) => blogHostsOf(b.brand).map((h) => [h, b.brand.id] as const))),
    problems: formatted,
    findings,
    specs,
  };
}

export const projectRoot = () => process.env.LOANSITES_ROOT || process.cwd();
/** An absolute path under the project root. Brand files are read at run time, not bundled: next.config traces brands/. */
const fromRoot = (file: string) => join(/* turbopackIgnore: true */ projectRoot(), file);

const isFileAt = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

function listJson(dir: string): string[] {
  try {
    // a folder named like a file (mkdir brands/acme.json) is no document: reading it would throw
    // EISDIR and take every brand down with it
    return readdirSync(fromRoot(dir))
      .filter((f) => f.endsWith('.json') && isFileAt(join(fromRoot(dir), f)))
      .sort()
      .map((f) => `${dir}/${f}`);
  } catch {
    return [];
  }
}

/**
 * Test-only brands (e.g. a title brand, whose widgets no production brand uses yet): when
 * LOANSITES_EXTRA_BRANDS_DIR names a folder under the project root, its *.json brands are
 * added to brands/. Only the end-to-end server sets it (playwright.config.ts, to
 * tests/fixtures/brands); `npm start`, `npm run build`, the validator and the tests that read
 * the real brands never do.
 */
export const extraBrandsDir = (): string | undefined => process.env.LOANSITES_EXTRA_BRANDS_DIR?.trim().replace(/\/+$/, '') || undefined;

const brandFiles = (extraDir = extraBrandsDir()): string[] => [...listJson('brands'), ...(extraDir ? listJson(extraDir) : [])];

/** The brand files, and the shared files: layouts (brands/layouts/) and parts (brands/parts/) as `layouts`. */
export function readSources(opts: { extraDir?: string } = {}): { brands: Source[]; layouts: Source[] } {
  const read = (file: string): Source => ({ file, text: readFileSync(fromRoot(file), 'utf8') });
  // the shared parts travel with the shared layouts (isPartFile tells them apart)
  return { brands: brandFiles(opts.extraDir ?? extraBrandsDir()).map(read), layouts: [...listJson('brands/layouts'), ...listJson('brands/parts')].map(read) };
}

function signature(): string {
  return [...brandFiles(), ...listJson('brands/layouts'), ...listJson('brands/parts')]
    .map((f) => {
      try {
        const s = statSync(fromRoot(f));
        return `${f}:${s.mtimeMs}:${s.size}`;
      } catch {
        return f;
      }
    })
    .join('|');
}

type Cached = { catalog: Catalog; signature: string; checkedAt: number };
let cached: Cached | undefined;

/**
 * In production the catalog is built once per process and shared: Next loads each route's server
 * code with a module registry of its own, and the front door is bundled apart, so a module-level
 * variable alone held one copy (~10 MB) per route that reads brands. It is never changed once built.
 */
const SHARED = Symbol.for('loansites.catalog');
/** The block specs the process's catalog is built with: handed in once by the entry point, kept beside the catalog. */
const SPECS = Symbol.for('loansites.catalog.specs');
const holder = globalThis as { [SHARED]?: Cached; [SPECS]?: BlockSpecs };

/**
 * Hands the process's catalog its block specs (blocks/generated/specs.ts BLOCK_SPECS). The entry
 * points do, before anything asks for the catalog: server.mjs at its start (through the front
 * door), the brand page's getStaticProps, scripts, the unit tests' setup.
 */
export function setBlockSpecs(specs: BlockSpecs): void {
  holder[SPECS] = specs;
}

/**
 * The catalog of the brand files alone (what the build shipped); development re-checks the files
 * at most every 500 ms.
 */
export function fileCatalog(specs?: BlockSpecs): Catalog {
  if (specs) setBlockSpecs(specs);
  const dev = process.env.NODE_ENV !== 'production';
  if (!dev) cached ??= holder[SHARED];
  if (cached && (!dev || Date.now() - cached.checkedAt < 500)) return cached.catalog;
  const sig = dev ? signature() : '';
  if (cached && sig === cached.signature) {
    cached.checkedAt = Date.now();
    return cached.catalog;
  }
  const given = holder[SPECS];
  if (!given)
    throw new Error(
      'getCatalog: no block specs were handed in: the entry point calls setBlockSpecs(BLOCK_SPECS) or getCatalog(BLOCK_SPECS) first (blocks/generated/specs.ts)',
    );
  const { brands, layouts } = readSources();
  const catalog = buildCatalog(brands, layouts, given);
  for (const line of catalog.problems) console.error(`[brands] ${line}`);
  cached = { catalog, signature: sig, checkedAt: Date.now() };
  if (!dev) holder[SHARED] = cached;
  return catalog;
}

/** A published brand document standing in for (or beside) the files: its id, document and when it was published. */
export interface BrandRevisionSource {
  key: string;
  version: number;
  document: Brand;
  savedAt: string;
}

/**
 * The published revisions the server applies over the files (engine/site/brandLive.ts registers
 * the live set; nothing does in the build, the validator or the unit tests, which read files only).
 */
const REVISIONS = Symbol.for('loansites.catalog.revisions');
/** The catalog with the revisions applied: made once per set of revisions (and per file catalog), shared by every copy of this module. */
const OVERLAY = Symbol.for('loansites.catalog.overlay');
/** Calls made after the catalog changed (server.mjs's front door, the page caches' invalidation). */
const LISTENERS = Symbol.for('loansites.catalog.listeners');

export interface Overlay {
  base: Catalog;
  revisions: ReadonlyMap<string, BrandRevisionSource>;
  catalog: Catalog;
  /** brand id → the text it was built from, to tell which brands a new set changed */
  texts: ReadonlyMap<string, string>;
  /** revisions left out because they do not build (the file, or nothing, applies instead) */
  refused: ReadonlyMap<string, string[]>;
  /** the same, as the console shows them: which version, what applies instead, the problems one by one */
  refusals: ReadonlyMap<string, RefusedRevision>;
}

/** A published revision the catalog leaves out because it does not build (after a deploy, say). */
export interface RefusedRevision {
  id: string;
  /** the revision's brand name */
  name: string;
  /** the file it stands in for (brands/{id}.json, whether or not the brand has one): its problems elsewhere are in a shared layout or part */
  file: string;
  /** the published version left out */
  version: number;
  /** when it was published */
  savedAt: string;
  /** what serves instead: the brand's file as the deploy shipped it, or nothing (a brand made in the studio, or a file that does not build either) */
  instead: 'file' | 'nothing';
  /** its problems in the order the validator gives them: the file they are in (a shared layout's or part's, or the brand's), the pointer, the message */
  problems: readonly Finding[];
}

type CatalogListener = (catalog: Catalog, changed: ReadonlySet<string>) => void;
const overlayHolder = globalThis as {
  [REVISIONS]?: () => ReadonlyMap<string, BrandRevisionSource>;
  [OVERLAY]?: Overlay;
  [LISTENERS]?: Set<CatalogListener>;
};

/** Hands the catalog the published revisions to apply (a function: asked for the current set each time the catalog is). */
export function setBrandRevisionSource(source: (() => ReadonlyMap<string, BrandRevisionSource>) | undefined): void {
  overlayHolder[REVISIONS] = source;
  if (!source) overlayHolder[OVERLAY] = undefined;
}

/** Calls `listener` each time the process's catalog is replaced, with the brands whose documents changed; returns the call that stops it. */
export function onCatalogChange(listener: CatalogListener): () => void {
  const set = (overlayHolder[LISTENERS] ??= new Set());
  set.add(listener);
  return () => set.delete(listener);
}

/** The file a brand's revision stands in for: its own file when it has one, else brands/{id}.json (a brand made in the studio). */
const fileOfRevision = (id: string, brands: readonly Source[]) => brands.find((b) => layoutName(b.file) === id)?.file ?? `brands/${id}.json`;

/** A revision's document as a source: the text the catalog's messages point into, two-space indented like the files. */
export const revisionText = (document: unknown): string => JSON.stringify(document, null, 2) + '\n';

/**
 * The brand sources with revisions applied: the brands without one first, as the files list them,
 * then the revised ones, oldest publication first. Host ownership follows this order, so a
 * revision can never take a host from a brand published before it (it is the one refused).
 */
export function sourcesWithRevisions(brands: readonly Source[], revisions: ReadonlyMap<string, { document: unknown; savedAt?: string }>): Source[] {
  const revised = [...revisions].sort(([, a], [, b]) => (a.savedAt ?? '').localeCompare(b.savedAt ?? ''));
  const ids = new Set(revisions.keys());
  return [
    ...brands.filter((b) => !ids.has(layoutName(b.file))),
    ...revised.map(([id, r]) => ({ file: fileOfRevision(id, brands), text: revisionText(r.document) })),
  ];
}

/**
 * The catalog with the published revisions over the files. A revision that does not build (a
 * deploy changed a shared layout it uses, say) is left out with a log line — its file, or for a
 * brand made in the studio nothing, applies — and never takes another brand down. Brands whose
 * text is what the previous catalog was built from keep their LoadedBrand object, so what hangs
 * off it (sitemaps, brand views) stays.
 */
export function overlayCatalog(base: Catalog, revisions: ReadonlyMap<string, BrandRevisionSource>, previous?: Overlay): Overlay {
  const { brands, layouts } = readSources();
  const specs = base.specs;
  let applied = new Map(revisions);
  let sources = sourcesWithRevisions(brands, applied);
  let catalog = buildCatalog(sources, layouts, specs);
  const refused = new Map<string, string[]>();
  const findings = new Map<string, readonly Finding[]>();
  for (const id of applied.keys()) {
    const problems = catalog.broken.get(id);
    if (!problems) continue;
    refused.set(id, problems);
    findings.set(id, catalog.findings.get(id) ?? []);
    applied.delete(id);
  }
  if (refused.size) {
    applied = new Map(applied);
    sources = sourcesWithRevisions(brands, applied);
    catalog = buildCatalog(sources, layouts, specs);
  }
  const refusals = new Map<string, RefusedRevision>();
  for (const [id, problems] of findings) {
    const r = revisions.get(id)!;
    const name = typeof r.document.name === 'string' && r.document.name ? r.document.name : id;
    refusals.set(id, {
      id,
      name,
      file: fileOfRevision(id, brands),
      version: r.version,
      savedAt: r.savedAt,
      instead: catalog.brands.has(id) ? 'file' : 'nothing',
      problems,
    });
    // told once the catalog without it is built: a brand whose file does not build either is not served
    console.error(
      `[brands] the published revision ${r.version} of "${id}" does not build (${refused.get(id)![0]}); ${catalog.brands.has(id) ? 'its file applies' : 'it is left out'}`,
    );
  }
  const texts = new Map<string, string>();
  for (const src of sources) texts.set(layoutName(src.file), src.text);
  // Keep the brand objects whose text is unchanged: the base's (built from the same files) or the previous overlay's.
  const kept = new Map(catalog.brands);
  for (const [id, loaded] of catalog.brands) {
    const text = texts.get(id);
    const before = previous?.texts.get(id) === text ? previous?.catalog.brands.get(id) : undefined;
    const fromFile = !applied.has(id) ? base.brands.get(id) : undefined;
    const same = before ?? fromFile;
    if (same && same.file === loaded.file) kept.set(id, same);
  }
  return { base, revisions, catalog: { ...catalog, brands: kept }, texts, refused, refusals };
}

/**
 * The catalog for this process: the brand files, with the newest published revision of each brand
 * over its file once the server registered them (setBrandRevisionSource). Made once per set of
 * revisions, not per request. An entry point may hand in the block specs here (setBlockSpecs);
 * the rest of the process, engine code included, asks without them.
 */
export function getCatalog(specs?: BlockSpecs): Catalog {
  const base = fileCatalog(specs);
  const source = overlayHolder[REVISIONS];
  if (!source) return base;
  const revisions = source();
  const overlay = overlayHolder[OVERLAY];
  if (overlay && overlay.base === base && overlay.revisions === revisions) return overlay.catalog;
  if (!overlay && revisions.size === 0) return base;
  const made = overlayCatalog(base, revisions, overlay);
  overlayHolder[OVERLAY] = made;
  const changed = new Set<string>();
  const beforeTexts = overlay?.texts;
  for (const [id, text] of made.texts) if (beforeTexts ? beforeTexts.get(id) !== text : revisions.has(id)) changed.add(id);
  if (beforeTexts) for (const id of beforeTexts.keys()) if (!made.texts.has(id)) changed.add(id);
  for (const listener of overlayHolder[LISTENERS] ?? []) {
    try {
      listener(made.catalog, changed);
    } catch (err) {
      console.error(`[brands] a catalog listener failed: ${(err as Error).message}`);
    }
  }
  return made.catalog;
}

/** The catalog with revisions the process holds now, and which were refused (the studio says so). */
export const currentOverlay = (): Overlay | undefined => overlayHolder[OVERLAY];

/**
 * The published revisions this process leaves out because they do not build, by brand id, as of
 * the current catalog (made first, so a set just published is taken into account). Every
 * instance of a deploy builds the same set from the same files, so each answers the same. Empty
 * where no revision is applied (the build, the validator, a test that reads files only).
 */
export function refusedRevisions(): ReadonlyMap<string, RefusedRevision> {
  getCatalog();
  const overlay = overlayHolder[OVERLAY];
  return overlay && overlayHolder[REVISIONS] ? overlay.refusals : new Map();
}
