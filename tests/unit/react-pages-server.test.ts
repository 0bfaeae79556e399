/**
 * The React server build Next's pages router is given (engine/http/reactPagesServer.cjs): inside
 * `renderingToString` its renderToReadableStream answers from renderToString, as one chunk; the
 * text Next reads back must be the streaming build's, byte for byte, whether the tree suspends or not.
 */
import { createRequire } from 'node:module';
import { createElement, lazy, Suspense, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Stream = ReadableStream<Uint8Array> & { allReady: Promise<void> };
const pages = require('../../engine/http/reactPagesServer.cjs') as {
  renderToReadableStream: (element: ReactNode, options?: object) => Promise<Stream>;
  renderingToString: <T>(render: () => T) => T;
};
const node = require('react-dom/server.node') as { renderToReadableStream: (element: ReactNode) => Promise<Stream> };

/** What Next does with a pages render: wait for all of it, then read the bytes as text. */
async function text(stream: Promise<Stream>): Promise<{ html: string; chunks: number }> {
  const s = await stream;
  await s.allReady;
  let html = '';
  let chunks = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of s as unknown as AsyncIterable<Uint8Array>) {
    chunks++;
    html += decoder.decode(chunk, { stream: true });
  }
  return { html: html + decoder.decode(), chunks };
}

const page = (): ReactNode =>
  createElement(
    'main',
    { className: 'page' },
    createElement('h1', null, 'Payday loans in ', 'Austin, TX'),
    createElement('p', { 'data-x': '"quoted" & <escaped>' }, 'Fees ', 15, ' per $100 — café'),
    createElement(Suspense, { fallback: createElement('span', null, 'loading') }, createElement('section', null, 'ready')),
    Array.from({ length: 400 }, (_, i) => createElement('a', { key: i, href: `/location/tx/city-${i}` }, `City ${i}`)),
  );

describe('the pages router React build', () => {
  it('renders a page that does not suspend as the streaming build does, in one chunk', async () => {
    const streamed = await text(node.renderToReadableStream(page()));
    const joined = await pages.renderingToString(() => text(pages.renderToReadableStream(page())));
    expect(streamed.chunks).toBeGreaterThan(1);
    expect(joined.chunks).toBe(1);
    expect(joined.html).toBe(streamed.html);
  });

  it('renders a tree that suspends with the streaming build (the content, not a client-rendered fallback)', async () => {
    // a component not loaded yet: each render gets its own (a loaded one no longer suspends)
    const tree = () => {
      const Late = lazy(async () => ({ default: () => createElement('b', null, 'late content') }));
      return createElement('div', null, createElement(Suspense, { fallback: createElement('i', null, 'wait') }, createElement(Late)));
    };
    const asked = await pages.renderingToString(() => text(pages.renderToReadableStream(tree())));
    const streamed = await text(node.renderToReadableStream(tree()));
    expect(asked.html).toContain('late content');
    expect(asked.html).toBe(streamed.html);
  });

  it('refuses a render whose markup was read as bytes rather than text (it would go out without it)', async () => {
    const asBytes = async () => {
      const s = await pages.renderToReadableStream(page());
      const parts: Uint8Array[] = [];
      for await (const chunk of s as unknown as AsyncIterable<Uint8Array>) parts.push(chunk);
      return Buffer.concat(parts).toString();
    };
    await expect(pages.renderingToString(asBytes)).rejects.toThrow(/not read back as text/);
  });

  it('outside renderingToString, and with options, it is the streaming build', async () => {
    expect((await text(pages.renderToReadableStream(page()))).chunks).toBeGreaterThan(1);
    expect((await pages.renderingToString(() => text(pages.renderToReadableStream(page(), {})))).chunks).toBeGreaterThan(1);
  });
});
