/**
 * Schema errors (AJV's) rewritten for people who edit brand, layout, part, buyer or request
 * documents: a JSON pointer and a plain-English reason with the allowed values. Apart from the
 * validators (engine/validate/schema.ts) so that the many modules which only word errors (API
 * routes, the lead and sale code) do not carry the schemas and AJV's compiler with them.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { visibleText } from '../browser/safeText';
import { characterCount } from '../browser/visitValue';

export interface Problem {
  pointer: string;
  message: string;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
// what JSON leaves as it is but a reader cannot see, or sees reordered (a right-to-left override turns the rest of the reason around), is written
// as its escape, as the console shows such text: a refused name of Hangul fillers would otherwise read as ""
const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s !== undefined && s.length > 60 ? visibleText(s.slice(0, 57)) + '…' : visibleText(String(s));
};

function describe(err: ErrorObject): Problem | undefined {
  const at = err.instancePath;
  const parent = (err.parentSchema ?? {}) as Record<string, unknown>;
  const params = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'additionalProperties': {
      const prop = String(params.additionalProperty);
      const allowed = Object.keys((parent.properties as object | undefined) ?? {});
      return { pointer: `${at}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: `unknown property "${prop}" (allowed: ${allowed.join(', ')})` };
    }
    case 'required':
      return { pointer: at, message: `missing required property "${String(params.missingProperty)}"` };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      if (/\/blocks\/\d+\/type$/.test(at)) return { pointer: at, message: `unknown block ${show(err.data)} (known: ${allowed.join(', ')})` };
      return { pointer: at, message: `${show(err.data)} is not allowed here (allowed: ${allowed.join(', ')})` };
    }
    case 'const':
      return { pointer: at, message: `must be ${show(params.allowedValue)}` };
    case 'type':
      return { pointer: at, message: `must be ${article(String(params.type))}, not ${article(kindOf(err.data))}` };
    case 'pattern': {
      const hint = parent.patternHint as string | undefined;
      return {
        pointer: at,
        message: hint ? `${show(err.data)} is not valid: expected ${hint}` : `${show(err.data)} does not have the expected form (${String(params.pattern)})`,
      };
    }
    // counted as AJV counts them (code points): `length` would say 1,000 of 500 emoji, which passed
    case 'minLength':
      return { pointer: at, message: `is too short: at least ${String(params.limit)} characters (it has ${characterCount(err.data as string)})` };
    case 'maxLength':
      return { pointer: at, message: `is too long: at most ${String(params.limit)} characters (it has ${characterCount(err.data as string)})` };
    case 'minItems':
      return { pointer: at, message: `needs at least ${String(params.limit)} ${params.limit === 1 ? 'entry' : 'entries'}` };
    case 'maxItems':
      return { pointer: at, message: `can have at most ${String(params.limit)} entries` };
    case 'uniqueItems': {
      // AJV's j is the later of the two, i the earlier, both counted from 0: point at the later one, say the value, count from 1
      const later = Number(params.j);
      const earlier = Number(params.i);
      const value = Array.isArray(err.data) ? show(err.data[later]) : 'an entry';
      return {
        pointer: `${at}/${later}`,
        message: `${value} is in this list twice (entries ${earlier + 1} and ${later + 1}, counting from 1); keep one`,
      };
    }
    case 'minProperties':
    case 'maxProperties': {
      const n = Number(params.limit);
      return {
        pointer: at,
        message: `${err.keyword === 'minProperties' ? 'needs at least' : 'can have at most'} ${n} ${n === 1 ? 'property' : 'properties'}${Object.keys((parent.properties as object | undefined) ?? {}).length ? ` (of ${Object.keys(parent.properties as object).join(', ')})` : ''}`,
      };
    }
    case 'minimum':
    case 'maximum':
      return { pointer: at, message: `must be ${err.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}` };
    case 'anyOf':
      if (parent.properties && 'children' in (parent.properties as object))
        return { pointer: at, message: 'a navigation entry needs an "href", "children" (a drop-down group), or both' };
      return { pointer: at, message: 'does not match any of the allowed forms' };
    case 'propertyNames':
      return undefined; // reported by the inner pattern error on the name
    case 'if':
      return undefined; // block dispatch: the error inside the block's own schema says what is wrong
    default:
      return { pointer: at, message: err.message ?? 'is not valid' };
  }
}

/** AJV's errors as problems, each once; with `limit`, no more than that many are worded (the rest are not looked at). */
export function toProblems(errors: readonly ErrorObject[] | null | undefined, limit = Infinity): Problem[] {
  if (!errors) return [];
  // A nav entry missing both href and children produces two "required" errors under anyOf; keep the anyOf one.
  const anyOfAt = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const err of errors) {
    if (out.length >= limit) break;
    if (err.keyword === 'required' && anyOfAt.has(err.instancePath) && err.schemaPath.includes('/anyOf/')) continue;
    if (err.keyword === 'pattern' && err.propertyName !== undefined) {
      // each schema's names have their own form: its hint, else the pattern itself (one fixed wording was wrong for most)
      const hint = (err.parentSchema as { patternHint?: string } | undefined)?.patternHint;
      const p = {
        pointer: `${err.instancePath}/${err.propertyName}`,
        message: hint
          ? `name "${err.propertyName}" is not valid: expected ${hint}`
          : `name "${err.propertyName}" does not have the expected form (${String(err.params.pattern)})`,
      };
      if (seen.has(p.pointer + p.message)) continue;
      out.push(p);
      seen.add(p.pointer + p.message);
      continue;
    }
    const p = describe(err);
    if (p && !seen.has(p.pointer + p.message)) {
      seen.add(p.pointer + p.message);
      out.push(p);
    }
  }
  return out;
}
