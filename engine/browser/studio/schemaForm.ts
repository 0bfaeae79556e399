/**
 * The studio's forms, generated from the JSON Schema the validator checks (schemas/brand.schema.json,
 * whose block definitions are the blocks' own schema.json files): one field per property, labelled
 * from its name and helped by its description; enums as selects; arrays with their entries; and
 * references to layouts, parts, link lists and pages as pickers listing what exists. A field's id
 * is made from its JSON pointer, so a problem the validator reports at a pointer finds its field
 * (engine/browser/studio/problemFields.ts). Pure: the page renders the tree this returns.
 * Tests in tests/unit/studio-schema-form.test.ts.
 */
import { encodePointer } from '../jsonPointer';
import type { Path } from './patches';

export type Schema = {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  patternHint?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  /** a map's entries (a brand's own layouts and link lists, by name) */
  additionalProperties?: boolean | Schema;
  items?: Schema;
  if?: Schema;
  then?: Schema;
  else?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  default?: unknown;
  $defs?: Record<string, Schema>;
};

/** What the pickers list: what exists for this brand. */
export interface Refs {
  /** layouts a route may name: the brand's own and the shared ones */
  layouts: readonly string[];
  /** shared parts holding blocks, and holding routes */
  blockParts: readonly string[];
  routeParts: readonly string[];
  /** the brand's link lists */
  linkLists: readonly string[];
  /** the paths of the brand's pages that take no parameter (what a link may name without typing) */
  pages: readonly string[];
}

export const NO_REFS: Refs = { layouts: [], blockParts: [], routeParts: [], linkLists: [], pages: [] };

interface Base {
  /** the HTML id, made from the pointer (fieldId) */
  id: string;
  pointer: string;
  path: Path;
  label: string;
  help?: string;
  /** the pattern's words ("a colour written as #rrggbb"), for the help under the field */
  hint?: string;
  required: boolean;
}

export type Option = { value: string; label: string };

export type Field =
  | (Base & { kind: 'text' | 'textarea' | 'color'; value: string; minLength?: number; maxLength?: number })
  | (Base & { kind: 'number'; value: number | undefined; integer: boolean; min?: number; max?: number })
  | (Base & { kind: 'checkbox'; value: boolean })
  | (Base & { kind: 'select'; value: string; options: Option[] })
  /** a name of something that exists (layout, part, link list) or a page's path; `free` allows a value not listed (an https:// link) */
  | (Base & { kind: 'reference'; refKind: 'layout' | 'blockPart' | 'routePart' | 'linkList' | 'page'; value: string; options: Option[]; free: boolean })
  /** `source`: the value the fields were made from (the same object until an edit changes it, so a view redraws only what changed) */
  | (Base & { kind: 'object'; fields: Field[]; present: boolean; source: unknown })
  /** `choices`: the kinds of entry a list takes when there are several (a page's blocks: one per block type, or a shared part) */
  | (Base & { kind: 'array'; items: Field[]; newItem: unknown; choices?: Option[]; minItems: number; maxItems?: number; itemNoun: string; source: unknown })
  /** a value of one of several forms (a list of links, or the name of a link list); `chosen` is the form the value has */
  | (Base & { kind: 'choice'; chosen: number; forms: { label: string; empty: unknown }[]; field: Field; source: unknown });

/** A field's HTML id from its JSON pointer: letters, digits, '-' and '_' only, one id per pointer. */
export function fieldId(pointer: string): string {
  return 'f' + pointer.replace(/[^A-Za-z0-9-]/g, (c) => (c === '/' ? '--' : `_${c.charCodeAt(0).toString(16)}_`));
}

/** "ctaLabel" → "Cta label", "legalName" → "Legal name", "gtmId" → "Gtm id". */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Labels a person reads better than the property's name. */
const LABELS: Record<string, string> = {
  href: 'Link to',
  cta: 'Button',
  ctaLabel: 'Button label',
  theme: 'Brand colour',
  progressColor: 'Progress bar colour',
  hosts: 'Host names',
  nav: 'Navigation',
  sameAs: 'Profiles elsewhere',
};

export const labelOf = (key: string): string => LABELS[key] ?? humanise(key);

/** The schema a $ref names inside the root ("#/$defs/link"). */
export function resolve(root: Schema, schema: Schema): Schema {
  let at = schema;
  for (let guard = 0; at.$ref && guard < 20; guard++) {
    const name = /^#\/\$defs\/(.+)$/.exec(at.$ref)?.[1];
    const target = name ? root.$defs?.[name] : undefined;
    if (!target) throw new Error(`unknown schema reference ${at.$ref}`);
    const { $ref: _ref, ...siblings } = at;
    // a description written beside the $ref says what this use of the definition is; it wins
    at = { ...target, ...siblings };
  }
  return at;
}

