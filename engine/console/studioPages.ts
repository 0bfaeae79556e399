/**
 * What the studio's pages load on the server: a brand's document as the editor starts from (its
 * newest draft, else its published revision, else its file), its problems as `npm run validate`
 * words them, and the layouts and parts its pickers list.
 */
import { factsOf, type LayoutFacts } from '../browser/studio/layoutFacts';
import { checkBrandDocument, isLayoutSource } from '../site/brandOverlay';
import { telephoneProblemsOf } from '../site/brandChecks/telephone';
import { getCatalog, isPartFile, readSources } from '../site/catalog';
import { parseJson } from '../validate/locate';
import type { Store } from '../store/db';
import { brandDraft, brandFile, brandFileChanged, publishedBrand } from '../store/brandRevisions';
import type { Problem } from '../browser/studio/problemFields';
import { requireUser, type ConsoleRequest } from './api';
import { mayEditBrand } from './roles';

export interface StudioBrand {
  document: Record<string, unknown>;
  /** the newest draft's version (0: none yet) */
  version: number;
  published?: { version: number; author: string; savedAt: string };
  lastChange?: { author: string; savedAt: string };
  fileChanged: boolean;
}

/** The brand as the studio opens it, or undefined for an id that names no brand. */
export async function studioBrand(db: Store, id: string): Promise<StudioBrand | undefined> {
  const [draft, published] = await Promise.all([brandDraft(db, id), publishedBrand(db, id)]);
  const file = brandFile(id);
  let document = (draft ?? published)?.document as Record<string, unknown> | undefined;
  if (!document && file) {
    try {
      document = JSON.parse(file.text) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
  if (!document) return undefined;
  const last = draft ?? published;
  return {
    document,
    version: draft?.version ?? 0,
    ...(published ? { published: { version: published.version, author: published.author, savedAt: published.savedAt } } : {}),
    ...(last ? { lastChange: { author: last.author, savedAt: last.savedAt } } : {}),
    fileChanged: brandFileChanged(published, file),
  };
}

export const studioProblems = (id: string, document: unknown): Problem[] =>
  [...checkBrandDocument(id, document).problems, ...telephoneProblemsOf(id, document)].map((p) => ({
    pointer: p.pointer,
    message: p.message,
    text: p.text,
    file: p.file,
  }));

export interface StudioRefs {
  sharedLayouts: Record<string, LayoutFacts>;
  blockParts: string[];
  routeParts: string[];
  knownPages: string[];
}

let refsCache: { catalog: unknown; refs: Omit<StudioRefs, 'knownPages'> } | undefined;

/** The shared layouts (with their facts) and parts, read once per catalog, and the brand's served pages. */
export function studioRefs(id: string): StudioRefs {
  const catalog = getCatalog();
  if (refsCache?.catalog !== catalog) {
    const { layouts } = readSources();
    const sharedLayouts: Record<string, LayoutFacts> = {};
    const blockParts: string[] = [];
    const routeParts: string[] = [];
    // a file that does not parse is the validator's to report; here it offers nothing to pick
    const parsed = layouts.flatMap((src) => {
      const json = parseJson(src.text).value;
      return json && typeof json === 'object' ? [{ src, json: json as Record<string, unknown>, name: src.file.replace(/^.*\/|\.json$/g, '') }] : [];
    });
    for (const { src, json, name } of parsed) {
      if (isLayoutSource(src)) sharedLayouts[name] = factsOf(json);
      else if (isPartFile(src.file)) (json.routes ? routeParts : blockParts).push(name);
    }
    refsCache = { catalog, refs: { sharedLayouts, blockParts: blockParts.sort(), routeParts: routeParts.sort() } };
  }
  const routes = getCatalog().brands.get(id)?.routes ?? [];
  return { ...refsCache.refs, knownPages: routes.filter((r) => !r.path.includes('{')).map((r) => r.path) };
}

/** Whether the signed-in user of this request may change this brand (an editor limited to some brands, others read-only). */
export async function mayEditHere(db: Store, req: ConsoleRequest, id: string): Promise<boolean> {
  const who = await requireUser(db, req, 'studio.edit');
  return !('refused' in who) && mayEditBrand(who.user, id);
}
