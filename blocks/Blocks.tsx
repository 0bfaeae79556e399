import { Suspense, type ComponentType } from 'react';
import type { BrandView, ResolvedBlock } from '../engine/model';
import type { BlockProps } from './types';
import { registry } from './registry';

/** The walker: each block node rendered by its registered component. */
export function Blocks({ blocks, brand }: { blocks: readonly ResolvedBlock[]; brand: BrandView }) {
  return (
    <>
      {blocks.map((block) => {
        const Component = registry[block.type] as ComponentType<BlockProps<typeof block.type>>;
        // Each block in its own boundary: a lazy (interactive) block hydrates when its chunk arrives.
        return (
          <Suspense key={block.key} fallback={null}>
            <Component block={block} brand={brand} />
          </Suspense>
        );
      })}
    </>
  );
}
