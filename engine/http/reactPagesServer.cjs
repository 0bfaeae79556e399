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
 * as strings. Here the string is handed over as one chunk that stands for it (below), so it is
 * neither encoded nor decoded again. Measured with --cpu-prof over never-requested city pages:
 * React's flushing and the stream's plumbing were ~8% of a cold page's CPU, encoding the joined
 * string and decoding it again ~4%.
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

/**
 * Set while a render that asked for strings runs (its async continuations included): how many of
 * its strings handed to Next have not been read back yet.
 * @type {AsyncLocalStorage<{ unread: number }>}
 */
const strings = new AsyncLocalStorage();
/** How renderToString marks a Suspense boundary it could not finish (client-rendered). */
const CLIENT_RENDERED = '<!--$!-->';

/**
 * Next reads a pages render back with TextDecoder#decode (streamToString): the chunk handed to it
 * can stand for the rendered string itself, so the markup is neither encoded here nor decoded
 * there. A stand-in is an empty Uint8Array known to the decoder below, answered once; any other
 * input is decoded as always. A render whose stand-ins were not all read back this way is refused
 * as a whole (renderingToString throws), so no page can go out without its markup.
 * @type {WeakMap<Uint8Array, string>}
 */
const standIns = new WeakMap();
const decode = TextDecoder.prototype.decode;
TextDecoder.prototype.decode = function decodeOrStandIn(input, options) {
  const text = input === undefined || input === null ? undefined : standIns.get(/** @type {any} */ (input));
  if (text === undefined) return decode.call(this, input, options);
  standIns.delete(/** @type {any} */ (input));
  const state = strings.getStore();
  if (state) state.unread--;
  return text;
};

/**
 * @param {import('react').ReactNode} element @param {any} [options]
 * @returns {Promise<ReadableStream<Uint8Array> & { allReady: Promise<void> }>}
 */
async function renderToReadableStream(element, options) {
  const state = strings.getStore();
  if (!state || options !== undefined) return node.renderToReadableStream(element, options);
  const html = node.renderToString(element);
  if (html.includes(CLIENT_RENDERED)) return node.renderToReadableStream(element, options);
  const chunk = new Uint8Array(0);
  standIns.set(chunk, html);
  state.unread++;
  const stream = /** @type {ReadableStream<Uint8Array> & { allReady: Promise<void> }} */ (
    new ReadableStream({
      start(controller) {
        controller.enqueue(chunk);
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
   * Runs `render` (and whatever it awaits) with its React renders answered from renderToString;
   * rejects when a string it handed over was not read back as text (its result would lack markup).
   * @template T @param {() => Promise<T>} render @returns {Promise<T>}
   */
  renderingToString: async (render) => {
    const state = { unread: 0 };
    const result = await strings.run(state, render);
    if (state.unread !== 0) throw new Error(`${state.unread} rendered string(s) were not read back as text`);
    return result;
  },
};
