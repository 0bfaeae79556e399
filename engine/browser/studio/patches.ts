/**
 * Edits of a JSON document as patches (immer's shape: op, path as keys and indexes, value), each
 * with its inverse, applied without mutating: the unchanged parts of the document are the same
 * objects before and after, so React re-renders only what an edit touched and an undo entry costs
 * the size of the edit, not of the document (a 230-block page stays cheap to undo).
 * Pure; tests in tests/unit/studio-edit-history.test.ts.
 */
export type Path = readonly (string | number)[];

export type Patch =
  | { op: 'replace'; path: Path; value: unknown }
  | { op: 'add'; path: Path; value: unknown }
  | { op: 'remove'; path: Path }
  /** moves an array entry from index `from` to the index at the end of `path` (both in the array at path minus its last key) */
  | { op: 'move'; path: Path; from: number };

/** The value at a path, or undefined when any step is missing. */
export function valueAt(doc: unknown, path: Path): unknown {
  let at: unknown = doc;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** Whether the path names something that is there (an absent optional field is not). */
export function has(doc: unknown, path: Path): boolean {
  if (!path.length) return doc !== undefined;
  const parent = valueAt(doc, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return false;
  const key = path[path.length - 1]!;
  return Array.isArray(parent) ? typeof key === 'number' && key >= 0 && key < parent.length : Object.prototype.hasOwnProperty.call(parent, key);
}

const copyOf = (value: unknown): Record<string | number, unknown> | unknown[] =>
  Array.isArray(value) ? [...value] : value && typeof value === 'object' ? { ...(value as object) } : {};

/** One patch applied at the container `parent` (already a copy), its key being `key`. */
function applyAt(parent: Record<string | number, unknown> | unknown[], key: string | number, patch: Patch): void {
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (patch.op === 'replace') parent[i] = patch.value;
    else if (patch.op === 'add') parent.splice(i, 0, patch.value);
    else if (patch.op === 'remove') parent.splice(i, 1);
    else {
      const [moved] = parent.splice(patch.from, 1);
      parent.splice(i, 0, moved);
    }
    return;
  }
  if (patch.op === 'remove') delete parent[key];
  else if (patch.op === 'move') throw new Error('move applies to arrays only');
  else parent[key] = patch.value;
}

/** One patch applied to a document, copying only the objects along its path. */
export function applyPatch<T>(doc: T, patch: Patch): T {
  if (!patch.path.length) {
    if (patch.op === 'replace' || patch.op === 'add') return patch.value as T;
    throw new Error(`cannot ${patch.op} the whole document`);
  }
  const walk = (node: unknown, depth: number): unknown => {
    const copy = copyOf(node);
    const key = patch.path[depth]!;
    if (depth === patch.path.length - 1) applyAt(copy, key, patch);
    else (copy as Record<string | number, unknown>)[key] = walk((node as Record<string | number, unknown> | undefined)?.[key], depth + 1);
    return copy;
  };
  return walk(doc, 0) as T;
}

export const applyPatches = <T>(doc: T, patches: readonly Patch[]): T => patches.reduce(applyPatch, doc);

/** The patches that undo `patch`, read from the document before it is applied. */
export function inverseOf(before: unknown, patch: Patch): Patch {
  const { path } = patch;
  if (patch.op === 'move') {
    const to = Number(path[path.length - 1]);
    return { op: 'move', path: [...path.slice(0, -1), patch.from], from: to };
  }
  if (patch.op === 'add') {
    const parent = valueAt(before, path.slice(0, -1));
    // adding to an array inserts, so the inverse removes; adding an object's key that was there replaces it
    if (Array.isArray(parent) || !has(before, path)) return { op: 'remove', path };
    return { op: 'replace', path, value: valueAt(before, path) };
  }
  if (patch.op === 'remove') return { op: 'add', path, value: valueAt(before, path) };
  return has(before, path) ? { op: 'replace', path, value: valueAt(before, path) } : { op: 'remove', path };
}

/** Patches applied in order with their inverses (to apply in the order given to undo them all). */
export function applyWithInverse<T>(doc: T, patches: readonly Patch[]): { doc: T; inverse: Patch[] } {
  const inverse: Patch[] = [];
  let at = doc;
  for (const patch of patches) {
    inverse.unshift(inverseOf(at, patch));
    at = applyPatch(at, patch);
  }
  return { doc: at, inverse };
}

/**
 * A value set at a path: replaced when there, added when not (with the objects on the way to it,
 * so that undoing it leaves no empty object behind), removed when undefined.
 */
export function setPatch(doc: unknown, path: Path, value: unknown): Patch[] {
  if (value === undefined) return has(doc, path) ? [{ op: 'remove', path }] : [];
  if (has(doc, path)) return [{ op: 'replace', path, value }];
  let depth = path.length - 1;
  while (depth > 0 && !has(doc, path.slice(0, depth))) depth--;
  let nested = value;
  for (let i = path.length - 1; i > depth; i--) nested = typeof path[i] === 'number' ? [nested] : { [path[i]!]: nested };
  return [{ op: 'add', path: path.slice(0, depth + 1), value: nested }];
}
