import { Head, Html, Main, NextScript, type DocumentProps } from 'next/document';
import { REPORTER_SCRIPT } from '../engine/errors/reporterScript.mjs';

/**
 * The error reporter is the first script of every page (engine/errors/reporterScript.mjs): its
 * text is constant — the CSP allows it by hash — and the release and brand ride on data
 * attributes.
 */
export default function Document(props: DocumentProps) {
  const model = (props.__NEXT_DATA__.props as { pageProps?: { model?: { brand?: { id?: string } } } } | undefined)?.pageProps?.model;
  return (
    <Html lang="en">
      <Head>
        <script data-release={process.env.LOANSITES_RELEASE} data-brand={model?.brand?.id} dangerouslySetInnerHTML={{ __html: REPORTER_SCRIPT }} />
        <link rel="icon" href="/favicon.ico" />
      </Head>
      <body>
        <Main />
        <NextScript />
      </body>
    </Html>
  );
}
