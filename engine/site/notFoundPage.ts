/**
 * What the error page shows when a brand page is not found. The front door
 * (engine/frontDoor/frontDoor.ts) decides the brand: it hands Next a known host's pages as
 * /_brand/{brand}/{path}, and a path no route matches as that brand's not-found path. When the
 * brand page's getStaticProps answers notFound (no route matches, the content is missing, a
 * draft without draft mode), Next renders pages/_error.tsx with status 404 for that URL, and the
 * brand it names is the brand whose 404 page is shown. A path the front door hands Next untouched
 * (its own files, the API) has no brand in it: the host's brand is found by the same lookup the
 * front door uses. Nothing is cached per path: the 404 page model is built once per brand and
 * catalog.
 */
import type { Catalog } from './catalog';
import { getCatalog } from './catalog';
import { brandOfHost, requestHost } from './hosts';
import { brandOfInternalPath } from '../browser/requestPath';
import type { PageModel } from './model';
import { buildPageModel } from './pageModel';
import { NOT_FOUND_PATH } from './pageMatch';
import { blogHostView, withMainSiteLinks } from './blogLinks';
import { origin } from './seo/seo';

export type NotFoundView = { kind: 'brand'; model: PageModel } | { kind: 'unavailable' } | { kind: 'plain' };

export interface NotFoundRequest {
  /** the URL Next was handed (req.url) */
  url?: string | undefined;
  host?: string | undefined;
  forwardedHost?: string | undefined;
}

const models = new WeakMap<Catalog, Map<string, PageModel>>();

export async function notFoundView(req: NotFoundRequest, catalog: Catalog = getCatalog()): Promise<NotFoundView> {
  const owner = brandOfHost(catalog, requestHost(req, process.env.TRUST_FORWARDED_HOST === '1'));
  const brandId = brandOfInternalPath(req.url ?? '') ?? owner?.id;
  if (!brandId) return { kind: 'plain' };
  const loaded = catalog.brands.get(brandId);
  if (!loaded) return catalog.broken.has(brandId) ? { kind: 'unavailable' } : { kind: 'plain' };
  // A blog host serves only /blog pages: there the 404 page's header, footer and links lead to
  // the brand's primary host, as on its blog pages (engine/site/blogLinks.ts), not to a 404 each.
  const onBlogHost = owner?.blog === true && owner.id === brandId && !!loaded.brand.blogHost;
  const key = onBlogHost ? `${brandId} blog` : brandId;
  let perBrand = models.get(catalog);
  if (!perBrand) models.set(catalog, (perBrand = new Map()));
  let model = perBrand.get(key);
  if (!model) {
    const built = await buildPageModel(catalog, brandId, NOT_FOUND_PATH);
    if (built === 'notFound') return { kind: 'plain' };
    const main = origin(loaded.brand);
    model = onBlogHost ? { ...built, brand: blogHostView(built.brand, main), blocks: withMainSiteLinks(built.blocks, main) } : built;
    perBrand.set(key, model);
  }
  return { kind: 'brand', model };
}
