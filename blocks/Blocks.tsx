import { Suspense, type ComponentType } from 'react';
import type { BrandView, ResolvedBlock } from '../engine/model';
import type { BlockProps } from './types';
import { registry } from './registry';
import { BlockBoundary } from './layout/BlockBoundary';
import { rendersInline } from './lazyBlock';

/** React.lazy components (the interactive blocks) carry this marker. */
const isLazy = (component: unknown) => (component as { $$typeof?: symbol }).$$typeof === Symbol.for('react.lazy');

/**
 * The walker: each block node rendered by its registered component. Only lazy (interactive)
 * blocks get a Suspense boundary: React 19 streams a larger boundary as a hidden segment that
 * an inline script reveals, so static blocks inside one would be invisible without JavaScript.
 */
export function Blocks({ blocks, brand }: { blocks: readonly ResolvedBlock[]; brand: BrandView }) {
  return (
    <>
      {blocks.map((block) => {
        const Component = registry[block.type] as ComponentType<BlockProps<typeof block.type>>;
        const element = <Component block={block} brand={brand} />;
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
