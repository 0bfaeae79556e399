/**
 * How large a GraphQL answer can be, known before it is built. The local-mode endpoint caps
 * answers (QUERY_LIMITS.MAX_RESPONSE_BYTES); building one only to find it too large costs a
 * tenth of a second or more of CPU per request. Every entry's fields are measured once per
 * store (as JSON), so the bound for a query is a sum over what it selects: for each list, the
 * largest `pageSize` entries of its collection, counting only the fields asked for. The bound
 * is never below the real answer: a query under it is answered, one over it is refused unresolved.
 */
import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { ContentIndex } from './embedded';
import type { Collection, Entry } from './types';

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

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

/** The fields of a selection set with fragments spread in. */
export function selectedFields(set: SelectionSetNode | undefined, fragments: Fragments): FieldNode[] {
  const out: FieldNode[] = [];
  for (const sel of set?.selections ?? []) {
    if (sel.kind === Kind.FIELD) out.push(sel);
    else if (sel.kind === Kind.INLINE_FRAGMENT) out.push(...selectedFields(sel.selectionSet, fragments));
    else out.push(...selectedFields(fragments.get(sel.name.value)?.selectionSet, fragments));
  }
  return out;
}

/** What one entry of a list field's answer carries: its id or not, and which attributes. */
function entryShape(list: FieldNode, fragments: Fragments): { id: boolean; attributes: Set<string> } {
  const shape = { id: false, attributes: new Set<string>() };
  for (const data of selectedFields(list.selectionSet, fragments).filter((f) => f.name.value === 'data'))
    for (const f of selectedFields(data.selectionSet, fragments)) {
      if (f.name.value === 'id') shape.id = true;
      if (f.name.value === 'attributes') for (const a of selectedFields(f.selectionSet, fragments)) shape.attributes.add(a.name.value);
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

const collectionOf = (field: FieldNode) => field.name.value.replace(/Lists$/, '');

/**
 * Upper bound of the answer to the root list fields `roots`, each asking for at most
 * `pageSizeOf(field)` entries.
 */
export function estimateAnswerBytes(index: ContentIndex, roots: readonly FieldNode[], fragments: Fragments, pageSizeOf: (field: FieldNode) => number): number {
  let total = 32;
  for (const field of roots) {
    if (field.name.value.startsWith('__')) continue;
    total += listBytes(sizesOf(index, collectionOf(field)), entryShape(field, fragments), pageSizeOf(field));
  }
  return total;
}

/** Bytes of the answer to one list field once resolved: the entries it returned, the fields it selects. */
export function resolvedListBytes(index: ContentIndex, field: FieldNode, fragments: Fragments, entries: readonly Entry[]): number {
  const shape = entryShape(field, fragments);
  const all = index.entries.get(collectionOf(field) as Collection) ?? [];
  const sizes = sizesOf(index, collectionOf(field));
  const byEntry = new Map(all.map((e, i) => [e, sizes[i]!]));
  return listBytes(
    entries.map((e) => byEntry.get(e) ?? { id: 64, attributes: {} }),
    shape,
    entries.length,
  );
}
