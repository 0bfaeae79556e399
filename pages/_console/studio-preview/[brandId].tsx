/**
 * A draft's page, rendered by the real engine (the draft put in the catalog in place of what is
 * published, then the page model every visitor's page is built from) and the same components a
 * brand's page uses — there is no second renderer. Only a signed address for the viewer's own
 * session opens it (engine/console/studioPreview.ts); it is never stored (no-store), never indexed
 * and never enters the page cache: it is a console page, rendered per request, and runs no script.
 */
import type { GetServerSideProps } from 'next';
import { Blocks } from '../../../blocks/Blocks';
import { preloadBlocks } from '../../../blocks/loading';
import { Layout } from '../../../blocks/chrome/Layout';
import { BLOCK_SPECS } from '../../../blocks/generated/specs';
import { consoleRequestOf, queryText } from '../../../engine/console/pages';
import { requireUser } from '../../../engine/console/api';
import { previewTokenValid } from '../../../engine/console/studioPreview';
import { catalogWithBrand } from '../../../engine/site/brandOverlay';
import { getCatalog, type Catalog } from '../../../engine/site/catalog';
import type { PageModel } from '../../../engine/site/model';
import { buildPageModel } from '../../../engine/site/pageModel';
import { getStore } from '../../../engine/store/db';
import { brandDraft, publishedBrand, brandFile } from '../../../engine/store/brandRevisions';
import type { Brand } from '../../../schemas/brand.types';

export const config = { unstable_runtimeJS: false };

type Props = { model: PageModel } | { refused: string };

// Both frames (390 and 1,280 px) ask for the same page of the same draft at once: its model is
// built once per draft catalog (kept as long as brandOverlay keeps that catalog) and path.
const models = new WeakMap<Catalog, Map<string, Promise<PageModel | 'notFound'>>>();
function modelOf(catalog: Catalog, brand: string, path: string): Promise<PageModel | 'notFound'> {
  let byPath = models.get(catalog);
  if (!byPath) models.set(catalog, (byPath = new Map()));
  let model = byPath.get(path);
  if (!model) {
    // the promise is kept, so the second frame waits for the first one's build instead of repeating it
    model = buildPageModel(catalog, brand, path, { draftMode: false });
    byPath.set(path, model);
    model.catch(() => byPath.delete(path));
    if (byPath.size > 8) byPath.delete(byPath.keys().next().value!);
  }
  return model;
}

export const getServerSideProps: GetServerSideProps<Props> = async (ctx) => {
  ctx.res.setHeader('Cache-Control', 'no-store');
  ctx.res.setHeader('X-Robots-Tag', 'noindex');
  const refuse = (status: number, refused: string) => {
    ctx.res.statusCode = status;
    return { props: { refused } };
  };
  const brand = typeof ctx.params?.brandId === 'string' ? ctx.params.brandId : '';
  const path = queryText(ctx.query.path, 400) || '/';
  const db = await getStore();
  const who = await requireUser(db, consoleRequestOf(ctx), 'studio.view');
  if ('refused' in who || !previewTokenValid(who.token, brand, path, ctx.query.token))
    return refuse(403, 'This preview address has expired or is not yours: open the preview from the studio again.');
  const draft = (await brandDraft(db, brand)) ?? (await publishedBrand(db, brand));
  const file = draft ? undefined : brandFile(brand);
  const document = draft?.document ?? (file ? (JSON.parse(file.text) as Brand) : undefined);
  if (!document) return refuse(404, `There is no brand "${brand}".`);
  getCatalog(BLOCK_SPECS);
  const catalog = catalogWithBrand(brand, document);
  if (!catalog.brands.has(brand)) return refuse(422, 'The draft has problems the studio lists; the preview shows it again once they are fixed.');
  const model = await modelOf(catalog, brand, path);
  if (model === 'notFound') return refuse(404, `The draft has no page at ${path}.`);
  await preloadBlocks(model.blocks.map((b) => b.type));
  return { props: { model } };
};

export default function StudioPreview(props: Props) {
  if ('refused' in props)
    return (
      <main className="p-4">
        <p>{props.refused}</p>
      </main>
    );
  const { model } = props;
  return (
    <Layout brand={model.brand} kept={false} stickyApply={!model.noApply}>
      <Blocks blocks={model.blocks} brand={model.brand} />
    </Layout>
  );
}