const typeOf = (schema: Schema): string | undefined => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

const kindOfValue = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;

/** For a block ({ type, … }), the definition its type names (the brand schema's allOf of if type = … then …). */
function byConst(root: Schema, schema: Schema, value: unknown): Schema | undefined {
  const type = value && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
  for (const branch of schema.allOf ?? []) {
    const want = branch.if?.properties?.type?.const;
    if (want !== undefined && want === type && branch.then) return resolve(root, branch.then);
  }
  return undefined;
}

/** The two forms of an if/then/else schema, and which one a value takes. */
function conditional(root: Schema, schema: Schema, value: unknown): { forms: [Schema, Schema]; chosen: 0 | 1 } | undefined {
  if (!schema.if || !schema.then || !schema.else) return undefined;
  const forms: [Schema, Schema] = [resolve(root, schema.then), resolve(root, schema.else)];
  const test = schema.if;
  const kind = kindOfValue(value);
  const matches =
    (!test.type || kind === test.type || (test.type === 'number' && kind === 'integer')) &&
    (!test.required || (kind === 'object' && test.required.every((k) => k in (value as object))));
  return { forms, chosen: matches ? 0 : 1 };
}

/** A value to start a new entry with: what the schema requires, empty or at its first choice. */
export function emptyValue(root: Schema, schemaIn: Schema): unknown {
  const schema = resolve(root, schemaIn);
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const cond = schema.if && schema.then && schema.else ? resolve(root, schema.else) : undefined;
  if (cond) return emptyValue(root, cond);
  switch (typeOf(schema)) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return schema.minItems && schema.items ? Array.from({ length: schema.minItems }, () => emptyValue(root, schema.items!)) : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) if (schema.properties?.[key]) out[key] = emptyValue(root, schema.properties[key]);
      return out;
    }
    default:
      return undefined;
  }
}

/** The noun for one entry of an array ("Routes" → "route", "Links" → "link"). */
export function nounOf(label: string): string {
  const lower = label.toLowerCase();
  if (lower.endsWith('ies')) return lower.slice(0, -3) + 'y';
  if (/(ss|sh|ch|x)es$/.test(lower)) return lower.slice(0, -2);
  return lower.endsWith('s') ? lower.slice(0, -1) : lower;
}

/** A short name for an array entry, so a list of routes reads "/payday-loans", not "Route 3". */
export function entryName(value: unknown, noun: string, index: number): string {
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    for (const key of ['path', 'label', 'title', 'question', 'heading', 'name', 'part', 'type']) {
      if (typeof v[key] === 'string' && v[key]) return key === 'type' ? `${humanise(v[key])} block` : String(v[key]);
    }
  }
  return `${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${index + 1}`;
}

/** Layout parameters a route gives (text values and switches), as the studio reads them off the layout it names. */
export type LayoutParamsOf = (route: Record<string, unknown>) => { texts: readonly string[]; switches: readonly string[] } | undefined;

export interface FormContext {
  root: Schema;
  refs: Refs;
  layoutParamsOf?: LayoutParamsOf;
  /**
   * Fields already made from an object or list value, by the value itself: an edit copies only
   * the objects on its path (engine/browser/studio/patches.ts), so the form of a large brand is
   * made again only where it changed. Good for one context (its refs and layout parameters).
   */
  cache?: WeakMap<object, Map<string, Field | undefined>>;
}

function referenceOf(
  key: string,
  schema: Schema,
  refs: Refs,
): { refKind: Extract<Field, { kind: 'reference' }>['refKind']; options: readonly string[]; free: boolean } | undefined {
  if (typeOf(schema) !== 'string' || schema.enum) return undefined;
  if (key === 'layout' && !schema.pattern) return { refKind: 'layout', options: refs.layouts, free: false };
  if (key === 'part') {
    const routes = /routes/.test(schema.patternHint ?? '');
    return { refKind: routes ? 'routePart' : 'blockPart', options: routes ? refs.routeParts : refs.blockParts, free: false };
  }
  if (key === 'href' || (schema.pattern === '^(/|https://)' && key !== 'path')) return { refKind: 'page', options: refs.pages, free: true };
  return undefined;
}

const options = (values: readonly string[], current: string, required: boolean): Option[] => {
  const list = values.map((v) => ({ value: v, label: v }));
  // a value that names nothing that exists stays selectable, so the field shows what is there (and its problem)
  if (current && !values.includes(current)) list.unshift({ value: current, label: `${current} (not found)` });
  if (!required || !current) list.unshift({ value: '', label: required ? 'Choose…' : '(none)' });
  return list;
};

