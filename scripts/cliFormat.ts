/** What the operator commands (`npm run traces`, `npm run leads`) parse and print, as pure functions (tests/unit/traces-cli.test.ts). */
import type { SessionTrace } from '../engine/store/sessionTraces';

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

/**
 * Stored text as a terminal may show it: every control character (C0, DEL, C1: ESC, CSI and OSC
 * start sequences that clear the screen, move the cursor or make links) and every bidirectional
 * override is written as a visible escape ("\x1b", "\u202e"), so data is only ever printed, never obeyed.
 */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A plain-text table, one row a line, long values cut with "…". */
export function textTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((r) => columns.map(([, value, max]) => cut(terminalSafe(value(r).replace(/\s+/g, ' ')), max)));
  const widths = columns.map(([title], i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns.map(([title]) => title)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export const traceTable = (traces: readonly SessionTrace[]): string => textTable(traces, COLUMNS);

/**
 * A value a spreadsheet will show as text, never run as a formula: a cell starting with =, +, -,
 * @, a tab or a carriage return (OWASP's CSV-injection rule) gets a leading apostrophe.
 */
export const spreadsheetSafe = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * RFC 4180 CSV: a header line, then one line a row; fields with commas, quotes or newlines
 * quoted, and every field spreadsheet-safe. Every CSV the project writes goes through here.
 */
export function csv<T>(rows: readonly T[], columns: readonly [title: string, value: (row: T) => string][]): string {
  const field = (raw: string) => {
    const v = spreadsheetSafe(raw);
    return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  };
  return [columns.map(([t]) => field(t)).join(','), ...rows.map((r) => columns.map(([, value]) => field(value(r))).join(','))].join('\r\n') + '\r\n';
}
