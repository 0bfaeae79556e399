/**
 * Shared parts (brands/parts/<name>.json) hold what several brands or layouts would otherwise each
 * write out: a list of links (a footer column), named where the links go, or a run of blocks (a
 * FAQ, the steps of a request), named among a layout's blocks as { "part": "<name>" }. The layout
 * the engine reads has the part's blocks in that place, so a page renders exactly as if the layout
 * had written them. A problem found later inside them belongs to the layout that named the part:
 * it is reported at the reference (`pointerVia`).
 */
import { BLOCK_LINK_LIST_FIELDS, type Block, type Links } from '../schemas/brand.types';
import { encodePointer } from './validate/locate';

/** A part several brands or layouts share, by name: links or blocks (the part schema allows one of them). */
export interface SharedPart {
  file: string;
  links?: Links;
  blocks?: Block[];
}

/** Where a pointer into the spelt-out document was written; `whole`: the file wrote it as one entry (a part's name). */
export type Moved = [from: string, to: string, whole?: boolean];

export interface PartProblem {
  pointer: string;
  message: string;
}

const namesOf = (parts: ReadonlyMap<string, SharedPart>, kind: 'links' | 'blocks') => {
  const names = [...parts].filter(([, p]) => p[kind]).map(([name]) => name);
  return names.length ? `there are: ${names.join(', ')}` : 'there are none';
};

/** The pointer where the file wrote what `pointer` names in the spelt-out document (the first entry of `moved` that covers it). */
export function pointerVia(moved: readonly Moved[], pointer: string): string {
  for (const [from, to, whole] of moved) if (pointer === from || pointer.startsWith(from + '/')) return whole ? to : to + pointer.slice(from.length);
  return pointer;
}

/** Why a part cannot stand where links go: it holds blocks (undefined when it holds links). */
export function blocksWhereLinksGo(name: string, part: SharedPart): string | undefined {
  if (part.links) return undefined;
  return `the shared part "${name}" (${part.file}) holds blocks, not links: name it among a layout's blocks ({ "part": "${name}" }), or give links or a link list here`;
}

/**
 * A layout's blocks with each { "part": "<name>" } replaced by the part's blocks. `at` is the
 * pointer of the blocks array in its file; `moved` maps each block of the result back there.
 */
export function expandBlockParts(
  entries: readonly unknown[],
  parts: ReadonlyMap<string, SharedPart>,
  at: readonly (string | number)[],
): { blocks: Block[]; problems: PartProblem[]; moved: Moved[] } {
  const blocks: Block[] = [];
  const problems: PartProblem[] = [];
  const moved: Moved[] = [];
  entries.forEach((entry, i) => {
    const from = encodePointer([...at, i]);
    const name = (entry as { part?: unknown }).part;
    if (typeof name !== 'string') {
      if (blocks.length !== i) moved.push([encodePointer([...at, blocks.length]), from]);
      blocks.push(entry as Block);
      return;
    }
    const part = parts.get(name);
    if (!part?.blocks) {
      problems.push({
        pointer: `${from}/part`,
        message: part
          ? `the shared part "${name}" (${part.file}) is a list of links, not blocks: name it where links go ("links": "${name}"), or name a part that holds "blocks" here (${namesOf(parts, 'blocks')})`
          : `there is no shared part "${name}" in brands/parts/ (parts with blocks: ${namesOf(parts, 'blocks')})`,
      });
      return;
    }
    for (const block of part.blocks) {
      moved.push([encodePointer([...at, blocks.length]), from, true]);
      blocks.push(block);
    }
  });
  return { blocks, problems, moved };
}

/** Shared blocks (a shared layout's, a block part's) belong to no brand, so they cannot name a brand's link list: the places where one does. */
export function linkListNamesIn(blocks: readonly unknown[], at: readonly (string | number)[] = ['blocks']): { pointer: string; name: string }[] {
  return blocks.flatMap((entry, i) => {
    const block = entry as Record<string, unknown>;
    const fields = BLOCK_LINK_LIST_FIELDS[block.type as Block['type']] ?? [];
    return fields.flatMap((field) => {
      const value = block[field];
      return typeof value === 'string' ? [{ pointer: encodePointer([...at, i, field]), name: value }] : [];
    });
  });
}
