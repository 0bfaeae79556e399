/**
 * What a hostile body can make the server spend on the patterns of the API's schemas. AJV checks
 * every keyword of a body (allErrors), so a field's pattern runs even on a value far over its
 * maxLength: up to the route's body cap. A pattern that backtracks over the whole value (a group
 * that can take the same characters as what follows it) costs time in the square of the value's
 * length: a 16,000-character name ending in a refused character took the name pattern 0.65 s.
 *
 * Each pattern of schemas/api/ runs on values of 2,000 and of 16,000 characters (one character or
 * pair, repeated, then a character most patterns refuse): eight times the length costs a pattern
 * that reads a value once about eight times the time, one that backtracks over it sixty-four.
 * The row is the largest such growth; a ratio of two times on one machine moments apart does not
 * move with its load. Budget: ≤ 24× (three times what reading once costs: a busy machine can slow
 * all five runs of one value; backtracking is 64×).
 * Standalone: npx tsx scripts/bench/bodyPatterns.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from './context';

const SHORT = 2_000;
const LENGTH = 16_000;
const BUDGET = 24;
const RUNS = 5;
/** Below this a time is the timer's and the call's, not the pattern's (ms). */
const FLOOR_MS = 0.05;
const FILLS = ['a', 'A', 'é', '김', '1', '0', ' ', '-', '.', '/', '_', ':', '@', '+', 'a.', 'a@', '1-', 'a '];
const ENDS = ['\u0000', '!', '\n', '\u202e', '@@', ' ', '#', '..', '='];

interface Pattern {
  where: string;
  source: string;
}

function patternsOf(node: unknown, where: string, out: Pattern[]): Pattern[] {
  if (Array.isArray(node)) node.forEach((n, i) => patternsOf(n, `${where}/${i}`, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === 'pattern' && typeof v === 'string') out.push({ where, source: v });
      else patternsOf(v, `${where}/${k}`, out);
    }
  return out;
}

/** The fastest of RUNS tests of `re` on `text`, in milliseconds (the fastest: the others met a collection or another process). */
function fastest(re: RegExp, text: string): number {
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    re.test(text);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

export async function bodyPatternRows(root = process.cwd()): Promise<Row[]> {
  const dir = join(root, 'schemas/api');
  const patterns = readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .flatMap((f) => patternsOf(JSON.parse(readFileSync(join(dir, f), 'utf8')), f, []));
  let worst = { growth: 0, where: '', value: '', shortMs: 0, longMs: 0 };
  for (const p of patterns) {
    const re = new RegExp(p.source, 'u');
    for (const fill of FILLS)
      for (const end of ENDS) {
        const value = (length: number) => fill.repeat(Math.ceil(length / fill.length)).slice(0, length) + end;
        const shortMs = fastest(re, value(SHORT));
        const longMs = fastest(re, value(LENGTH));
        const growth = longMs / Math.max(shortMs, FLOOR_MS);
        if (growth > worst.growth) worst = { growth, where: p.where, value: `${JSON.stringify(fill)} repeated + ${JSON.stringify(end)}`, shortMs, longMs };
      }
  }
  return [
    {
      figure: `API body patterns on a hostile value: time at ${LENGTH.toLocaleString('en-US')} characters ÷ at ${SHORT.toLocaleString('en-US')}, largest`,
      measured: `${worst.growth.toFixed(1)}× (${worst.where} on ${worst.value}: ${worst.shortMs.toFixed(3)} → ${worst.longMs.toFixed(3)} ms)`,
      budget: `≤ ${BUDGET}×`,
      ok: worst.growth <= BUDGET,
      note: `every pattern of schemas/api/ (${patterns.length}) on ${FILLS.length * ENDS.length} kinds of value (one character or pair repeated, then one most patterns refuse), the fastest of ${RUNS} runs at each length (times under ${FLOOR_MS} ms counted as ${FLOOR_MS}); reading a value once grows 8×, backtracking over it 64×: AJV checks a field's pattern even past its maxLength, up to the body's cap (scripts/bench/bodyPatterns.ts)`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await bodyPatternRows()) console.log(`${r.figure}: ${r.measured} [budget ${r.budget}] ${r.ok ? '✓' : '✗'}`);
}
