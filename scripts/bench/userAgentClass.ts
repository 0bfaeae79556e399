/**
 * What a hostile User-Agent header can make the server spend on classing the device of a visit
 * (engine/store/trafficRules.ts deviceClass, run on every visit the events API counts). A test
 * that reads the rest of the header again from each of its words (a lookahead from every
 * "android" to "mobile" at the end) costs time in the square of the header's length: 16 KB of
 * "android " took ~9 ms where a plain header of that length took ~30 µs.
 *
 * Each shape of header runs at 2,000 and at 16,000 characters (Node's header limit is 16 KB):
 * reading it once grows about eight times, reading it again from every word sixty-four. The row
 * is the largest growth. Budget: ≤ 24×, as the API's body patterns (scripts/bench/bodyPatterns.ts).
 * Standalone: npx tsx scripts/bench/userAgentClass.ts
 */
import { deviceClass } from '../../engine/store/trafficRules';
import type { Row } from './context';

const SHORT = 2_000;
const LENGTH = 16_000;
const BUDGET = 24;
const RUNS = 5;
const CALLS = 20;
/** Below this a time is the timer's and the call's, not the classing's (ms). */
const FLOOR_MS = 0.01;
/** Words a classifier looks for, repeated, each then followed by what it may look for after them. */
const FILLS = ['android ', 'mobile ', 'ipad ', 'tablet ', 'bot ', 'crawler ', 'mozilla/5.0 (', 'x', ' ', 'linux; '];
const ENDS = ['mobile', 'tablet', 'safari', 'bot', '', ')'];

/** The fastest of RUNS rounds of CALLS classings of `ua`, in milliseconds a classing. */
function fastest(ua: string): number {
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    for (let c = 0; c < CALLS; c++) deviceClass(ua);
    best = Math.min(best, (performance.now() - start) / CALLS);
  }
  return best;
}

export async function userAgentClassRows(): Promise<Row[]> {
  let worst = { growth: 0, value: '', shortMs: 0, longMs: 0 };
  for (const fill of FILLS)
    for (const end of ENDS) {
      const value = (length: number) => fill.repeat(Math.ceil(length / fill.length)).slice(0, length - end.length) + end;
      const shortMs = fastest(value(SHORT));
      const longMs = fastest(value(LENGTH));
      const growth = longMs / Math.max(shortMs, FLOOR_MS);
      if (growth > worst.growth) worst = { growth, value: `${JSON.stringify(fill)} repeated + ${JSON.stringify(end)}`, shortMs, longMs };
    }
  return [
    {
      figure: `device class of a hostile User-Agent: time at ${LENGTH.toLocaleString('en-US')} characters ÷ at ${SHORT.toLocaleString('en-US')}, largest`,
      measured: `${worst.growth.toFixed(1)}× (${worst.value}: ${worst.shortMs.toFixed(4)} → ${worst.longMs.toFixed(4)} ms)`,
      budget: `≤ ${BUDGET}×`,
      ok: worst.growth <= BUDGET,
      note: `${FILLS.length * ENDS.length} shapes of header (a word repeated, then what a classifier looks for after it), the fastest of ${RUNS} rounds of ${CALLS} at each length (times under ${FLOOR_MS} ms counted as ${FLOOR_MS}); reading once grows 8×, reading again from every word 64× (scripts/bench/userAgentClass.ts)`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await userAgentClassRows()) console.log(`${r.figure}: ${r.measured} [budget ${r.budget}] ${r.ok ? '✓' : '✗'}`);
}
