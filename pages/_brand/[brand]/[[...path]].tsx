/**
 * The brand catch-all. The front door (engine/frontDoor/frontDoor.ts) maps {host}{path} to
 * /_brand/{brandId}{path}; this page resolves the page model at build or on first request and
 * caches it per brand and path (ISR). A path no route of the brand matches is notFound here
 * (never cached): pages/_error.tsx shows the brand's own 404 page.
 */
import type { GetStaticPaths, GetStaticProps } from 'next';
import { useEffect } from 'react';
import { Blocks } from '../../../blocks/Blocks';
import { loadStaticBlocks, preloadBlocks } from '../../../blocks/loading';
import { Layout } from '../../../blocks/chrome/Layout';
import { getCatalog } from '../../../engine/site/catalog';
import type { PageModel } from '../../../engine/site/model';
import { isHydrationModel, type ClientModel } from '../../../blocks/hydrationModel';
import { BLOCK_SPECS } from '../../../blocks/generated/specs';
import { NOT_FOUND_PATH } from '../../../engine/site/pageMatch';
import { buildPageModel } from '../../../engine/site/pageModel';
import { reportServerError } from '../../../engine/errors/report';
import { readVariantPath } from '../../../engine/site/experiments/variants';
import { renderBegins } from '../../../engine/cache/brandRenders.mjs';
import { internalPath } from '../../../engine/browser/requestPath';

/** A page's lifetime in the cache (not exported: a page module's exports are sent to the browser). */
const REVALIDATE_SECONDS = 3600;

export const getStaticPaths: GetStaticPaths = () => {
  const catalog = getCatalog(BLOCK_SPECS);
  const paths = [...catalog.brands.keys()].flatMap((brand) => [{ params: { brand, path: [] } }, { params: { brand, path: [NOT_FOUND_PATH.slice(1)] } }]);
  return { paths, fallback: 'blocking' };
};

/**
 * A content service failure for the page's own content throws here: Next keeps serving the
 * last good version of the page, or shows the error page when there is none. Either way it is
 * reported (engine/errors/report.ts).
 */
export const getStaticProps: GetStaticProps<{ model: PageModel }> = async ({ params, draftMode }) => {
  const brand = typeof params?.brand === 'string' ? params.brand : '';
  const segments = Array.isArray(params?.path) ? params.path : [];
  const asked = '/' + segments.join('/');
  // an experiment's variant is a page of its own (its own cache entry) at /_v~{experiment}~{variant}{path}
  const variant = readVariantPath(asked);
  const path = variant?.path ?? asked;
  // before the catalog is read: a page made from a brand document that changes meanwhile is not cached
  renderBegins(internalPath(brand, asked));
  let model: Awaited<ReturnType<typeof buildPageModel>>;
  try {
    model = await buildPageModel(getCatalog(BLOCK_SPECS), brand, path, { draftMode: draftMode === true, ...(variant ? { variant } : {}) });
  } catch (err) {
    reportServerError(err, { kind: 'getStaticProps', brand, url: path });
    throw err;
  }
  if (model === 'notFound') return { notFound: true, revalidate: 60 };
  // Interactive blocks render on the server without suspending (no inline reveal script: CSP).
  await preloadBlocks(model.blocks.map((b) => b.type));
  return { props: { model }, revalidate: model.revalidate ?? REVALIDATE_SECONDS };
};

/**
 * model: on a first load the hydration model (pages/_document.tsx: static parts kept from the
 * server's HTML; the head's tags, JSON-LD included, written by the document from the full model);
 * after a client-side navigation the full one, and the head is rewritten from it.
 */
export default function BrandPage({ model }: { model: ClientModel }) {
  useEffect(() => {
    if (!isHydrationModel(model)) void loadStaticBlocks().then((m) => m.writePageHead(model));
  }, [model]);
  return (
    <Layout brand={model.brand} kept={isHydrationModel(model)} stickyApply={!model.noApply}>
      <Blocks blocks={model.blocks} brand={model.brand} />
    </Layout>
  );
}
