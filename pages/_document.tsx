import type { AppType } from 'next/app';
import { Head, Html, Main, NextScript, type DocumentContext, type DocumentProps } from 'next/document';
import { RenderedOnceContext } from '../blocks/chrome/renderedOnce';
import { createRenderOnce } from '../blocks/chrome/renderOnceOnServer';
import { AFTER_PAINT_SCRIPT } from '../engine/browser/afterPaintScript.mjs';
import { REPORTER_SCRIPT } from '../engine/errors/reporterScript.mjs';
import { scriptsAfterPaint } from '../blocks/chrome/afterPaintScripts';
import { stylesheetLinks } from '../blocks/chrome/stylesheetLinks';
import type { PageModel } from '../engine/site/model';
import { jsonLdText } from '../engine/site/seo/seo';
import { consoleArea } from '../engine/site/csp.mjs';
import { hydrationModel } from '../blocks/hydrationModel';

type PageProps = { model?: PageModel };

/**
 * The error reporter is the first script of every page (engine/errors/reporterScript.mjs): its
 * text is constant — the CSP allows it by hash — and the release and brand ride on data
 * attributes.
 *
 * A brand page's HTML carries only the data the browser needs to hydrate it (blocks/hydrationModel.ts):
 * the document renders after the page, and the __NEXT_DATA__ that NextScript writes is replaced
 * here by a new object (the page data Next stores for client-side navigations is not touched).
 * The page's head tags (title, description, canonical, JSON-LD) are written here from the full model.
 */
/**
 * A brand page's head tags, from the full model (blocks/chrome/pageHead.ts rewrites them after a
 * client-side navigation; next/head is not shipped to the browser).
 */
function PageHead({ model }: { model: PageModel }) {
  return (
    <>
      <title>{model.title}</title>
      <meta name="description" content={model.description} />
      {model.status === 200 && !model.noindex ? <link rel="canonical" href={model.canonical} /> : <meta name="robots" content="noindex" />}
      <meta name="theme-color" content={model.brand.theme} />
      {model.jsonLd.map((ld, i) => (
        <script key={i} type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(ld) }} />
      ))}
    </>
  );
}

/**
 * Next's head with its chunk scripts started after the first paint (engine/browser/afterPaintScript.mjs):
 * the same chunks in the same order, named by preloads the loader at the end of the body runs; and
 * its stylesheet named once (blocks/chrome/stylesheetLinks.ts).
 */
class AfterPaintHead extends Head {
  override getCssLinks(files: Parameters<Head['getCssLinks']>[0]) {
    return stylesheetLinks(super.getCssLinks(files));
  }
  override getScripts(files: Parameters<Head['getScripts']>[0]) {
    return scriptsAfterPaint(super.getScripts(files));
  }
  override getDynamicChunks(files: Parameters<Head['getDynamicChunks']>[0]) {
    return scriptsAfterPaint(super.getDynamicChunks(files));
  }
}

/** Header and footer, once per brand view (blocks/chrome/renderedOnce.tsx). */
const renderOnce = createRenderOnce();

function withRenderOnce(App: AppType): AppType {
  const WithRenderOnce: AppType = (props) => (
    <RenderedOnceContext.Provider value={renderOnce}>
      <App {...props} />
    </RenderedOnceContext.Provider>
  );
  return WithRenderOnce;
}

export default function Document(props: DocumentProps) {
  const data = props.__NEXT_DATA__;
  const pageProps = (data.props as { pageProps?: PageProps } | undefined)?.pageProps;
  const model = pageProps?.model;
  // The page's data is serialised for hydration from this very object (NextScript reads it from
  // Next's context), so the slimmed model has to be written into it; the Document renders once,
  // on the server, and is never re-rendered or compiled by React.
  // eslint-disable-next-line react-hooks/immutability
  if (model && Array.isArray(model.blocks)) data.props = { ...data.props, pageProps: { ...pageProps, model: hydrationModel(model) } };
  // The console's pages run no script at all (its policy allows none: engine/site/csp.mjs CONSOLE_POLICY),
  // but for the studio's editor, whose chunks the after-paint loader starts (engine/site/csp.mjs studioPolicy).
  const consolePage = data.page.startsWith('/_console');
  const studioEditor = consoleArea(data.page) === 'studio';
  return (
    // the brand's language and region (en-CA, en-AU…): screen readers and search engines read it
    <Html lang={model?.brand?.locale ?? 'en'}>
      <AfterPaintHead>
        {!consolePage && (
          <script data-release={process.env.LOANSITES_RELEASE} data-brand={model?.brand?.id} dangerouslySetInnerHTML={{ __html: REPORTER_SCRIPT }} />
        )}
        <link rel="icon" href="/favicon.ico" />
        {model && <PageHead model={model} />}
      </AfterPaintHead>
      <body>
        <Main />
        <NextScript />
        {(!consolePage || studioEditor) && <script dangerouslySetInnerHTML={{ __html: AFTER_PAINT_SCRIPT }} />}
      </body>
    </Html>
  );
}

/** Next's own rendering of the page, inside the render-once provider (the server's only). */
Document.getInitialProps = (ctx: DocumentContext) =>
  ctx.defaultGetInitialProps({
    ...ctx,
    renderPage: (options) =>
      ctx.renderPage(
        typeof options === 'function'
          ? { enhanceApp: withRenderOnce, enhanceComponent: options }
          : { ...options, enhanceApp: (App) => withRenderOnce(options?.enhanceApp ? options.enhanceApp(App) : App) },
      ),
  });
