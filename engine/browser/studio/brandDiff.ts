/**
 * What changed between two versions of a brand, field by field, in words a person reads: "Routes ›
 * /payday-loans › Layout: payday-home → starter-home", not two JSON texts side by side. Routes are
 * matched by their path, so adding one route shows one added route rather than every later route
 * changed; other lists are matched by position. Pure; tests in tests/unit/studio-brand-diff.test.ts.
 */
import { decodePointer, encodePointer } from '../jsonPointer';
import { entryName, labelOf, nounOf } from './schemaForm';

export interface FieldChange {
  kind: 'added' | 'removed' | 'changed';
  pointer: string;
  /** the field's place in words: "Config › Brand colour", "Routes › /payday-loans › Layout" */
  label: string;
  /** readable values ('' for none) */
  before: string;
  after: string;
}

const SEP = ' › ';

/** A value as a person reads it: text as it is, a list or an object summed up, a switch as yes/no. */
export function readable(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.join(', ');
    return `${value.length} ${value.length === 1 ? 'entry' : 'entries'}: ${value.map((v, i) => entryName(v, 'entry', i)).join(', ')}`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v !== 'object' || v === null);
  return entries.map(([k, v]) => `${labelOf(k)}: ${readable(v)}`).join('; ');
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A route's name in the list: its path, or the shared part whose routes stand in its place. */
const routeKey = (entry: unknown): string | undefined => {
  if (!isObject(entry)) return undefined;
  if (typeof entry.path === 'string') return entry.path;
  return typeof entry.part === 'string' ? `part ${entry.part}` : undefined;
};

/** Whether the entries of both lists are routes, each named once, so they are matched by name rather than position. */
function byName(...lists: (readonly unknown[])[]): boolean {
  return lists.every((list) => {
    const keys = list.map(routeKey);
    return list.length > 0 && keys.every((k) => k !== undefined) && new Set(keys).size === keys.length && list.some((e) => isObject(e) && 'path' in e);
  });
}

export function diffBrands(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, [], [], out);
  return out;
}

function walk(a: unknown, b: unknown, path: (string | number)[], words: string[], out: FieldChange[]): void {
  if (a === b) return;
  const label = words.join(SEP) || 'The brand';
  const pointer = encodePointer(path);
  if (a === undefined) return void out.push({ kind: 'added', pointer, label, before: '', after: readable(b) });
  if (b === undefined) return void out.push({ kind: 'removed', pointer, label, before: readable(a), after: '' });
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== '$schema');
    for (const k of keys) walk(a[k], b[k], [...path, k], [...words, labelOf(k)], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) return diffList(a, b, path, words, out);
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ kind: 'changed', pointer, label, before: readable(a), after: readable(b) });
}

function diffList(a: readonly unknown[], b: readonly unknown[], path: (string | number)[], words: string[], out: FieldChange[]): void {
  // a list of plain values (hosts, loan types) reads best whole: "a.com, b.com → a.com, c.com"
  if ([...a, ...b].every((v) => !v || typeof v !== 'object')) {
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push({ kind: 'changed', pointer: encodePointer(path), label: words.join(SEP), before: readable(a), after: readable(b) });
    return;
  }
  const noun = nounOf(words[words.length - 1] ?? 'entry');
  if (byName(a, b)) {
    const byKey = (list: readonly unknown[]) => new Map(list.map((e, i) => [routeKey(e)!, i]));
    const [ia, ib] = [byKey(a), byKey(b)];
    for (const [k, i] of ia) {
      const j = ib.get(k);
      // the pointer is where the entry is in the newer version, or was in the older one when removed
      walk(a[i], j === undefined ? undefined : b[j], [...path, j ?? i], [...words, k], out);
    }
    for (const [k, j] of ib) if (!ia.has(k)) walk(undefined, b[j], [...path, j], [...words, k], out);
    const order = (m: Map<string, number>, other: Map<string, number>) => [...m.keys()].filter((k) => other.has(k));
    if (JSON.stringify(order(ia, ib)) !== JSON.stringify(order(ib, ia))) {
      out.push({
        kind: 'changed',
        pointer: encodePointer(path),
        label: `${words.join(SEP)} (order)`,
        before: order(ia, ib).join(', '),
        after: order(ib, ia).join(', '),
      });
    }
    return;
  }
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const name = entryName(b[i] ?? a[i], noun, i);
    // a named entry gets its number too ("2. Hero block"), as two entries may share a name
    const numbered = /\d$/.test(name) && name.endsWith(` ${i + 1}`) ? name : `${i + 1}. ${name}`;
    walk(a[i], b[i], [...path, i], [...words, numbered], out);
  }
}

/**
 * A field's place in the brand in the words the diff uses ("Layouts › Home page › Blocks › 1. Hero
 * block › Heading"), for the problem list: a problem's own words ("is too short") name no field,
 * and its JSON pointer is no name an operator reads.
 */
export function fieldPlaceOf(doc: unknown, pointer: string): string {
  const words: string[] = [];
  let node: unknown = doc;
  for (const seg of decodePointer(pointer)) {
    if (Array.isArray(node)) {
      const i = Number(seg);
      const entry: unknown = node[i];
      const key = byName(node) ? routeKey(entry) : undefined;
      if (key) words.push(key);
      else {
        const name = entryName(entry, nounOf(words[words.length - 1] ?? 'entry'), i);
        words.push(/\d$/.test(name) && name.endsWith(` ${i + 1}`) ? name : `${i + 1}. ${name}`);
      }
      node = entry;
    } else {
      words.push(labelOf(seg));
      node = isObject(node) ? node[seg] : undefined;
    }
  }
  return words.join(SEP) || 'The brand';
}
