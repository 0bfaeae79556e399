/**
 * Does a content route name real content? Asked by proxy.ts before rewriting, so that a
 * missing article, an empty category or a page past the end gets the brand's 404 with status
 * 404. Answers are cached briefly; when the content service fails, the answer is "yes" and the
 * page (or ISR's last good version of it) is served.
 */
import type { LoadedBrand } from '../catalog';
import type { RouteMatch } from '../routes';
import { contentDecidesPage, loadPageContent } from './load';
import { contentSource, publicationState } from './service';

const TTL_MS = 60_000;
const MAX_ENTRIES = 5000;
// On globalThis: proxy.ts and the API routes are separate bundles in one process, and the
// revalidate route must be able to clear what the proxy cached.
const store = globalThis as typeof globalThis & { __loansitesContentExists?: Map<string, { ok: boolean; expires: number }> };
const cache = (store.__loansitesContentExists ??= new Map());

export async function contentPageExists(loaded: LoadedBrand, match: RouteMatch, path: string, draftMode: boolean): Promise<boolean> {
  const layout = loaded.layout(match.route.layout);
  if (!layout || !contentDecidesPage(match, layout)) return true;
  const key = `${draftMode ? 'P' : 'L'}:${loaded.brand.id}:${path}`;
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return hit.ok;
  let ok = true;
  try {
    ok = (await loadPageContent(contentSource(), loaded.brand, match, layout, publicationState(draftMode))) !== 'notFound';
  } catch {
    return true; // service trouble: let the page (or its last good version) answer
  }
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { ok, expires: Date.now() + TTL_MS });
  return ok;
}

/** Forget cached answers (on revalidation). */
export const forgetContentAnswers = (brandId?: string): void => {
  for (const key of [...cache.keys()]) if (!brandId || key.split(':')[1] === brandId) cache.delete(key);
};
