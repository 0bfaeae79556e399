import { lazy, type ComponentType } from 'react';

const INLINE = Symbol.for('loansites.lazyBlock.inline');
const PRELOAD = Symbol.for('loansites.lazyBlock.preload');
const KEPT = Symbol.for('loansites.lazyBlock.kept');

/**
 * React.lazy for an interactive block, with its module loaded ahead on the server (a plain
 * React.lazy suspends the first time a server process renders it). In the browser nothing is
 * loaded ahead: the block's chunk is fetched only on pages that render it.
 *
 * `inline`: the walker (Blocks.tsx) puts no Suspense boundary around the block. React streams a
 * boundary that comes after ~12.8 kB of page as a hidden segment revealed by an inline script:
 * invisible without JavaScript, and it pops in after the blocks below it. Without a boundary the
 * block is in the HTML in place; in the browser, hydration waits for its chunk (the server's
 * HTML stays on screen meanwhile). For blocks that must be usable, or at least visible, first.
 *
 * `kept` (static blocks and the site chrome; implies inline): on the first load the browser keeps
 * the server's HTML of the block and gets no data for it (blocks/chrome/Kept.tsx, hydrationModel.ts), so
 * its code is fetched only when a client-side navigation renders it.
 */
export function lazyBlock<P>(load: () => Promise<{ default: ComponentType<P> }>, opts: { inline?: boolean; kept?: boolean } = {}) {
  let loaded: { default: ComponentType<P> } | undefined;
  const start = () => load().then((m) => (loaded = m));
  if (typeof window === 'undefined') start().catch(() => undefined);
  // A thenable that calls back at once: React.lazy then resolves without suspending.
  const ready = (m: { default: ComponentType<P> }) =>
    ({ then: (resolve: (v: { default: ComponentType<P> }) => void) => resolve(m) }) as unknown as Promise<{ default: ComponentType<P> }>;
  const component = lazy(() => (loaded ? ready(loaded) : start()));
  if (opts.inline || opts.kept) Object.defineProperty(component, INLINE, { value: true });
  if (opts.kept) Object.defineProperty(component, KEPT, { value: true });
  Object.defineProperty(component, PRELOAD, { value: () => (loaded ? Promise.resolve() : start().then(() => undefined)) });
  return component;
}

/** Loads a lazy block's module now (the server awaits this before rendering a page); undefined for other components. */
export const preloadLazy = (component: unknown): Promise<void> | undefined => (component as Record<symbol, (() => Promise<void>) | undefined>)[PRELOAD]?.();

/** A lazy block the walker renders without a Suspense boundary (see lazyBlock). */
export const rendersInline = (component: unknown): boolean => (component as Record<symbol, unknown>)[INLINE] === true;

/** A static block: its server HTML is kept by the browser on the first load (see lazyBlock). */
export const keptOnFirstLoad = (component: unknown): boolean => (component as Record<symbol, unknown>)[KEPT] === true;

type Statics = typeof import('./generated/staticBlocks');
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;
/** A static block or chrome part, by its name in the static chunk: rendered on the server, kept as HTML by the browser on the first load (`kept`). */
export const staticBlock = <N extends keyof Statics>(name: N) =>
  lazyBlock<PropsOf<Statics[N]>>(() => import('./generated/staticBlocks').then((m) => ({ default: m[name] as ComponentType<PropsOf<Statics[N]>> })), {
    kept: true,
  });
