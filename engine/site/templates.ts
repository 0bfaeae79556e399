/**
 * Placeholders in brand text: {brand.name}, {state.name}, {city.slug}, … Filling is plain
 * substitution (React escapes the result); an unknown placeholder is left as written, and
 * validation reports it before it can reach a page.
 */

export type Vars = Readonly<Record<string, string>>;

const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9]*(?:\.[a-zA-Z][a-zA-Z0-9]*)?)\}/g;
/** The same, with a possessive "'s" written after it captured, so "{brand.name}'s" can follow English. */
const PLACEHOLDER_POSSESSIVE = /\{([a-zA-Z][a-zA-Z0-9]*(?:\.[a-zA-Z][a-zA-Z0-9]*)?)\}('s(?![a-zA-Z]))?/g;

export const placeholdersIn = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);

/** A name ending in s takes an apostrophe only ("US Title Loans' network"); any other takes "'s" ("Ohio's rules"). */
export const possessive = (name: string): string => (/s$/i.test(name) ? `${name}'` : `${name}'s`);

export const fill = (text: string, vars: Vars): string =>
  // most strings of a layout have no placeholder: they are returned as they are, unscanned
  !text.includes('{')
    ? text
    : text.replace(PLACEHOLDER_POSSESSIVE, (whole, name: string, apostrophe: string | undefined) => {
        if (!Object.prototype.hasOwnProperty.call(vars, name)) return whole;
        return apostrophe ? possessive(vars[name]!) : vars[name]!;
      });

/**
 * Whether any string in a JSON value holds a "{", looked through once per object: a route's layout
 * and its blocks are the same objects on every page of the route (the catalog makes them once and
 * nothing changes them), so a page fills only the parts that hold a placeholder.
 */
const bracesIn = new WeakMap<object, boolean>();
function holdsBrace(value: object): boolean {
  let known = bracesIn.get(value);
  if (known === undefined) {
    known = false;
    for (const v of Object.values(value))
      if (typeof v === 'string' ? v.includes('{') : v !== null && typeof v === 'object' && holdsBrace(v)) {
        known = true;
        break;
      }
    bracesIn.set(value, known);
  }
  return known;
}

/**
 * Every string of a plain JSON value filled: the value itself a new object or array, and inside it
 * a new copy of each part that holds a placeholder; a part without one is the same object (a page's
 * blocks are filled on every render, and most of a block's text has nothing to fill). Nothing may
 * change what it returns below its first level.
 */
export function fillDeep<T>(value: T, vars: Vars, skipKeys: ReadonlySet<string> = new Set()): T {
  if (typeof value === 'string') return fill(value, vars) as T;
  if (Array.isArray(value)) return value.map((v) => filledPart(v, vars, skipKeys)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = skipKeys.has(k) ? v : filledPart(v, vars, skipKeys);
    return out as T;
  }
  return value;
}

const filledPart = (value: unknown, vars: Vars, skipKeys: ReadonlySet<string>): unknown =>
  value !== null && typeof value === 'object' && !holdsBrace(value) ? value : fillDeep(value, vars, skipKeys);
