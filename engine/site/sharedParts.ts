/**
 * Shared parts (brands/parts/<name>.json) hold what several brands or layouts would otherwise each
 * write out: a list of links (a footer column), named where the links go; a run of blocks (a FAQ,
 * the steps of a request), named among a layout's blocks as { "part": "<name>" }; or a run of
 * routes (the legal pages), named among a brand's routes the same way. What the engine reads has
 * the part's entries in that place, so a page renders exactly as if the file had written them. A
 * problem found later inside them belongs to the file that named the part: it is reported at the
 * reference (`pointerVia`). A block part named with "when" shows only on the pages whose route
 * switches it on, like a single block (engine/site/layoutParams.ts).
 */
import { BLOCK_LINK_LIST_FIELDS, type Block, type Links, type Route } from '../../schemas/brand.types';
import { encodePointer } from '../validate/locate';

/** A part several brands or layouts share, by name: links, blocks or routes (a part file holds one of them). */
export interface SharedPart {
  file: string;
  links?: Links;
  blocks?: Block[];
  routes?: Route[];
}

/** The kinds of part that stand among entries of a list (a layout's blocks, a brand's routes). */
export type EntryKind = 'blocks' | 'routes';

const KINDS = ['links', 'blocks', 'routes'] as const;
/** What a part holds: "links", "blocks" or "routes" (the first it has). */
export const kindOf = (part: Omit<SharedPart, 'file'>): (typeof KINDS)[number] | undefined => KINDS.find((k) => part[k]);

/** Where a pointer into the spelt-out document was written; `whole`: the file wrote it as one entry (a part's name). */
export type Moved = [from: string, to: string, whole?: boolean];

export interface PartProblem {
  pointer: string;
  message: string;
}

const namesOf = (parts: ReadonlyMap<string, SharedPart>, kind: (typeof KINDS)[number]) => {
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
  const where = part.blocks ? "a layout's blocks" : "a brand's routes";
  return `the shared part "${name}" (${part.file}) holds ${kindOf(part)}, not links: name it among ${where} ({ "part": "${name}" }), or give links or a link list here`;
}

/**
 * A list (a layout's blocks, a brand's routes) with each { "part": "<name>" } replaced by the
 * part's entries of that kind. `at` is the pointer of the list in its file; `moved` maps each
 * entry of the result back there.
 */
export function expandParts<K extends EntryKind>(
  kind: K,
  entries: readonly unknown[],
  parts: ReadonlyMap<string, SharedPart>,
  at: readonly (string | number)[],
): { entries: NonNullable<SharedPart[K]>; problems: PartProblem[]; moved: Moved[] } {
  const out: unknown[] = [];
  const problems: PartProblem[] = [];
  const moved: Moved[] = [];
  entries.forEach((entry, i) => {
    const from = encodePointer([...at, i]);
    const name = (entry as { part?: unknown }).part;
    if (typeof name !== 'string') {
      if (out.length !== i) moved.push([encodePointer([...at, out.length]), from]);
      out.push(entry);
      return;
    }
    const part = parts.get(name);
    const found = part?.[kind];
    if (!found) {
      const other = part && kindOf(part);
      const goes = other === 'links' ? `where links go ("links": "${name}")` : other === 'blocks' ? "among a layout's blocks" : "among a brand's routes";
      problems.push({
        pointer: `${from}/part`,
        message: part
          ? `the shared part "${name}" (${part.file}) holds ${other}, not ${kind}: name it ${goes}, or name a part that holds "${kind}" here (${namesOf(parts, kind)})`
          : `there is no shared part "${name}" in brands/parts/ (parts with ${kind}: ${namesOf(parts, kind)})`,
      });
      return;
    }
    // a part named with "when" shows, all of it, on the pages that switch it on: each of its blocks carries the switch
    const when = (entry as { when?: unknown }).when;
    for (const entry of found) {
      moved.push([encodePointer([...at, out.length]), from, true]);
      out.push(typeof when === 'string' ? { ...entry, when } : entry);
    }
  });
  return { entries: out as NonNullable<SharedPart[K]>, problems, moved };
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

/** A part's own blocks show wherever it is named, so they cannot be switched: the places where one says "when" (the reference in the layout may). */
export function switchesIn(blocks: readonly unknown[], at: readonly (string | number)[] = ['blocks']): { pointer: string; name: string }[] {
  return blocks.flatMap((entry, i) => {
    const when = (entry as { when?: unknown }).when;
    return typeof when === 'string' ? [{ pointer: encodePointer([...at, i, 'when']), name: when }] : [];
  });
}