/**
 * The field for `value` at `path`, as `schema` (inside `ctx.root`) describes it; `key` is its
 * property name (or the array's name for an entry), `required` whether its object requires it.
 */
export function fieldFor(
  ctx: FormContext,
  schemaIn: Schema,
  value: unknown,
  path: Path,
  key: string,
  required: boolean,
  label = labelOf(key),
): Field | undefined {
  if (!ctx.cache || value === null || typeof value !== 'object') return makeField(ctx, schemaIn, value, path, key, required, label);
  const id = `${encodePointer(path)}|${key}|${label}|${required}|${schemaIn.$ref ?? ''}`;
  let known = ctx.cache.get(value);
  if (!known) ctx.cache.set(value, (known = new Map()));
  if (!known.has(id)) known.set(id, makeField(ctx, schemaIn, value, path, key, required, label));
  return known.get(id);
}

function makeField(ctx: FormContext, schemaIn: Schema, value: unknown, path: Path, key: string, required: boolean, label: string): Field | undefined {
  const schema = resolve(ctx.root, schemaIn);
  const pointer = encodePointer(path);
  const base: Base = {
    id: fieldId(pointer),
    pointer,
    path,
    label,
    required,
    ...(schema.description ? { help: schema.description } : {}),
    ...(schema.patternHint ? { hint: schema.patternHint } : {}),
  };
  // a block's type is chosen when it is added, never typed
  if (schema.const !== undefined) return undefined;
  const block = byConst(ctx.root, schema, value);
  if (block) return fieldFor(ctx, { ...block, ...(schemaIn.description ? { description: schemaIn.description } : {}) }, value, path, key, required, label);
  const cond = conditional(ctx.root, schema, value);
  if (cond) {
    const chosenSchema = cond.forms[cond.chosen];
    const field = fieldFor(ctx, chosenSchema, value, path, key, required, label);
    if (!field) return undefined;
    const forms = cond.forms.map((f) => ({ label: formLabel(ctx.root, f), empty: emptyValue(ctx.root, f) }));
    return { ...base, kind: 'choice', chosen: cond.chosen, forms, field, source: value };
  }
  if (schema.enum) {
    const current = value === undefined ? '' : String(value);
    return { ...base, kind: 'select', value: current, options: options(schema.enum.map(String), current, required) };
  }
  const ref = referenceOf(key, schema, ctx.refs);
  if (ref) {
    const current = typeof value === 'string' ? value : '';
    return {
      ...base,
      kind: 'reference',
      refKind: ref.refKind,
      value: current,
      free: ref.free,
      options: ref.free ? ref.options.map((v) => ({ value: v, label: v })) : options(ref.options, current, required),
    };
  }
  switch (typeOf(schema)) {
    case 'string': {
      const text = typeof value === 'string' ? value : '';
      const kind = schema.pattern === '^#[0-9a-fA-F]{6}$' ? 'color' : (schema.maxLength ?? 0) >= 200 || (schema.minLength ?? 0) >= 10 ? 'textarea' : 'text';
      return {
        ...base,
        kind,
        value: text,
        ...(schema.minLength !== undefined ? { minLength: schema.minLength } : {}),
        ...(schema.maxLength !== undefined ? { maxLength: schema.maxLength } : {}),
      };
    }
    case 'integer':
    case 'number':
      return {
        ...base,
        kind: 'number',
        value: typeof value === 'number' ? value : undefined,
        integer: typeOf(schema) === 'integer',
        ...(schema.minimum !== undefined ? { min: schema.minimum } : {}),
        ...(schema.maximum !== undefined ? { max: schema.maximum } : {}),
      };
    case 'boolean':
      return { ...base, kind: 'checkbox', value: value === true };
    case 'array': {
      const list = Array.isArray(value) ? value : [];
      const noun = nounOf(label);
      const itemSchema = schema.items ?? {};
      const items = list.flatMap((entry, i) => fieldFor(ctx, itemSchema, entry, [...path, i], key, true, entryName(entry, noun, i)) ?? []);
      return {
        ...base,
        kind: 'array',
        items,
        newItem: emptyValue(ctx.root, itemSchema),
        ...entryChoices(ctx.root, itemSchema),
        minItems: schema.minItems ?? 0,
        ...(schema.maxItems !== undefined ? { maxItems: schema.maxItems } : {}),
        itemNoun: noun,
        source: value,
      };
    }
    case 'object':
    case undefined: {
      if (!schema.properties && key === 'layoutParams') return layoutParamsField(ctx, base, value, path);
      const obj = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
      const entry = schema.additionalProperties;
      if (!schema.properties && entry && typeof entry === 'object') {
        // a map by name: a field per entry, labelled by its name
        const fields = Object.entries(obj).flatMap(([k, v]) => fieldFor(ctx, entry, v, [...path, k], k, true, k) ?? []);
        return { ...base, kind: 'object', fields, present: value !== undefined, source: value };
      }
      const req = new Set(schema.required ?? []);
      const fields = Object.entries(schema.properties ?? {}).flatMap(([k, s]) => {
        if (k === '$schema') return [];
        if (k === 'layoutParams' && ctx.layoutParamsOf) {
          const f = layoutParamsField(
            ctx,
            {
              ...base,
              id: fieldId(encodePointer([...path, k])),
              pointer: encodePointer([...path, k]),
              path: [...path, k],
              label: "This page's text",
              required: false,
            },
            obj[k],
            [...path, k],
            obj,
          );
          return f ? [f] : [];
        }
        return fieldFor(ctx, s, obj[k], [...path, k], k, req.has(k)) ?? [];
      });
      return { ...base, kind: 'object', fields, present: value !== undefined, source: value };
    }
    default:
      return undefined;
  }
}

