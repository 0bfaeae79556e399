/** What the operator commands (`npm run traces`, `npm run leads`) parse and print, as pure functions (tests/unit/traces-cli.test.ts). */
import { visibleText } from '../engine/browser/safeText';
import type { SessionTrace } from '../engine/store/sessionTraces';

/** The escaping is the engine's (engine/browser/safeText.ts), shared with the console's pages. */
export { csv, spreadsheetSafe, visibleText as terminalSafe } from '../engine/browser/safeText';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "30m", "1h", "2d" (also s and w) → the moment that long before `now`; undefined when unreadable. */
export function parseSince(text: string, now = Date.now()): Date | undefined {
  const m = /^(\d{1,6})\s*([smhdw])$/i.exec(text.trim());
  if (!m) return undefined;
  return new Date(now - Number(m[1]) * UNITS[m[2]!.toLowerCase()]!);
}

/** The value of `--name value` or `--name=value`, if given. */
export function option(args: readonly string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const arg = args[i]!;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1];
}

export type Column<T> = [title: string, value: (row: T) => string, max: number];

const COLUMNS: Column<SessionTrace>[] = [
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

/** A plain-text table, one row a line, long values cut with "…". */
export function textTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((r) => columns.map(([, value, max]) => cut(visibleText(value(r).replace(/\s+/g, ' ')), max)));
  const widths = columns.map(([title], i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns.map(([title]) => title)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export const traceTable = (traces: readonly SessionTrace[]): string => textTable(traces, COLUMNS);
