/**
 * Copy-on-write for the small flat states of the form and the dropdown, in immer's style: the
 * recipe edits a draft, and the same object comes back when nothing changed (so React skips the
 * render). Not immer itself: immer was ~10 KB of the apply page's first-load script and 1.1 KiB
 * gzip of every page with an amount dropdown, for states one level deep.
 */

/** The same keys holding the same values (by identity). */
export function sameEntries<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * `state` as `recipe` leaves a draft of it. The draft's `nested` objects are copies the recipe may
 * edit in place; any other object it replaces. What did not change keeps its identity.
 */
export function produce<T extends object>(state: T, recipe: (draft: T) => void, nested: readonly (keyof T)[] = []): T {
  const draft = { ...state };
  for (const k of nested) draft[k] = { ...(state[k] as object) } as T[keyof T];
  recipe(draft);
  for (const k of nested) if (sameEntries(draft[k] as object, state[k] as object)) draft[k] = state[k];
  return sameEntries(draft, state) ? state : draft;
}
