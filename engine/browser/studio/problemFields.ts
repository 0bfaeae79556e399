/**
 * Each problem the validator reports (a JSON pointer and the words `npm run validate` prints) put
 * at the field it concerns: the field at its pointer; for a missing required property, the field
 * of that property; for a pointer below any field (a part of a value edited as one), the nearest
 * field above it; for a problem in a shared layout a route names, that route's layout picker.
 * A problem no field stands for is still listed at the top, against the whole brand. Pure.
 * Tests in tests/unit/studio-problem-fields.test.ts.
 */
import { decodePointer, encodePointer } from '../jsonPointer';
import { fieldId } from './schemaForm';

export interface Problem {
  pointer: string;
  message: string;
  /** the problem as `npm run validate` words it, where the API gives it */
  text?: string;
  /** the file the problem is in when it is not the brand's (a shared layout: brands/layouts/<name>.json) */
  file?: string;
}

export interface PlacedProblem extends Problem {
  /** the id of the field that shows it; undefined: only at the top */
  fieldId?: string;
  /** the pointer of that field */
  at?: string;
}

const MISSING = /^missing required property "([^"]+)"/;
/** a layout's text parameter named in the message ("writes {param.statePath}") */
const LAYOUT_PARAM = /\{param\.([A-Za-z][A-Za-z0-9]*)\}/;
const UNKNOWN = /^unknown property "([^"]+)"/;

/** The layout name a shared layout's file stands for ("brands/layouts/starter-home.json" → "starter-home"). */
const sharedLayoutOf = (file: string | undefined): string | undefined => (file ? /(?:^|\/)layouts\/([^/]+)\.json$/.exec(file)?.[1] : undefined);

/**
 * Where each problem shows. `fields` is every field pointer the page has (absent optional
 * properties included, as the form shows them empty); `document` the brand being edited, to
 * find the routes that name a shared layout.
 */
export function placeProblems(problems: readonly Problem[], fields: ReadonlySet<string>, document?: { routes?: unknown[] }): PlacedProblem[] {
  return problems.map((p) => {
    const at = fieldPointerOf(p, fields, document);
    return at === undefined ? { ...p } : { ...p, at, fieldId: fieldId(at) };
  });
}

export function fieldPointerOf(p: Problem, fields: ReadonlySet<string>, document?: { routes?: unknown[] }): string | undefined {
  const shared = sharedLayoutOf(p.file);
  if (shared) {
    // the shared layout is not edited here: the problem stands at the layout picker of the first route that shows it
    const i = (document?.routes ?? []).findIndex((r) => !!r && typeof r === 'object' && (r as { layout?: unknown }).layout === shared);
    if (i < 0) return undefined;
    return paramField(encodePointer(['routes', i]), p.message, fields) ?? nearest(encodePointer(['routes', i, 'layout']), fields);
  }
  // a route that leaves out (or misspells) a text its layout writes: the route's field for that text
  if (/^\/routes\/\d+(\/layoutParams)?$/.test(p.pointer)) {
    const param = paramField(p.pointer.replace(/\/layoutParams$/, ''), p.message, fields);
    if (param) return param;
  }
  const missing = MISSING.exec(p.message)?.[1];
  if (missing !== undefined) {
    const child = `${p.pointer}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (fields.has(child)) return child;
  }
  // an unknown property has no field of its own: its object shows it
  if (UNKNOWN.test(p.message)) return nearest(parentOf(p.pointer), fields);
  return nearest(p.pointer, fields);
}

function paramField(route: string, message: string, fields: ReadonlySet<string>): string | undefined {
  const name = LAYOUT_PARAM.exec(message)?.[1];
  const at = name && `${route}/layoutParams/${name}`;
  return at && fields.has(at) ? at : undefined;
}

const parentOf = (pointer: string): string => encodePointer(decodePointer(pointer).slice(0, -1));

/** The field at the pointer or the nearest one above it; '' (the document) is no field. */
function nearest(pointer: string, fields: ReadonlySet<string>): string | undefined {
  const parts = decodePointer(pointer);
  for (let n = parts.length; n > 0; n--) {
    const at = encodePointer(parts.slice(0, n));
    if (fields.has(at)) return at;
  }
  return undefined;
}

/** Problems by field id, for the field to list its own. */
export function problemsByField(placed: readonly PlacedProblem[]): Map<string, PlacedProblem[]> {
  const out = new Map<string, PlacedProblem[]>();
  for (const p of placed) if (p.fieldId) out.set(p.fieldId, [...(out.get(p.fieldId) ?? []), p]);
  return out;
}
