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

/**
 * For a command that takes no options: --help prints `help` (exit 0); any other word is refused
 * before the command changes anything (exit 2) — read as "no options", a mistyped one would run it.
 */
export function takesNoOptions(command: string, help: string, changed: string, args: readonly string[] = process.argv.slice(2)): void {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(help);
    process.exit(0);
  }
  if (args.length) {
    console.error(`${command}: "${args[0]}" is not read, so nothing was ${changed}.\n${help}`);
    process.exit(2);
  }
}

/** What a command accepts: options that take a value, options that do not, and how many plain words (a subcommand, a file). */
export interface ArgSpec {
  values: readonly string[];
  flags?: readonly string[];
  words?: number;
}

/**
 * Refuses, with the reason, what a command would otherwise read as "not given" and go on with: an
 * option it does not have (a typo such as --sinse would list the default period), an option that
 * takes a value given without one (--brand last on the line would list every brand, --brand
 * --json would list a brand called "--json"), and words it does not read.
 */
export function checkArgs(args: readonly string[], spec: ArgSpec): void {
  const known = [...spec.values, ...(spec.flags ?? [])];
  let words = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) {
      if (++words > (spec.words ?? 0)) throw new Error(`"${arg}" is not an option (the options are ${known.join(', ')})`);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (spec.values.includes(name)) {
      const value = eq < 0 ? args[i + 1] : arg.slice(eq + 1);
      if (value === undefined || value.trim() === '' || (eq < 0 && value.startsWith('--'))) throw new Error(`${name} needs a value after it`);
      if (eq < 0) i++;
    } else if (spec.flags?.includes(name)) {
      if (eq >= 0) throw new Error(`${name} takes no value`);
    } else throw new Error(`unknown option ${name} (the options are ${known.join(', ')})`);
  }
}

/** --since (`fallback` when not given) as the moment it names, with the text given; throws the reason when it cannot be read. */
export function sinceOption(args: readonly string[], fallback: string): { since: Date; sinceText: string } {
  const sinceText = option(args, '--since') ?? fallback;
  const since = parseSince(sinceText);
  if (!since) throw new Error(`--since ${sinceText}: give a number and a unit, e.g. 30m, 1h or 2d`);
  return { since, sinceText };
}

/** What a listing command reads: --since, --limit (a positive whole number, 10,000 when not given) and --brand. */
export function listingOptions(args: readonly string[], sinceFallback: string): { since: Date; sinceText: string; limit: number; brand?: string } {
  const since = sinceOption(args, sinceFallback);
  const limit = Number(option(args, '--limit') ?? 10_000);
  if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive whole number');
  const brand = option(args, '--brand');
  return { ...since, limit, ...(brand ? { brand } : {}) };
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
