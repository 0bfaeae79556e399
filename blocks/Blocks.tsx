import { Suspense, type ComponentType } from 'react';
import type { BrandView, ResolvedBlock } from '../engine/model';
import type { BlockProps } from './types';
import { registry } from './registry';
import { BlockBoundary } from './layout/BlockBoundary';

/** The walker: each block node rendered by its registered component. */
export function Blocks({ blocks, brand }: { blocks: readonly ResolvedBlock[]; brand: BrandView }) {
  return (
    <>
      {blocks.map((block) => {
        const Component = registry[block.type] as ComponentType<BlockProps<typeof block.type>>;
        // Each block in its own boundaries: a lazy (interactive) block hydrates when its chunk
        // arrives; a block that throws shows the inline error in its place.
        return (
          <BlockBoundary key={block.key} block={block}>
            <Suspense fallback={null}>
              <Component block={block} brand={brand} />
            </Suspense>
          </BlockBoundary>
        );
      })}
    </>
  );
}
