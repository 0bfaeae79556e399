/**
 * Text that came from outside (an email typed at sign-in, a campaign parameter, a buyer's error
 * message) as the console's pages, the CLI's tables and the CSV files show it: shown, never obeyed.
 * One module for the engine and the operator commands (scripts/cliFormat.ts re-exports it).
 */

/**
 * Every control character (C0, DEL, C1: ESC, CSI and OSC start sequences that clear a terminal,
 * move its cursor or make links) and every bidirectional mark, embedding, override and isolate
 * written as a visible escape ("\x1b", "\u202e"): a right-to-left override in an email would
 * otherwise turn the rest of its table row around, so an entry reads as something else.
 */
export function visibleText(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Text of several lines (a posted body as indented JSON) shown as visibleText shows one, its line
 * breaks kept as breaks: JSON leaves a right-to-left override as it is, and in a <pre> it would
 * turn the rest of its line around ("firstName": "\u202egnp.exe", is shown as "firstName": ","exe.png).
 */
export const visibleLines = (text: string): string => text.split('\n').map(visibleText).join('\n');

/**
 * A value a spreadsheet will show as text, never run as a formula: a cell starting with =, +, -,
 * @, a tab or a carriage return (OWASP's CSV-injection rule) gets a leading apostrophe.
 */
export const spreadsheetSafe = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * RFC 4180 CSV: a header line, then one line a row; every field spreadsheet-safe, and quoted when it
 * holds a comma, quote or line break, or a semicolon or tab: a spreadsheet set to a European list
 * separator (;) or reading tabs splits an unquoted "Ana;=HYPERLINK(…)" into a cell that starts
 * with "=" and runs it. Every CSV the project writes goes through here.
 */
export function csv<T>(rows: readonly T[], columns: readonly [title: string, value: (row: T) => string][]): string {
  const field = (raw: string) => {
    const v = spreadsheetSafe(raw);
    return /[",;\t\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  };
  return [columns.map(([t]) => field(t)).join(','), ...rows.map((r) => columns.map(([, value]) => field(value(r))).join(','))].join('\r\n') + '\r\n';
}
