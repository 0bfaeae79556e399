import { Suspense, type ComponentType } from 'react';
import type { BrandView } from '../engine/model';
import type { BlockProps } from './types';
import { registry } from './registry';
import { BlockBoundary } from './chrome/BlockBoundary';
import { Kept } from './chrome/Kept';
import { keptOnFirstLoad } from './lazyBlock';
import { isHydrationModel, isKeptBlock, type ClientModel } from './hydrationModel';

/**
 * A first load: the server's render, and the browser's hydration of it (its data is the hydration
 * model). Not a client-side navigation, whose page is rendered afresh in a transition.
 */
export const isFirstLoad = (model: ClientModel) => typeof window === 'undefined' || isHydrationModel(model);

/** The blocks the browser hydrates on a first load (the others are kept as the server rendered them). */
export const liveBlocks = (model: ClientModel) => model.blocks.filter((b) => !isKeptBlock(b)).map((b) => b.type);

/**
 * The walker: each block node rendered by its registered component.
 *
 * A static block sits in a plain <div> that the browser keeps as the server rendered it on a
 * first load (layout/Kept.tsx): one element React adopts without looking inside, so it costs
 * hydration nothing and gets no boundary. Its component and data arrive only with a client-side
 * navigation.
 *
 * Each interactive block is in its own Suspense boundary. Next hydrates the page outside a
 * transition, at a blocking lane: React hydrates the whole tree in one task that never yields, and
 * a long main-thread task is what a slow phone (and Lighthouse's Total Blocking Time) feels. The
 * content of a boundary the server rendered is hydrated later, at a non-blocking lane, in ~5 ms
 * slices that yield to the browser; a click or keypress on a block not hydrated yet makes React
 * hydrate that block at once and then deliver the event. The server writes each boundary in place
 * (engine/http/reactRenderer.mjs), so the HTML is the same apart from the boundary's comments.
 * Only on a first load (`firstLoad`): a block new after a client-side navigation has no boundary,
 * so the navigation's transition waits for its chunk and never shows the page without it.
 */
export function Blocks({ blocks, brand, firstLoad }: { blocks: ClientModel['blocks']; brand: ClientModel['brand']; firstLoad: boolean }) {
  return (
    <>
      {blocks.map((block) => {
        const Component = registry[block.type] as ComponentType<BlockProps<typeof block.type>>;
        if (keptOnFirstLoad(Component)) {
          return (
            <BlockBoundary key={block.key} block={block}>
              <Kept name={block.key} kept={isKeptBlock(block)}>
                {isKeptBlock(block) ? null : <Component block={block} brand={brand as BrandView} />}
              </Kept>
            </BlockBoundary>
          );
        }
        if (isKeptBlock(block)) return null; // not reached: only static blocks are kept
        // Interactive blocks read only the brand's live fields (hydrationModel.ts LiveBrand).
        const element = <Component block={block} brand={brand as BrandView} />;
        // Every block in its own error boundary (a block that throws shows the inline error in its place).
        return (
          <BlockBoundary key={block.key} block={block}>
            {firstLoad ? <Suspense fallback={null}>{element}</Suspense> : element}
          </BlockBoundary>
        );
      })}
    </>
  );
}
