/**
 * Next renders this page for a 404 (500s have pages/500.tsx). A brand page that is not found
 * (its getStaticProps answered notFound) shows the brand's own 404 page: the brand the front door
 * chose (engine/site/notFoundPage.ts); a broken brand's host says the site is unavailable (503).
 * In the browser (a client-side navigation that ended on a 404) the page is loaded for real, so
 * that the server renders the brand's page.
 */
import type { NextPageContext } from 'next';
import Head from 'next/head';
import { Blocks } from '../blocks/Blocks';
import { preloadBlocks } from '../blocks/registry';
import { Layout } from '../blocks/chrome/Layout';
import type { PageModel } from '../engine/site/model';
import { isHydrationModel, type ClientModel } from '../blocks/hydrationModel';

type Props = { model?: PageModel | ClientModel; unavailable?: boolean; statusCode: number };

export default function ErrorPage({ model, unavailable, statusCode }: Props) {
  if (model) {
    // As a brand page: the document writes the head from the full model and sends the browser the
    // hydration model (static parts kept from the server's HTML).
    return (
      <Layout brand={model.brand} kept={isHydrationModel(model)} stickyApply={!model.noApply}>
        <Blocks blocks={model.blocks} brand={model.brand} />
      </Layout>
    );
  }
  const text = unavailable
    ? 'This site is temporarily unavailable.'
    : statusCode === 404
      ? 'Page not found'
      : 'Sorry, something went wrong with this service. Please refresh this page or try again later.';
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <h1 className="text-2xl font-bold">{text}</h1>
      {unavailable ? <p>Its configuration has a problem; the other sites are not affected.</p> : null}
    </main>
  );
}

ErrorPage.getInitialProps = async ({ req, res, err, asPath }: NextPageContext): Promise<Props> => {
  const statusCode = res?.statusCode ?? err?.statusCode ?? 404;
  if (typeof window !== 'undefined') {
    // A client-side navigation ended here: load the address for real (the server knows the brand).
    if (asPath) window.location.assign(asPath);
    return new Promise<Props>(() => {});
  }
  if (statusCode !== 404 || !req) return { statusCode };
  const { notFoundView } = await import('../engine/site/notFoundPage');
  const forwarded = req.headers['x-forwarded-host'];
  const view = await notFoundView({ url: req.url, host: req.headers.host, forwardedHost: Array.isArray(forwarded) ? forwarded[0] : forwarded });
  if (view.kind === 'unavailable') {
    if (res) res.statusCode = 503;
    return { statusCode: 503, unavailable: true };
  }
  if (view.kind === 'plain') return { statusCode };
  await preloadBlocks(view.model.blocks.map((b) => b.type));
  return { statusCode, model: view.model };
};
