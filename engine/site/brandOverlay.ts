/**
 * One brand document checked and placed among the others as the studio edits it: the problems
 * `npm run validate` would print for it (same words, same "file:line:col /pointer: message"
 * line), each with the JSON pointer of the field it concerns, and the catalog with the document in
 * place for the preview. The other brands are the ones the process serves (their files, or their
 * published revisions), so a host another brand holds is refused here exactly as it would be in
 * the catalog: two brands can never claim the same host.
 */
import type { Brand } from '../../schemas/brand.types';
import { isDeployment } from '../keys/keyFormat.mjs';
import { placeholdersInBrandText } from '../validate/placeholders';
import { blogHostsOf, consoleHostsOf, hostsOfBrand } from './hosts';
import { buildCatalog, getCatalog, isPartFile, readSources, revisionText, type Catalog, type Source } from './catalog';

export interface BrandProblem {
  /** where in the brand document ('' for the document as a whole, or a problem in a shared file) */
  pointer: string;
  message: string;
  /** the line `npm run validate` prints for it */
  text: string;
  /** the file the problem was found in (the brand's own, brands/{id}.json, or a shared layout or part it uses) */
  file: string;
}

export interface CheckOptions {
  /** the brands the document is checked among (default: the process's catalog) */
  catalog?: Catalog;
  /** the shared layouts and parts (default: read from brands/) */
  layouts?: readonly Source[];
  /** also refuse production placeholders (default: in a deployment, LOANSITES_DEPLOYMENT=production, as the build does) */
  production?: boolean;
}

/** The file a brand's document stands for: its own file, or brands/{id}.json for a brand made in the studio. */
const fileOf = (id: string, catalog: Catalog) => catalog.brands.get(id)?.file ?? `brands/${id}.json`;

let sharedLayouts: { catalog: Catalog; layouts: Source[] } | undefined;
/** The shared layouts and parts, read once per file catalog (they change only with a deploy, or an edit in development). */
function layoutsFor(catalog: Catalog): Source[] {
  if (sharedLayouts?.catalog !== catalog) sharedLayouts = { catalog, layouts: readSources().layouts };
  return sharedLayouts.layouts;
}

/** Who holds the console's hosts, as a problem names it: a brand there would never be served (the console answers first). */
export const CONSOLE_OWNER = 'the console';

/** host → the file of the brand holding it (or the console), for every brand but `id`. */
function otherHosts(catalog: Catalog, id: string): Map<string, string> {
  const owners = new Map<string, string>();
  for (const h of consoleHostsOf(process.env)) owners.set(h, CONSOLE_OWNER);
  for (const [other, loaded] of catalog.brands) {
    if (other === id) continue;
    for (const h of [...hostsOfBrand(loaded.brand), ...blogHostsOf(loaded.brand)]) if (!owners.has(h)) owners.set(h, loaded.file);
  }
  return owners;
}

/** The document built alone as a catalog (with the shared layouts), the hosts of every other brand already taken. */
function buildAlone(
  id: string,
  document: unknown,
  catalog: Catalog,
  layouts: readonly Source[],
  text = revisionText(document),
): { built: Catalog; file: string; text: string } {
  const file = fileOf(id, catalog);
  return { built: buildCatalog([{ file, text }], layouts, catalog.specs, { hostOwners: otherHosts(catalog, id), alone: true }), file, text };
}

/** Every problem of a brand document among the process's brands, as `npm run validate` words it, with its pointer. */
export function checkBrandDocument(id: string, document: unknown, options: CheckOptions = {}): { problems: BrandProblem[] } {
  const catalog = options.catalog ?? getCatalog();
  // among the process's brands and shared layouts, the catalog built here is the one the preview
  // shows: kept for it, so a saved draft is built once, not once to check and again per frame
  const { built, file, text } =
    catalog === getCatalog() && !options.layouts
      ? builtAmongServed(id, document, catalog)
      : buildAlone(id, document, catalog, options.layouts ?? layoutsFor(catalog));
  const docId = document && typeof document === 'object' && typeof (document as { id?: unknown }).id === 'string' ? (document as { id: string }).id : id;
  const problems: BrandProblem[] = (built.findings.get(docId) ?? built.findings.get(id) ?? []).map((f) => ({
    // a problem found in a shared layout or part this brand uses: shown at the top, not at a field of the brand
    pointer: f.file === file ? f.pointer : '',
    message: f.message,
    text: f.text,
    file: f.file,
  }));
  if (options.production ?? isDeployment(process.env))
    for (const p of placeholdersInBrandText(file, text))
      problems.push({
        pointer: p.pointer,
        message: p.message,
        text: `${file}:${p.position.line}:${p.position.column} ${p.pointer || '/'}: ${p.message}`,
        file,
      });
  return { problems };
}

const previews: { key: string; base: Catalog; built: ReturnType<typeof buildAlone> }[] = [];

/** buildAlone among the served brands, the last few kept (keyed by the document's text and the catalog it was placed in). */
function builtAmongServed(id: string, document: unknown, base: Catalog): ReturnType<typeof buildAlone> {
  const text = revisionText(document);
  const key = `${id}\n${text}`;
  const known = previews.find((p) => p.key === key && p.base === base);
  if (known) return known.built;
  const built = buildAlone(id, document, base, layoutsFor(base), text);
  previews.unshift({ key, base, built });
  if (previews.length > 3) previews.pop();
  return built;
}

/**
 * A catalog holding one brand's document (in place of its published one, or a brand not published
 * yet), checked exactly as the process's catalog would check it, for the preview: the brand alone
 * with the shared layouts, so a preview costs the memory of one brand, not of every brand. The
 * last few are kept: the preview asks for the same draft again as its frames load. A document with
 * problems is in `broken` (and its `findings`), not in `brands`. A draft checked by
 * checkBrandDocument as it was saved is found here already built.
 */
export function catalogWithBrand(id: string, document: Brand): Catalog {
  return builtAmongServed(id, document, getCatalog()).built;
}

/** Whether a source is a shared layout (not a part): for callers listing what a brand's routes may name. */
export const isLayoutSource = (src: Source): boolean => !isPartFile(src.file) && src.file.startsWith('brands/layouts/');
