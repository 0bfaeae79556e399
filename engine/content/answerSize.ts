/**
 * How large a GraphQL answer can be, known before it is built. The local-mode endpoint caps
 * answers (QUERY_LIMITS.MAX_RESPONSE_BYTES); building one only to find it too large costs a
 * tenth of a second or more of CPU per request. Every entry's fields are measured once per
 * store (as JSON), so the bound for a query is a sum over what it selects: for each list, the
 * largest `pageSize` entries of its collection, counting only the fields asked for, and each of
 * them as often as the query's aliases repeat it. The bound is never below the real answer: a
 * query under it is answered, one over it is refused unresolved.
 */
import type { ContentIndex } from './embedded';
import type { SelectedField, SelectionWalk } from './selections';
import type { Collection, Entry } from './types';

/** Per entry: the JSON size of its id, and of each attribute's value. */
type EntrySizes = { id: number; attributes: Record<string, number> };
type Sizes = EntrySizes[];
const measured = new WeakMap<ContentIndex, Map<string, Sizes>>();

const json = (v: unknown) => Buffer.byteLength(JSON.stringify(v ?? null));
const measure = (e: Entry): EntrySizes => ({ id: json(e.id), attributes: Object.fromEntries(Object.entries(e.attributes).map(([k, v]) => [k, json(v)])) });

function sizesOf(index: ContentIndex, collection: string): Sizes {
  let byCollection = measured.get(index);
  if (!byCollection) measured.set(index, (byCollection = new Map()));
  let sizes = byCollection.get(collection);
  if (!sizes) {
    const entries: Entry[] = index.entries.get(collection as Collection) ?? [];
    sizes = entries.map(measure);
    byCollection.set(collection, sizes);
  }
  return sizes;
}

/** `"key":` and the comma after its value. */
const member = (key: string) => key.length + 4;
/** A value known from the schema alone: an Int of the pagination, a __typename, or null. */
const LEAF = 24;

/**
 * What one entry of a `data` field carries, aliases included (each alias of a field is one
 * more copy of its value in the answer): the bytes that do not depend on the entry, how many
 * copies of its id, and which attributes (one name per copy).
 */
interface EntryShape {
  fixed: number;
  ids: number;
  attributes: string[];
}

function entryShape(data: SelectedField, walk: SelectionWalk): EntryShape {
  const shape: EntryShape = { fixed: 2, ids: 0, attributes: [] };
  for (const field of walk.childrenOf(data)) {
    shape.fixed += member(field.key);
    if (field.name === 'id') shape.ids++;
    else if (field.name === 'attributes') {
      shape.fixed += 2;
      for (const a of walk.childrenOf(field)) {
        shape.fixed += member(a.key);
        if (a.name === '__typename') shape.fixed += LEAF;
        else shape.attributes.push(a.name);
      }
    } else shape.fixed += LEAF;
  }
  return shape;
}

function entryBytes(shape: EntryShape, sizes: EntrySizes): number {
  let n = shape.fixed + shape.ids * sizes.id;
  for (const a of shape.attributes) n += sizes.attributes[a] ?? LEAF;
  return n;
}

/** Bytes of a value whose every leaf is known from the schema alone (`meta { pagination { … } }`, a __typename). */
function shapeBytes(field: SelectedField, walk: SelectionWalk): number {
  const children = walk.childrenOf(field);
  if (!children.length) return LEAF;
  let n = 2;
  for (const child of children) n += member(child.key) + shapeBytes(child, walk);
  return n;
}

/**
 * Upper bound, in bytes, of the answer to one list field (`articleLists(…) { … }`) whose `data`
 * holds `entries` of the entries measured in `sizes`: the largest of them, counting only the
 * fields asked for.
 */
function listBytes(list: SelectedField, walk: SelectionWalk, sizes: Sizes, entries: number): number {
  let total = member(list.key) + 2;
  const shapes: EntryShape[] = [];
  for (const field of walk.childrenOf(list)) {
    total += member(field.key);
    if (field.name === 'data') {
      total += 2;
      shapes.push(entryShape(field, walk));
    } else total += shapeBytes(field, walk);
  }
  if (!shapes.length) return total;
  // One more byte an entry for the comma between entries.
  const perEntry = sizes.map((s) => shapes.reduce((n, shape) => n + entryBytes(shape, s) + 1, 0));
  perEntry.sort((a, b) => b - a);
  for (let i = 0; i < Math.min(entries, perEntry.length); i++) total += perEntry[i]!;
  return total;
}

const collectionOf = (field: SelectedField) => field.name.replace(/Lists$/, '');

/**
 * Upper bound of the answer to the root fields `roots`, each list asking for at most
 * `pageSizeOf(field)` entries. Introspection (`__schema`, `__type`; never in production) is not
 * bounded here.
 */
export function estimateAnswerBytes(index: ContentIndex, roots: readonly SelectedField[], walk: SelectionWalk, pageSizeOf: (field: SelectedField) => number): number {
  let total = 32;
  for (const field of roots) {
    if (field.name === '__typename') total += member(field.key) + LEAF;
    else if (!field.name.startsWith('__')) total += listBytes(field, walk, sizesOf(index, collectionOf(field)), pageSizeOf(field));
  }
  return total;
}

/** Bytes of the answer to one list field once resolved: the entries it returned, the fields it selects. */
export function resolvedListBytes(index: ContentIndex, field: SelectedField, walk: SelectionWalk, entries: readonly Entry[]): number {
  const all = index.entries.get(collectionOf(field) as Collection) ?? [];
  const sizes = sizesOf(index, collectionOf(field));
  const byEntry = new Map(all.map((e, i) => [e, sizes[i]!]));
  return listBytes(
    field,
    walk,
    entries.map((e) => byEntry.get(e) ?? measure(e)),
    entries.length,
  );
}
