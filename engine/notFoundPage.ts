/**
 * What the error page shows when a brand page is not found. The front door
 * (engine/http/frontDoor.ts) hands Next a known host's page paths as the brand catch-all's, and
 * a path no route matches as its not-found path; when its getStaticProps answers notFound (no route of the brand matches, the content is missing, a
 * draft without draft mode), Next renders pages/_error.tsx with status 404, which asks here for
 * the brand of the request's host and shows that brand's own 404 page. Nothing is cached per
 * path: the 404 page model is built once per brand and catalog.
 */
import type { Catalog } from './catalog';
import { getCatalog } from './catalog';
import { lookupBrandId, requestHost } from './hosts';
import type { PageModel } from './model';
import { buildPageModel } from './pageModel';
import { NOT_FOUND_PATH } from './resolve';

export type NotFoundView = { kind: 'brand'; model: PageModel } | { kind: 'unavailable' } | { kind: 'plain' };

const models = new WeakMap<Catalog, Map<string, PageModel>>();

export async function notFoundView(headers: { host?: string | undefined; forwardedHost?: string | undefined }): Promise<NotFoundView> {
  const catalog = getCatalog();
  const host = requestHost(headers, process.env.TRUST_FORWARDED_HOST === '1');
  const brandId = lookupBrandId(catalog.blogHostMap, host) ?? lookupBrandId(catalog.hostMap, host);
  if (!brandId) return { kind: 'plain' };
  if (!catalog.brands.has(brandId)) return { kind: 'unavailable' };
  let perBrand = models.get(catalog);
  if (!perBrand) models.set(catalog, (perBrand = new Map()));
  let model = perBrand.get(brandId);
  if (!model) {
    const built = await buildPageModel(catalog, brandId, NOT_FOUND_PATH);
    if (built === 'notFound') return { kind: 'plain' };
    perBrand.set(brandId, (model = built));
  }
  return { kind: 'brand', model };
}
