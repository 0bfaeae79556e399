/**
 * How large a GraphQL answer can be, known before it is built. The local-mode endpoint caps
 * answers (QUERY_LIMITS.MAX_RESPONSE_BYTES); building one only to find it too large costs a
 * tenth of a second or more of CPU per request. Every entry's fields are measured once per
 * store (as JSON), so the bound for a query is a sum over what it selects: for each list, the
 * largest `pageSize` entries of its collection, counting only the fields asked for. The bound
 * is never below the real answer: a query under it is answered, one over it is refused unresolved.
 */
import type { ContentIndex } from './embedded';
import type { SelectedField, SelectionWalk } from './selections';
import type { Collection, Entry } from './types';

/** Per entry: the JSON size of each attribute (key and separators included), and of its id. */
type Sizes = { id: number; attributes: Record<string, number> }[];
const measured = new WeakMap<ContentIndex, Map<string, Sizes>>();

function sizesOf(index: ContentIndex, collection: string): Sizes {
  let byCollection = measured.get(index);
  if (!byCollection) measured.set(index, (byCollection = new Map()));
  let sizes = byCollection.get(collection);
  if (!sizes) {
    const entries: Entry[] = index.entries.get(collection as Collection) ?? [];
    sizes = entries.map((e) => ({
      id: Buffer.byteLength(JSON.stringify(e.id)) + 8,
      attributes: Object.fromEntries(Object.entries(e.attributes).map(([k, v]) => [k, Buffer.byteLength(JSON.stringify(v ?? null)) + k.length + 4])),
    }));
    byCollection.set(collection, sizes);
  }
  return sizes;
}

/** What one entry of a list field's answer carries: its id or not, and which attributes. */
function entryShape(list: SelectedField, walk: SelectionWalk): { id: boolean; attributes: Set<string> } {
  const shape = { id: false, attributes: new Set<string>() };
  for (const data of walk.childrenOf(list).filter((f) => f.name === 'data'))
    for (const f of walk.childrenOf(data)) {
      if (f.name === 'id') shape.id = true;
      if (f.name === 'attributes') for (const a of walk.childrenOf(f)) shape.attributes.add(a.name);
    }
  return shape;
}

/** Room for the list's own keys, meta and pagination. */
const LIST_OVERHEAD = 256;

/** Upper bound, in bytes, of the answer to one list field (`articleLists(…) { … }`) returning `entries` of its collection. */
function listBytes(sizes: Sizes, shape: { id: boolean; attributes: Set<string> }, entries: number): number {
  const perEntry = sizes.map((s) => {
    let n = 4 + (shape.id ? s.id : 0) + (shape.attributes.size ? 16 : 0);
    for (const a of shape.attributes) n += s.attributes[a] ?? 8;
    return n;
  });
  perEntry.sort((a, b) => b - a);
  let total = LIST_OVERHEAD;
  for (let i = 0; i < Math.min(entries, perEntry.length); i++) total += perEntry[i]!;
  return total;
}

const collectionOf = (field: SelectedField) => field.name.replace(/Lists$/, '');

/**
 * Upper bound of the answer to the root list fields `roots`, each asking for at most
 * `pageSizeOf(field)` entries.
 */
export function estimateAnswerBytes(index: ContentIndex, roots: readonly SelectedField[], walk: SelectionWalk, pageSizeOf: (field: SelectedField) => number): number {
  let total = 32;
  for (const field of roots) {
    if (field.name.startsWith('__')) continue;
    total += listBytes(sizesOf(index, collectionOf(field)), entryShape(field, walk), pageSizeOf(field));
  }
  return total;
}

/** Bytes of the answer to one list field once resolved: the entries it returned, the fields it selects. */
export function resolvedListBytes(index: ContentIndex, field: SelectedField, walk: SelectionWalk, entries: readonly Entry[]): number {
  const shape = entryShape(field, walk);
  const all = index.entries.get(collectionOf(field) as Collection) ?? [];
  const sizes = sizesOf(index, collectionOf(field));
  const byEntry = new Map(all.map((e, i) => [e, sizes[i]!]));
  return listBytes(
    entries.map((e) => byEntry.get(e) ?? { id: 64, attributes: {} }),
    shape,
    entries.length,
  );
}
