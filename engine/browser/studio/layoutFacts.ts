/**
 * What the studio needs to know of the layouts a brand's routes may show: the text parameters and
 * switches each writes (so a route on a shared layout gets "this page's text" fields), its blocks
 * in words, and the layout itself for a page that takes its own copy. Pure; the brand's own
 * layouts are read from the draft, the shared ones come from the server.
 */
import { humanise } from './schemaForm';

export interface LayoutFacts {
  params: { texts: string[]; switches: string[] };
  /** the blocks, in words: "Hero: Payday loans online", "Faq", "Blocks of the part guide-hero" */
  blocks: string[];
  /** the layout as written (for a page that takes its own copy) */
  layout?: unknown;
}

const PARAM = /\{param\.([A-Za-z][A-Za-z0-9]*)\}/g;

/** The {param.name} names a layout writes and the "when" switches its blocks show with, sorted. */
export function paramsOf(layout: unknown): LayoutFacts['params'] {
  const texts = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') for (const m of v.matchAll(PARAM)) texts.add(m[1]!);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(layout);
  const blocks = (layout as { blocks?: { when?: unknown }[] } | undefined)?.blocks ?? [];
  const switches = new Set(blocks.flatMap((b) => (typeof b?.when === 'string' ? [b.when] : [])));
  return { texts: [...texts].sort(), switches: [...switches].sort() };
}

/** A block in words, for the list of a shared layout's blocks. */
export function blockWords(block: unknown): string {
  if (!block || typeof block !== 'object') return 'Block';
  const b = block as Record<string, unknown>;
  if (typeof b.part === 'string') return `The blocks of the shared part ${b.part}`;
  const type = typeof b.type === 'string' ? humanise(b.type) : 'Block';
  const heading = typeof b.heading === 'string' ? b.heading : typeof b.title === 'string' ? b.title : '';
  return heading ? `${type}: ${heading}` : type;
}

export function factsOf(layout: unknown): LayoutFacts {
  const blocks = (layout as { blocks?: unknown[] } | undefined)?.blocks ?? [];
  return { params: paramsOf(layout), blocks: blocks.map(blockWords), layout };
}

/** Every layout a route of the brand may name: its own (from the draft) over the shared ones. */
export function layoutFacts(doc: { layouts?: Record<string, unknown> }, shared: Readonly<Record<string, LayoutFacts>>): Map<string, LayoutFacts> {
  const out = new Map(Object.entries(shared));
  for (const [name, layout] of Object.entries(doc.layouts ?? {})) out.set(name, factsOf(layout));
  return out;
}

/** The brand's pages a link can name as they are: the paths of its routes with no parameter, and `known` ones (a shared part's). */
export function pagesOf(doc: { routes?: unknown[] }, known: readonly string[] = []): string[] {
  const own = (doc.routes ?? []).flatMap((r) => {
    const path = r && typeof r === 'object' ? (r as { path?: unknown }).path : undefined;
    return typeof path === 'string' && !path.includes('{') ? [path] : [];
  });
  return [...new Set([...own, ...known])].sort();
}
