import { Suspense, type ComponentType } from 'react';
import type { BrandView } from '../engine/site/model';
import type { BlockProps } from './types';
import { registry } from './registry';
import { BlockBoundary } from './chrome/BlockBoundary';
import { Kept } from './chrome/Kept';
import { keptOnFirstLoad, rendersInline } from './lazyBlock';
import { isKeptBlock, type ClientModel } from './hydrationModel';

/** React.lazy components (the interactive blocks) carry this marker. */
const isLazy = (component: unknown) => (component as { $$typeof?: symbol }).$$typeof === Symbol.for('react.lazy');

/**
 * The walker: each block node rendered by its registered component. Only lazy (interactive)
 * blocks get a Suspense boundary: React 19 streams a larger boundary as a hidden segment that
 * an inline script reveals, so static blocks inside one would be invisible without JavaScript.
 * A static block sits in a plain <div> that the browser keeps as the server rendered it on a
 * first load (layout/Kept.tsx); its component and data arrive only with a client-side navigation.
 */
export function Blocks({ blocks, brand }: { blocks: ClientModel['blocks']; brand: ClientModel['brand'] }) {
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
        // Every block in its own error boundary (a block that throws shows the inline error in
        // its place); only lazy blocks also in a Suspense boundary (see above), unless they are
        // rendered inline (blocks/lazyBlock.ts: in the HTML in place, hydration waits for them).
        return (
          <BlockBoundary key={block.key} block={block}>
            {isLazy(Component) && !rendersInline(Component) ? <Suspense fallback={null}>{element}</Suspense> : element}
          </BlockBoundary>
        );
      })}
    </>
  );
}
