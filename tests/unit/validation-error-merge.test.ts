import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import eventsSchema from '../../schemas/api/events.schema.json' with { type: 'json' };
import { ApiError, MAX_LISTED_PROBLEMS, MORE_PROBLEMS, parseJsonBody, validatorFor } from '../../engine/http/api';
import { linearErrorMerge } from '../../engine/validate/linearErrors';
import { checkBrandSchema } from '../../engine/validate/schema';

/** A 16 KB POST /api/events body (the route's cap) of `{}` events: each one refused four times over. */
const hostileEvents = (items: number) => Buffer.from(`{"events":[${Array(items).fill('{}').join(',')}]}`);

/**
 * How many array elements Array.prototype.concat copies while `run` runs: AJV merged a
 * subschema's errors with concat, a copy of every error found so far per invalid item.
 */
const realConcat = Array.prototype.concat;
function elementsConcatenated(run: () => void): number {
  let copied = 0;
  Array.prototype.concat = function (this: unknown[], ...rest: unknown[]) {
    const out = realConcat.apply(this, rest);
    copied += out.length;
    return out;
  } as typeof realConcat;
  try {
    run();
  } finally {
    Array.prototype.concat = realConcat;
  }
  return copied;
}
afterEach(() => {
  Array.prototype.concat = realConcat;
});

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ApiError) return err.problems;
    throw err;
  }
  throw new Error('the body was accepted');
}

describe('checking a body of many invalid items', () => {
  it('copies each error a bounded number of times, not once per item after it', () => {
    const items = 5000;
    const body: unknown = JSON.parse(hostileEvents(items).toString());
    const validate = validatorFor(eventsSchema);
    const copied = elementsConcatenated(() => validate(body));
    expect(validate.errors!.length).toBeGreaterThan(4 * items);
    // before: every invalid event copied every error found before it (~75 million copies for these 5,000)
    expect(copied).toBeLessThan(4 * validate.errors!.length);
  });

  it('answers with the first 100 problems and says there are more, not every one of its 20,000', () => {
    const problems = problemsOf(() => parseJsonBody(hostileEvents(5000), eventsSchema));
    expect(problems).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(problems[0]).toBe('/events: can have at most 50 entries');
    expect(problems[1]).toMatch(/^\/events\/0: missing required property/);
    expect(problems.at(-1)).toBe('… and more problems: only the first 100 are listed');
    // a body with fewer problems lists every one, with no such line
    const few = problemsOf(() => parseJsonBody(Buffer.from('{"events":[{},{}]}'), eventsSchema));
    expect(few.length).toBeGreaterThan(2);
    expect(few).not.toContain(MORE_PROBLEMS);
  });

  it('finds the same errors, in the same order, as AJV merging them its own way', () => {
    const body = {
      events: [{}, { type: 'page_view' }, { type: 'step_completed', path: '/' }, { type: 'state_refused', path: '//x', state: 'tx' }, { path: 3 }],
      landing: { path: '', params: { utm_x: 'a', bad: 1 } },
      extra: true,
    };
    const plain = new Ajv2020({ allErrors: true, verbose: true, strict: false }).compile(eventsSchema);
    plain(body);
    const ours = validatorFor(eventsSchema);
    ours(body);
    const shape = (errors: typeof plain.errors) => (errors ?? []).map((e) => `${e.instancePath} ${e.schemaPath} ${e.message}`);
    expect(shape(ours.errors)).toEqual(shape(plain.errors));
    expect(ours.errors!.length).toBeGreaterThan(10);
  });

  it('compiles every API schema and the brand schema with the merge rewritten', async () => {
    const dir = join(process.cwd(), 'schemas/api');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.schema.json'))) {
      // the module the routes import, so each schema is compiled once as in the server
      const { default: schema } = (await import(join(dir, file), { with: { type: 'json' } })) as { default: object };
      expect(() => validatorFor(schema), file).not.toThrow();
    }
    expect(checkBrandSchema({})).not.toEqual([]);
  });

  it('refuses to compile a merge it does not know how to rewrite', () => {
    expect(linearErrorMerge('vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);errors = vErrors.length;')).toBe(
      'if (vErrors === null) vErrors = validate21.errors; else for (const e of validate21.errors) vErrors.push(e);errors = vErrors.length;',
    );
    expect(() => linearErrorMerge('vErrors = vErrors.concat(more);')).toThrow(/linearErrors\.ts/);
  });
});
