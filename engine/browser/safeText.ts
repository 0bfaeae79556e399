/**
 * Text that came from outside (an email typed at sign-in, a campaign parameter, a buyer's error
 * message) as the console's pages, the CLI's tables and the CSV files show it: shown, never obeyed.
 * One module for the engine and the operator commands (scripts/cliFormat.ts re-exports it).
 */

/**
 * What a reader cannot see, or sees reordered, in text: every control character (C0, DEL, C1:
 * ESC, CSI and OSC start sequences that clear a terminal, move its cursor or make links), every
 * format character (Unicode Cf: the bidirectional marks, embeddings, overrides and isolates, the
 * zero-width space, joiners and word joiner, the byte-order mark, the soft hyphen, tag characters),
 * the line and paragraph separators, half a surrogate pair, and the other characters drawn as
 * nothing (Unicode's default-ignorable ones: variation selectors, the Hangul fillers; and the
 * braille blank).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/**
 * Every hidden character (HIDDEN) written as a visible escape ("\x1b", "\u202e", "\u200b",
 * "\u{e0041}"): a right-to-left override in an email would otherwise turn the rest of its table
 * row around, so an entry reads as something else, and "ana\u200b@example.com" or a campaign
 * with a zero-width space in it would look the same as the value without, though it is another.
 * The one place that says how outside text is shown (console pages, CLI tables, schema problems).
 */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, (c) => {
    const code = c.codePointAt(0)!;
    const hex = code.toString(16);
    return code <= 0xff ? `\\x${hex.padStart(2, '0')}` : code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
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
 * @, a tab, a carriage return or a line feed (OWASP's CSV-injection rule) gets a leading
 * apostrophe.
 */
export const spreadsheetSafe = (value: string): string => (/^[=+\-@\t\r\n]/.test(value) ? `'${value}` : value);

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