/**
 * The kinds of entry a list of blocks takes: one per block type (its required properties empty,
 * as JSON in `value`), and the blocks of a shared part. Undefined for a list of one kind.
 */
export function entryChoices(root: Schema, itemSchema: Schema): { choices: Option[] } | Record<string, never> {
  const item = resolve(root, itemSchema);
  const forms = item.if && item.then && item.else ? [resolve(root, item.then), resolve(root, item.else)] : [item];
  const choices: Option[] = [];
  for (const form of forms) {
    const typed = (form.allOf ?? []).flatMap((b) => {
      const type = b.if?.properties?.type?.const;
      return typeof type === 'string' && b.then ? [{ value: JSON.stringify(emptyValue(root, b.then)), label: `${humanise(type)} block` }] : [];
    });
    if (typed.length) choices.push(...typed);
    else if (form.required?.includes('part')) choices.push({ value: JSON.stringify({ part: '' }), label: 'The blocks of a shared part' });
  }
  return choices.length > 1 ? { choices } : {};
}

/** "List" for an array form, "Name" for a string one, else the definition's own title. */
function formLabel(root: Schema, schema: Schema): string {
  const type = typeOf(schema);
  if (type === 'array') return 'A list written here';
  if (type === 'string') return 'The name of a shared list';
  if (schema.required?.includes('part')) return 'A shared part';
  return schema.title ? humanise(schema.title) : 'Written here';
}

/**
 * A route's layout parameters as fields: one text field per {param.name} the layout writes and a
 * checkbox per switch, so "this page's headline" is edited on the route, leaving the shared layout as it is.
 */
function layoutParamsField(ctx: FormContext, base: Base, value: unknown, path: Path, route?: Record<string, unknown>): Field | undefined {
  const names = route && ctx.layoutParamsOf?.(route);
  if (!names || (!names.texts.length && !names.switches.length)) return undefined;
  const given = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const fields: Field[] = [
    ...names.texts.map((n): Field => {
      const pointer = encodePointer([...path, n]);
      return {
        id: fieldId(pointer),
        pointer,
        path: [...path, n],
        label: humanise(n),
        help: `The text this page puts where the layout writes {param.${n}}.`,
        required: true,
        kind: 'text',
        value: typeof given[n] === 'string' ? given[n] : '',
      };
    }),
    ...names.switches.map((n): Field => {
      const pointer = encodePointer([...path, n]);
      return {
        id: fieldId(pointer),
        pointer,
        path: [...path, n],
        label: `Show "${humanise(n)}" blocks`,
        help: `Shows the layout's blocks marked "when": "${n}" on this page.`,
        required: false,
        kind: 'checkbox',
        value: given[n] === true,
      };
    }),
  ];
  // the route's parameters depend on its layout too: the route is their source
  return { ...base, kind: 'object', fields, present: value !== undefined, source: route };
}

/** Every field of a tree, depth first (for the problem map and the list of fields). */
export function* allFields(field: Field): Generator<Field> {
  yield field;
  if (field.kind === 'object') for (const f of field.fields) yield* allFields(f);
  else if (field.kind === 'array') for (const f of field.items) yield* allFields(f);
  else if (field.kind === 'choice') {
    // the chosen form's field stands at the same pointer; the choice itself is what a problem there names
    if (field.field.kind === 'array' || field.field.kind === 'object')
      for (const f of field.field.kind === 'array' ? field.field.items : field.field.fields) yield* allFields(f);
  }
}
