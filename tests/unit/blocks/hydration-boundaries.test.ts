/**
 * The page renderer puts each interactive block in a Suspense boundary, written in place by the
 * server: the browser then hydrates those blocks after the rest of the page in short slices, not in
 * one long task (blocks/Blocks.tsx). The HTML must be the same apart from the boundaries' comments,
 * and never a hidden segment moved into place by a script (engine/http/reactRenderer.mjs).
 */
import { createRequire } from 'node:module';
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Blocks } from '../../../blocks/Blocks';
import { preloadBlocks } from '../../../blocks/registry';
import { buildCatalog, readSources } from '../../../engine/catalog';
import { createEmbeddedSource } from '../../../engine/content/embedded';
import { embeddedIndex } from '../../../engine/content/service';
import type { PageModel } from '../../../engine/model';
import { buildPageModel } from '../../../engine/pageModel';
import { writeBoundariesInPlace } from '../../../engine/http/reactRenderer.mjs';
import BrandPage from '../../../pages/_brand/[brand]/[[...path]]';
import { SAMPLE_NOW } from '../../support/pageSamples';

type Build = { renderToReadableStream: (element: unknown, options?: object) => Promise<ReadableStream<Uint8Array> & { allReady: Promise<void> }> };

const sources = readSources();
const catalog = buildCatalog(sources.brands, sources.layouts);
const source = createEmbeddedSource(embeddedIndex());
// The build Next renders pages with (server.mjs points it at this one), as React ships it and as the server sets it up.
const nodeBuild = createRequire(import.meta.url)('react-dom/server.node') as Build;
const asServerRenders: Build = { ...nodeBuild };
writeBoundariesInPlace(asServerRenders);

async function model(brand: string, path: string): Promise<PageModel> {
  const m = await buildPageModel(catalog, brand, path, { source, now: SAMPLE_NOW });
  if (m === 'notFound') throw new Error(`${brand}${path} is not a page`);
  await preloadBlocks(m.blocks.map((b) => b.type));
  return m;
}

async function streamed(build: Build, element: ReactElement): Promise<string> {
  const stream = await build.renderToReadableStream(element);
  await stream.allReady;
  return new Response(stream).text();
}

const OPEN = '<!--$-->';
const withoutBoundaries = (html: string) => html.replaceAll(OPEN, '').replaceAll('<!--/$-->', '');
const interactive = (m: PageModel) => m.blocks.filter((b) => b.type === 'applyForm' || b.type === 'quickAmount').length;

describe('the page renderer on a first load', () => {
  it.each([
    ['usbadcreditloans', '/apply'],
    ['usbadcreditloans', '/'],
    ['ipaydayloans', '/apply'],
  ])('%s%s: each interactive block in a boundary of its own, static blocks in none, the HTML otherwise the same', async (brand, path) => {
    const m = await model(brand, path);
    expect(interactive(m), 'the page has an interactive block').toBeGreaterThan(0);
    const first = renderToString(createElement(Blocks, { blocks: m.blocks, brand: m.brand, firstLoad: true }));
    const afterNavigation = renderToString(createElement(Blocks, { blocks: m.blocks, brand: m.brand, firstLoad: false }));
    expect(first.split(OPEN).length - 1).toBe(interactive(m));
    // a static block is kept as one element: no boundary around it
    expect(first).not.toMatch(/<!--\$--><div data-kept=/);
    expect(afterNavigation).not.toContain(OPEN);
    expect(withoutBoundaries(first)).toBe(afterNavigation);
  });

  it('writes a boundary far down the page in place, where React by itself would send it hidden and move it with a script', async () => {
    const m = await model('usbadcreditloans', '/');
    // the interactive block last, after more than React's 12.8 kB progressive chunk of page
    const last = { ...m, blocks: [...m.blocks.filter((b) => b.type !== 'quickAmount'), ...m.blocks.filter((b) => b.type === 'quickAmount')] };
    const page = createElement(BrandPage, { model: last });
    const byReact = await streamed(nodeBuild, page);
    expect(byReact, 'React outlines it by default (the reason for writeBoundariesInPlace)').toContain('$RC(');
    const html = await streamed(asServerRenders, page);
    expect(html).not.toContain('$RC(');
    expect(html).not.toMatch(/<div hidden id="S:/);
    expect(html).not.toContain('<!--$?-->');
    expect(html.split(OPEN).length - 1).toBe(1);
    // the block's HTML inside its boundary, in its place: after the static blocks, before the footer
    const [open, close] = [html.indexOf(OPEN), html.indexOf('<!--/$-->')];
    expect(close - open).toBeGreaterThan(500);
    expect(html.indexOf('data-kept="0-hero"')).toBeLessThan(open);
    expect(html.indexOf('data-kept="footer"')).toBeGreaterThan(close);
  });
});
