// @ts-check
/**
 * The React server build Next's pages router renders with (engine/http/reactRenderer.mjs points
 * Next's `react-dom/server.edge` here): React's Node build, and, for the renders that ask for it
 * (`renderingToString`: a brand page's cache miss rendered by engine/http/coldPageRender.mjs),
 * its `renderToReadableStream` answered from `renderToString`.
 *
 * Why: Next renders a page three times (the page, styled-jsx's registry, the Document), each as a
 * stream of bytes that it reads back into a string (renderToInitialFizzStream, streamToString).
 * React's streaming build encodes every piece of markup into 2 KB byte views as it flushes, and
 * the web stream hands them over one read at a time; its `renderToString` joins the same markup
 * as strings. Here the string is encoded once and handed over as one chunk, so Next's reading is
 * unchanged. Measured with --cpu-prof over never-requested city pages: React's flushing and the
 * stream's plumbing were ~8% of a cold page's CPU.
 *
 * The markup is the same for a tree that does not suspend (brand pages do not: their interactive
 * blocks are loaded before the render, pages/_brand/[brand]/[[...path]].tsx). A boundary that
 * did suspend comes out of renderToString as its fallback, marked to render on the client
 * (`<!--$!-->`): such a render is done again with the streaming build, so the bytes are the
 * stream's. tests/e2e/cold-render.spec.ts compares pages rendered this way with Next's own.
 */
'use strict';
// CommonJS: Next's require hook loads this file with require(), in place of React's (CommonJS) edge build.
/* eslint-disable @typescript-eslint/no-require-imports */
const { AsyncLocalStorage } = require('node:async_hooks');
const node = require('react-dom/server.node');
/* eslint-enable @typescript-eslint/no-require-imports */

/** Set while a render that asked for strings runs (its async continuations included). */
const strings = new AsyncLocalStorage();
const encoder = new TextEncoder();
/** How renderToString marks a Suspense boundary it could not finish (client-rendered). */
const CLIENT_RENDERED = '<!--$!-->';

/**
 * @param {import('react').ReactNode} element @param {any} [options]
 * @returns {Promise<ReadableStream<Uint8Array> & { allReady: Promise<void> }>}
 */
async function renderToReadableStream(element, options) {
  if (!strings.getStore() || options !== undefined) return node.renderToReadableStream(element, options);
  const html = node.renderToString(element);
  if (html.includes(CLIENT_RENDERED)) return node.renderToReadableStream(element, options);
  const bytes = encoder.encode(html);
  const stream = /** @type {ReadableStream<Uint8Array> & { allReady: Promise<void> }} */ (
    new ReadableStream({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    })
  );
  stream.allReady = Promise.resolve();
  return stream;
}

module.exports = {
  ...node,
  renderToReadableStream,
  /**
   * Runs `render` (and whatever it awaits) with its React renders answered from renderToString.
   * @template T @param {() => T} render @returns {T}
   */
  renderingToString: (render) => strings.run(true, render),
};
