/**
 * The page model for getStaticProps: route match, then the content the page needs (from the
 * content service), then resolvePage. 'notFound' for anything that is not a page.
 */
import type { Catalog } from './catalog';
import { loadPageContent, needsContent } from './contentLoad';
import { contentSource, publicationState } from '../content/service';
import type { ContentSource } from '../content/types';
import { formTracePublicKey } from '../keys/formTraceKeys';
import type { PageModel } from './model';
import { matchPath, NOT_FOUND_PATH } from './pageMatch';
import { resolvePage } from './resolve';

export async function buildPageModel(
  catalog: Catalog,
  brandId: string,
  path: string,
  opts: { draftMode?: boolean; source?: ContentSource; now?: Date; variant?: { experiment: string; variant: string } } = {},
): Promise<PageModel | 'notFound'> {
  const loaded = catalog.brands.get(brandId);
  if (!loaded) return 'notFound';
  const matched = path === NOT_FOUND_PATH ? undefined : matchPath(loaded, path);
  // an experiment's variant: the same page (path, params, canonical) from the variant's route
  const variantRoute = matched && opts.variant && loaded.experiments.variantRoute(matched.route, opts.variant.experiment, opts.variant.variant);
  if (opts.variant && !variantRoute) return 'notFound';
  const match = matched && variantRoute ? { ...matched, route: variantRoute } : matched;
  // Only a real page (or the brand's own 404 page) is ever rendered and cached: a path that no
  // route of the brand matches is notFound here too, whoever asks for it.
  if (!match && path !== NOT_FOUND_PATH) return 'notFound';
  const layout = match && loaded.layout(match.route.layout, match.route.layoutParams);
  let content;
  if (match && layout && needsContent(match, layout, loaded.specs)) {
    content = await loadPageContent(opts.source ?? contentSource(), loaded, match, layout, publicationState(opts.draftMode));
    if (content === 'notFound') return 'notFound';
  }
  return resolvePage(catalog, brandId, path, opts.now, content, match, traceKeyOnce(`${loaded.brand.id}${path}`)) ?? 'notFound';
}

/**
 * The server's public key for a form that captures its trace, read on the server that renders
 * the page (resolve stays free of key files), once per page and only when a block asks for it.
 * Without a key — a deployment that set none — capture is off for that page, and the log says so.
 */
function traceKeyOnce(page: string): () => string | undefined {
  let read: { key: string | undefined } | undefined;
  return () => {
    if (read) return read.key;
    try {
      read = { key: formTracePublicKey() };
    } catch (err) {
      console.warn(`[form-trace] capture is off on ${page}: ${(err as Error).message}`);
      read = { key: undefined };
    }
    return read.key;
  };
}
