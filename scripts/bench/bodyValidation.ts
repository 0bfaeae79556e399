/**
 * What a hostile body can make the server spend on checking it against its schema. AJV collects
 * every error (allErrors), and it merged the errors of a subschema compiled as a function of its
 * own by copying every error found so far, once per invalid item: 5,000 `{}` events in a 16 KB
 * POST /api/events took 0.36 s (engine/validate/linearErrors.ts now appends them in place).
 *
 * Each array property at the top of each schema of schemas/api/ is filled with `{}` items (one
 * invalid value of most item schemas) to a body of 2,000 and of 16,000 bytes (the largest API
 * body cap), checked as the routes check a body (parseJsonBody: parse, shape, schema, the
 * problems worded). Eight times the items cost a check that reads each once about eight times
 * the time, a quadratic one sixty-four. The row is the largest such growth. Budget: ≤ 32×
 * (half of quadratic: each refusal is an error object allocated, and the collector's share of the
 * long body's time moves one run between 8× and 20× on an idle machine; the old merge was 140×).
 * Standalone: npx tsx scripts/bench/bodyValidation.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonBody } from '../../engine/http/api';
import type { Row } from './context';

const SHORT = 2_000;
const LONG = 16_000;
const BUDGET = 32;
const RUNS = 5;
/** Below this a time is the timer's and the call's, not the check's (ms). */
const FLOOR_MS = 0.05;

interface Target {
  file: string;
  schema: object;
  property: string;
}

/** The top-level array properties of the API's schemas. */
function targets(dir: string): Target[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .flatMap((file) => {
      const schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { properties?: Record<string, { type?: unknown }> };
      return Object.entries(schema.properties ?? {})
        .filter(([, p]) => p.type === 'array')
        .map(([property]) => ({ file, schema, property }));
    });
}

/** A body of about `bytes` bytes: the property's array full of `{}`. */
const bodyOf = (property: string, bytes: number) =>
  Buffer.from(
    `{${JSON.stringify(property)}:[${Array(Math.floor(bytes / 3))
      .fill('{}')
      .join(',')}]}`,
  );

/** The fastest of RUNS checks of `body`, in milliseconds. */
function fastest(body: Buffer, schema: object): number {
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    try {
      parseJsonBody(body, schema);
    } catch {
      // refused, as a hostile body is: the time is what refusing it cost
    }
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

export async function bodyValidationRows(root = process.cwd()): Promise<Row[]> {
  const found = targets(join(root, 'schemas/api'));
  let worst = { growth: 0, where: '', shortMs: 0, longMs: 0 };
  for (const t of found) {
    const shortMs = fastest(bodyOf(t.property, SHORT), t.schema);
    const longMs = fastest(bodyOf(t.property, LONG), t.schema);
    const growth = longMs / Math.max(shortMs, FLOOR_MS);
    if (growth > worst.growth) worst = { growth, where: `${t.file} /${t.property}`, shortMs, longMs };
  }
  return [
    {
      figure: `API body check on many invalid items: time at ${LONG.toLocaleString('en-US')} bytes ÷ at ${SHORT.toLocaleString('en-US')}, largest`,
      measured: `${worst.growth.toFixed(1)}× (${worst.where}: ${worst.shortMs.toFixed(2)} → ${worst.longMs.toFixed(2)} ms)`,
      budget: `≤ ${BUDGET}×`,
      ok: worst.growth <= BUDGET,
      note: `every top-level array of schemas/api/ (${found.length}) filled with {} items, checked as the routes check a body (parseJsonBody), the fastest of ${RUNS} runs at each size (times under ${FLOOR_MS} ms counted as ${FLOOR_MS}); reading each item once grows 8×, AJV's old error merge 64× (scripts/bench/bodyValidation.ts)`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await bodyValidationRows()) console.log(`${r.figure}: ${r.measured} [budget ${r.budget}] ${r.ok ? '✓' : '✗'}`);
}
