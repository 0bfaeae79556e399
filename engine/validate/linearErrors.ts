/**
 * AJV's validators collect every error (allErrors), and the errors of a subschema compiled as a
 * function of its own (a $ref to one that itself has a $ref, or a recursive one) are merged
 * into the caller's list with `vErrors = vErrors.concat(sub.errors)`: a new copy of every error
 * found so far, once per invalid value checked by that function. An array of such values is then
 * checked in time growing with the square of its length: 5,000 `{}` in a 16 KB POST /api/events
 * (each item an event, refused four times over) took 0.36 s of the server's CPU, eight times
 * as many items sixty-four times as long.
 *
 * The generated code is given to `code.process` before it is compiled: there the merge is
 * rewritten to append to the caller's list in place, each error copied once. The caller's list
 * is its own (AJV already appends to it, and a subschema's function makes a new list on each
 * call), so the result is the same list of errors in the same order.
 */

/** The merge as AJV 8 writes it (ajv/lib/compile/validate/keyword.ts addErrs, vocabularies/core/ref.ts addErrorsFrom); `$1` is the subschema's `.errors`. */
const MERGE = /vErrors = vErrors === null \? ([\w$.]+) : vErrors\.concat\(\1\);/g;

/** The generated code of one validator, its error merges appending in place; throws when a merge is left that it cannot rewrite. */
export function linearErrorMerge(code: string): string {
  const out = code.replace(MERGE, (_, errs: string) => `if (vErrors === null) vErrors = ${errs}; else for (const e of ${errs}) vErrors.push(e);`);
  // a new version of AJV that merges otherwise: stop at compile time rather than serve a validator quadratic again
  if (/vErrors\.concat\(/.test(out)) throw new Error('AJV merges validation errors in a way engine/validate/linearErrors.ts does not rewrite: update MERGE');
  return out;
}

/** AJV's `code` option that keeps error collection linear: every validator of the engine is made with it. */
export const LINEAR_ERRORS_CODE = { process: linearErrorMerge } as const;
