/** What `npm run traces` parses and prints, as pure functions (tests/unit/traces-cli.test.ts). */
import type { SessionTrace } from '../engine/store/sessionTraces';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "30m", "1h", "2d" (also s and w) → the moment that long before `now`; undefined when unreadable. */
export function parseSince(text: string, now = Date.now()): Date | undefined {
  const m = /^(\d{1,6})\s*([smhdw])$/i.exec(text.trim());
  if (!m) return undefined;
  return new Date(now - Number(m[1]) * UNITS[m[2]!.toLowerCase()]!);
}

const COLUMNS: [title: string, value: (t: SessionTrace) => string, max: number][] = [
  ['time (UTC)', (t) => t.createdAt.replace('T', ' ').slice(0, 19), 19],
  ['brand', (t) => t.brand, 20],
  ['source1', (t) => t.source1 || '-', 24],
  ['source2', (t) => t.source2 || '-', 32],
  ['click id', (t) => t.clickId || '-', 24],
  ['GA client', (t) => t.gaClientId || '-', 22],
  ['ip', (t) => t.ip || '-', 16],
  ['uuid', (t) => t.uuid, 34],
];

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A plain-text table, one trace a line, long values cut with "…". */
export function traceTable(traces: SessionTrace[]): string {
  const cells = traces.map((t) => COLUMNS.map(([, value, max]) => cut(value(t).replace(/\s+/g, ' '), max)));
  const widths = COLUMNS.map(([title], i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(COLUMNS.map(([title]) => title)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
