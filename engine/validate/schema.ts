/**
 * The schemas of brand, layout, part and buyer files, compiled with AJV when such a file is checked;
 * their errors are worded by engine/validate/problems.ts.
 *
 * What this costs a server: compiling is the largest allocation of its start (the four schemas as
 * they are written compiled to ~25 MB of V8 heap), and V8 keeps the pages a heap grew into
 * resident after the validators are collected, so an idle server's RSS carries that peak. Hence:
 * - each validator is compiled when a file of its kind is first checked, not all four together
 *   (the buyers, checked at start in another bundle, compile only the small buyer schema);
 * - layout.schema.json and part.schema.json spell out the brand schema's $defs (editors need each
 *   file whole), but here they point at the brand schema's, so those definitions are compiled once;
 * - the schemas are read from schemas/ when compiled rather than imported: every bundle that
 *   checks files would otherwise hold the JSON (~250 KB, as source and as objects) for its life.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toProblems, type Problem } from './problems';
import { LINEAR_ERRORS_CODE } from './linearErrors';
import { unseenTextProblems } from './unseenText';

export type { Problem };

type Kind = 'brand' | 'layout' | 'part' | 'buyer';
type Schema = { $id?: string; $defs?: unknown; [key: string]: unknown };

/** schemas/ of the code that runs (not LOANSITES_ROOT, which may name a folder of brand files only). */
const readSchema = (kind: Kind): Schema =>
  JSON.parse(readFileSync(join(/* turbopackIgnore: true */ process.cwd(), 'schemas', `${kind}.schema.json`), 'utf8')) as Schema;

/** Every "#/$defs/x" of a schema made "<brand schema's $id>#/$defs/x", and its own $defs dropped. */
export function onBrandDefs(schema: Schema, brandId: string): Schema {
  const point = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(point);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? brandId + v : point(v)]),
    );
  };
  const { $defs: _own, ...rest } = schema;
  return point(rest) as Schema;
}

interface Compiler {
  ajv: Ajv2020;
  /** the brand schema, once read (added to `ajv` under its $id) */
  brand?: Schema;
  made: Partial<Record<Kind, ValidateFunction>>;
}

/**
 * Held weakly: a production server checks its files once, at start, and the compiled validators
 * (~2 MB of generated functions) would otherwise stay for its whole life; a developer's server,
 * which checks them at every change, compiles again only after they were collected.
 */
let held: WeakRef<Compiler> | undefined;

function brandIn(c: Compiler): Schema {
  if (!c.brand) {
    c.brand = readSchema('brand');
    c.ajv.addSchema(c.brand);
  }
  return c.brand;
}

function compile(c: Compiler, kind: Kind): ValidateFunction {
  if (kind === 'buyer') return c.ajv.compile(readSchema('buyer'));
  const brand = brandIn(c);
  if (kind === 'brand') return c.ajv.getSchema(brand.$id!)!;
  const schema = readSchema(kind);
  // Generated with the brand schema's $defs (scripts/schema-build.ts); a copy edited apart from them is compiled as it is.
  const same = JSON.stringify(schema.$defs) === JSON.stringify(brand.$defs);
  return c.ajv.compile(same ? onBrandDefs(schema, brand.$id!) : schema);
}

function validator(kind: Kind): ValidateFunction {
  let c = held?.deref();
  if (!c) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false, code: LINEAR_ERRORS_CODE });
    ajv.addKeyword({ keyword: 'patternHint', schemaType: 'string' });
    ajv.addKeyword({ keyword: 'x-template', schemaType: 'string' });
    c = { ajv, made: {} };
    held = new WeakRef(c);
  }
  return (c.made[kind] ??= compile(c, kind));
}

/** Which validators the compiler now held has compiled (none once it was collected): for tests. */
export const compiledKinds = (): Kind[] => Object.keys(held?.deref()?.made ?? {}) as Kind[];

const check = (kind: Kind, value: unknown): Problem[] => {
  const v = validator(kind);
  const found = v(value) ? [] : toProblems(v.errors);
  // what a visitor reads: no text of a brand, layout or part may reorder itself unseen, or be blank
  return kind === 'buyer' ? found : [...found, ...unseenTextProblems(value)];
};

export const checkBrandSchema = (value: unknown): Problem[] => check('brand', value);
export const checkLayoutSchema = (value: unknown): Problem[] => check('layout', value);
export const checkPartSchema = (value: unknown): Problem[] => check('part', value);
export const checkBuyerSchema = (value: unknown): Problem[] => check('buyer', value);
