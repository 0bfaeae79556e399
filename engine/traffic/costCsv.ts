/**
 * Ad platforms' cost reports (CSV) → one row a day and campaign: the cost in cents, clicks and
 * impressions. Each platform names its columns its own way (the mapping below, written out in
 * docs/operators/console.md); the header is found among the first lines, since Google Ads puts a
 * report title and a date range above it, and "Total" lines (no day) are skipped. Pure: no store.
 *
 * A file is refused whole, with every problem's line number (up to MAX_ERRORS), rather than
 * imported in part: a half-imported report would make the costs of some days silently wrong.
 * Refused: a file that is not CSV text (a workbook, binary) or is separated by semicolons, a cell
 * that is not UTF-8, a campaign a visit could not have (a control character: visitKeeps), a cost or count that is not a
 * plain non-negative number or a line cut short before it, an amount naming another currency than
 * its line's, a day that is not a date (a slash day read in the order the operator says: DayOrder)
 * or has not come yet, the same day and campaign twice, a file
 * over COST_CSV_MAX_BYTES or COST_CSV_MAX_ROWS, two campaigns a visit cannot tell apart (below).
 *
 * A campaign is taken exactly as the file has it (trimmed, as a visit's is), so "-brand-exact"
 * or "=x" gets the cost of the visits that name it. Reading such a cell runs nothing: a formula is
 * a danger when a spreadsheet opens a file we write, and every CSV we write is spreadsheet-safe
 * (engine/browser/safeText.ts csv). A leading apostrophe is kept, not taken for a spreadsheet's
 * "text" mark: Excel, LibreOffice and Google Sheets keep that mark out of the CSV they save
 * ('-brand is saved -brand), so in a report it is part of the name, as it is in a visit's.
 *
 * A campaign longer than a visit keeps (VISIT_VALUE_MAX characters, counted as the events API
 * counts them: engine/browser/visitValue.ts) is cut as the visit's was, to its first
 * VISIT_VALUE_MAX characters, so that the cost of a campaign the ad platform names in full meets
 * its visits; the row keeps the full name (`named`) for the import's summary. Two campaigns of
 * one file that are the same once cut (two long names, or a long name and its own first
 * VISIT_VALUE_MAX characters) come from visits no one can tell apart, so their lines are refused;
 * one the same once cut as a campaign an earlier import stored under another full name is refused
 * by the store (engine/store/costs.ts), which keeps each row's full name.
 */
import { visibleText } from '../browser/safeText';
import { cutToCharacters, characterCount, VISIT_VALUE_MAX } from '../browser/visitValue';
import { visitKeeps } from '../store/trafficRules';

export const COST_SOURCES = ['google', 'microsoft', 'meta', 'tiktok', 'generic'] as const;
export type CostSource = (typeof COST_SOURCES)[number];

export const COST_CSV_MAX_BYTES = 2 * 1024 * 1024;
export const COST_CSV_MAX_ROWS = 50_000;
/** the most problems a refusal lists */
export const MAX_ERRORS = 20;
/** lines above the header a report may have (a title, a date range) */
const HEADER_SEARCH = 10;

type Field = 'day' | 'campaign' | 'cost' | 'clicks' | 'impressions' | 'currency';

/** Each source's column names per field, lower-case; the first present wins. Currency is optional. */
export const COST_COLUMNS: Record<CostSource, Record<Field, readonly string[]>> = {
  google: {
    day: ['day', 'date'],
    campaign: ['campaign', 'campaign name'],
    cost: ['cost'],
    clicks: ['clicks'],
    impressions: ['impr.', 'impressions'],
    currency: ['currency code', 'currency'],
  },
  microsoft: {
    day: ['gregorian date', 'timeperiod', 'date', 'day'],
    campaign: ['campaign name', 'campaignname', 'campaign'],
    cost: ['spend', 'cost'],
    clicks: ['clicks'],
    impressions: ['impressions', 'impr.'],
    currency: ['currency code', 'currencycode', 'currency'],
  },
  meta: {
    day: ['day', 'reporting starts', 'date'],
    campaign: ['campaign name', 'campaign'],
    cost: ['amount spent', 'amount spent (usd)', 'cost'],
    clicks: ['link clicks', 'clicks (all)', 'clicks'],
    impressions: ['impressions'],
    currency: ['currency'],
  },
  tiktok: {
    day: ['by day', 'date', 'day', 'stat time day'],
    campaign: ['campaign name', 'campaign'],
    cost: ['cost', 'total cost', 'spend'],
    clicks: ['clicks (destination)', 'clicks'],
    impressions: ['impressions', 'impression'],
    currency: ['currency'],
  },
  generic: {
    day: ['day'],
    campaign: ['campaign'],
    cost: ['cost'],
    clicks: ['clicks'],
    impressions: ['impressions'],
    currency: ['currency'],
  },
};

export interface CostRow {
  /** YYYY-MM-DD */
  day: string;
  campaign: string;
  costCents: number;
  clicks: number;
  impressions: number;
  /** ISO 4217, upper-case */
  currency: string;
  /** the file's line the row came from */
  line: number;
  /** the campaign as the file names it, when that is longer than a visit keeps (`campaign` is then its cut) */
  named?: string;
}

export type CostParse = { ok: true; rows: CostRow[] } | { ok: false; errors: string[] };

/**
 * A report file's text: UTF-8 (with or without a byte-order mark), or UTF-16 when it starts with
 * UTF-16's byte-order mark, as Google Ads' "Excel .csv" download does (tab-separated, UTF-16LE).
 */
export function reportText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return bytes.toString('utf8');
}

/** RFC 4180 records with the line each starts on; quotes may hold commas, quotes ("") and line breaks. */
export function csvRecords(text: string, delimiter: string): { line: number; cells: string[] }[] {
  const out: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let touched = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      touched = true;
    } else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
      touched = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (touched || cell !== '') out.push({ line: start, cells: [...cells, cell] });
      cells = [];
      cell = '';
      touched = false;
      line++;
      start = line;
    } else {
      cell += ch;
      touched = true;
    }
  }
  if (touched || cell !== '') out.push({ line: start, cells: [...cells, cell] });
  return out;
}

const headerName = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** The currency an amount names itself ("12.30 EUR", "€7", "£3"), upper-case; undefined when it names none ("$" is several currencies' sign, so it names none). */
export function amountCurrency(raw: string): string | undefined {
  const s = raw.trim();
  const code = /\s*([A-Z]{3})$/.exec(s)?.[1];
  if (code) return code;
  return s.startsWith('€') ? 'EUR' : s.startsWith('£') ? 'GBP' : undefined;
}

/** Money as the platforms write it ("1,234.56", "$12.30", "12.3 USD") → cents; undefined when not a plain non-negative amount. */
export function centsOf(raw: string): number | undefined {
  const s = raw
    .trim()
    .replace(/^[$€£]|\s*[A-Z]{3}$/g, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  if (s === '--' || s === '') return 0;
  const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(s);
  if (!m) return undefined;
  // Rounded half up from the digits themselves: 0.285 × 100 in binary is 28.4999…, which
  // Math.round would make 28 cents where 12.345 makes 1235.
  const fraction = (m[2] ?? '').padEnd(3, '0');
  return Number(m[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
}

function countOf(raw: string): number | undefined {
  const s = raw.trim().replace(/,(?=\d{3}(\D|$))/g, '');
  if (s === '--' || s === '') return 0;
  return /^\d{1,12}$/.test(s) ? Number(s) : undefined;
}

/** The console's ranges start here (engine/console/range.ts FIRST_DAY): a cost before it could never be seen. */
const FIRST_COST_DAY = '2000-01-01';

/**
 * How a report writes a day with slashes: 03/04/2026 is March 4 to a US ad platform (month-first)
 * and 3 April to one set to Australia, Canada or the UK (day-first). Nothing in such a day says
 * which, so the operator says it (the upload form's "Dates written", `--date-order`); month-first,
 * what US platforms write, unless told. A YYYY-MM-DD day reads the same either way.
 */
export const DAY_ORDERS = ['month-first', 'day-first'] as const;
export type DayOrder = (typeof DAY_ORDERS)[number];
export const isDayOrder = (s: string): s is DayOrder => (DAY_ORDERS as readonly string[]).includes(s);
/** How each order writes a day, as the refusals name it. */
const DAY_PATTERN: Record<DayOrder, string> = { 'month-first': 'M/D/YYYY', 'day-first': 'D/M/YYYY' };
const SLASH_DAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** The most of a campaign a refusal quotes: two names told apart after their first 500 characters show where they part, and no name fills the page. */
const QUOTED_MAX = 1000;

/** A campaign as a refusal names it: in full, control characters shown as escapes, cut (with "…") past QUOTED_MAX characters. */
export const quotedCampaign = (name: string): string => `"${visibleText(cutToCharacters(name, QUOTED_MAX))}${characterCount(name) > QUOTED_MAX ? '…' : ''}"`;

/** "2026-11-01", "2026-11-01 00:00:00", "11/1/2026" (month-first) or "1/11/2026" (day-first) → "2026-11-01"; undefined when not a real date. */
export function dayOf(raw: string, order: DayOrder = 'month-first'): string | undefined {
  const s = raw.trim();
  let y: number, mo: number, d: number;
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T][\d:.]+Z?)?$/.exec(s);
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = SLASH_DAY.exec(s)))
    [y, mo, d] = order === 'day-first' ? [Number(m[3]), Number(m[2]), Number(m[1])] : [Number(m[3]), Number(m[1]), Number(m[2])];
  else return undefined;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

/** The header line among the first HEADER_SEARCH records (its index and each field's column), if there is one. */
function headerOf(records: { cells: string[] }[], columns: Record<Field, readonly string[]>): { at: number; index: Record<Field, number> } | undefined {
  for (let r = 0; r < Math.min(HEADER_SEARCH, records.length); r++) {
    const names = records[r]!.cells.map(headerName);
    const index = Object.fromEntries(
      (Object.keys(columns) as Field[]).map((f) => {
        const i = columns[f].map((c) => names.indexOf(c)).find((i) => i >= 0);
        return [f, i ?? -1];
      }),
    ) as Record<Field, number>;
    if (index.day >= 0 && index.campaign >= 0 && index.cost >= 0) return { at: r, index };
  }
  return undefined;
}

/** Why a day cell is refused as not a date: a slash day that is one in the other order says to choose that order. */
function notADay(cell: string, order: DayOrder): string {
  const quoted = `"${cell.slice(0, 40)}"`;
  const other: DayOrder = order === 'month-first' ? 'day-first' : 'month-first';
  if (SLASH_DAY.test(cell) && dayOf(cell, other))
    return `the day ${quoted} is not a date written ${order} (${DAY_PATTERN[order]}); if this file writes the ${other === 'day-first' ? 'day' : 'month'} first, choose ${other}`;
  return `the day ${quoted} is not a date (YYYY-MM-DD or ${DAY_PATTERN[order]})`;
}

/**
 * Parses one platform's cost report; `currency` is used where the file has no currency column,
 * `now` says which days are over, `dayOrder` how its slash days are written.
 */
export function parseCostCsv(text: string, source: CostSource, currency = 'USD', now = new Date(), dayOrder: DayOrder = 'month-first'): CostParse {
  // A report has the days spent so far; a later day is a typo (2062 for 2026) that, imported,
  // would leave the real day without its cost. Tomorrow in UTC is some operator's today.
  const lastDay = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  if (Buffer.byteLength(text, 'utf8') > COST_CSV_MAX_BYTES)
    return { ok: false, errors: [`The file is larger than ${COST_CSV_MAX_BYTES / 1024 / 1024} MB; split it by date range`] };
  const body = text.replace(/^\uFEFF/, '');
  const firstLines = body.split(/\r?\n/, HEADER_SEARCH).join('\n');
  const columns = COST_COLUMNS[source];
  // Tab-separated reports still write thousands commas in their amounts ("1,234.56"), so a comma
  // in the first lines does not make a file comma-separated: the delimiter is the one whose
  // reading of the file has the platform's header.
  const delimiters = firstLines.includes('\t') && !firstLines.includes(',') ? ['\t'] : firstLines.includes('\t') ? [',', '\t'] : [','];
  let records: { line: number; cells: string[] }[] = [];
  let header: { at: number; index: Record<Field, number> } | undefined;
  for (const delimiter of delimiters) {
    records = csvRecords(body, delimiter);
    header = headerOf(records, columns);
    if (header) break;
  }
  if (!header) {
    // A workbook (.xlsx is a zip), a UTF-16 file without its byte-order mark or any other binary
    // file has no header to find: saying which columns are missing would send the operator
    // looking for a header problem in a file that is not CSV at all.
    if (firstLines.startsWith('PK\u0003\u0004') || firstLines.includes('\u0000') || firstLines.includes('\uFFFD'))
      return { ok: false, errors: ['The file is not CSV text (it is a spreadsheet workbook or another binary file); download or save the report as CSV'] };
    // A spreadsheet set to a European list separator saves ";" (and decimal commas): the header is
    // there, but the amounts cannot be read as the platforms write them.
    if (headerOf(csvRecords(body, ';'), columns))
      return {
        ok: false,
        errors: [
          'The file’s columns are separated by semicolons, as a spreadsheet set to a European list separator saves it; upload the report as the ad platform downloads it, or save it with commas',
        ],
      };
    const want = (['day', 'campaign', 'cost'] as const).map((f) => `${f} (${columns[f].map((c) => `"${c}"`).join(' or ')})`).join(', ');
    return { ok: false, errors: [`No header line with the ${source} columns ${want} in the first ${HEADER_SEARCH} lines`] };
  }
  const data = records.slice(header.at + 1);
  if (data.length > COST_CSV_MAX_ROWS)
    return { ok: false, errors: [`The file has more than ${COST_CSV_MAX_ROWS.toLocaleString('en-US')} lines; split it by date range`] };
  const errors: string[] = [];
  const rows: CostRow[] = [];
  const seen = new Map<string, number>();
  /** each campaign a visit would have (cut) → the name the file first gave it, and on which line */
  const namedAs = new Map<string, { name: string; line: number }>();
  const fail = (line: number, why: string) => {
    if (errors.length < MAX_ERRORS) errors.push(`line ${line}: ${why}`);
    else if (errors.length === MAX_ERRORS) errors.push('… and more; fix these first');
  };
  const { index } = header;
  for (const { line, cells } of data) {
    const at = (f: Field) => (index[f] >= 0 ? (cells[index[f]] ?? '') : '');
    const dayCell = at('day').trim();
    const day = dayOf(dayCell, dayOrder);
    const named = at('campaign').trim();
    // the visits of a campaign longer than a visit keeps have it cut so: its cost must be too
    const long = characterCount(named) > VISIT_VALUE_MAX;
    const campaign = long ? cutToCharacters(named) : named;
    if (cells.every((c) => c.trim() === '')) continue;
    // Not UTF-8 (a spreadsheet's plain "CSV" on Windows saves Windows-1252): decoded, "préstamos"
    // would become "pr\uFFFDstamos", a campaign no visit names, so its cost would silently count nowhere.
    const garbled = cells.findIndex((c) => c.includes('\uFFFD'));
    if (garbled >= 0) {
      const column = records[header.at]!.cells[garbled]?.trim() || `column ${garbled + 1}`;
      fail(line, `the ${column} "${cells[garbled]!.trim().slice(0, 40)}" is not UTF-8 text; save the report as “CSV UTF-8” and upload it again`);
      continue;
    }
    // A report's total line has no day ("Total: Account", or "--" beside it); a line with a day is
    // a day's cost, whatever its campaign is called ("Totally Fast Loans").
    if (!day && (/^total/i.test(dayCell) || /^total/i.test(campaign))) continue;
    const costCents = centsOf(at('cost'));
    const clicks = index.clicks >= 0 ? countOf(at('clicks')) : 0;
    const impressions = index.impressions >= 0 ? countOf(at('impressions')) : 0;
    const column = index.currency >= 0 ? at('currency').trim().toUpperCase() : '';
    const amountIn = amountCurrency(at('cost'));
    // an amount that says its currency is in that currency, whatever the form's default says
    const cur = column || amountIn || currency.toUpperCase();
    const before = errors.length;
    if (!day) fail(line, notADay(dayCell, dayOrder));
    else if (day > lastDay) fail(line, `the day ${day} has not come yet (a cost report has the days already spent)`);
    else if (day < FIRST_COST_DAY) fail(line, `the day ${day} is before ${FIRST_COST_DAY}, older than any day the console shows`);
    if (!campaign) fail(line, 'the campaign is empty');
    // a campaign no visit can have (a line break, an escape) would be a cost that counts nowhere
    else if (!visitKeeps(named)) fail(line, `the campaign "${visibleText(named.slice(0, 40))}" holds a control character, which no visit’s campaign has`);
    // a line cut short is not a cost of 0: imported, it would replace the day's real cost
    if (cells.length <= index.cost) fail(line, `the line ends before the cost column (${cells.length} of the header's columns)`);
    else if (costCents === undefined) fail(line, `the cost "${at('cost').trim().slice(0, 40)}" is not an amount`);
    else if (amountIn && amountIn !== cur) fail(line, `the cost "${at('cost').trim().slice(0, 40)}" is in ${amountIn}, but the line's currency is ${cur}`);
    if (clicks === undefined) fail(line, `the clicks "${at('clicks').trim().slice(0, 40)}" are not a whole number`);
    if (impressions === undefined) fail(line, `the impressions "${at('impressions').trim().slice(0, 40)}" are not a whole number`);
    if (!/^[A-Z]{3}$/.test(cur)) fail(line, `the currency "${cur.slice(0, 10)}" is not a three-letter code`);
    if (errors.length > before) continue;
    const other = namedAs.get(campaign);
    if (other && other.name !== named) {
      fail(
        line,
        `the campaigns of line ${other.line} (${quotedCampaign(other.name)}) and this line (${quotedCampaign(named)}) are the same in their first ${VISIT_VALUE_MAX} characters, all a visit keeps of a campaign, so neither their visits nor their costs can be told apart; rename one in the ad platform so that they differ within the first ${VISIT_VALUE_MAX} characters`,
      );
      continue;
    }
    if (!other) namedAs.set(campaign, { name: named, line });
    const key = `${day}\u0000${campaign}`;
    const first = seen.get(key);
    if (first !== undefined) {
      fail(line, `${day} for campaign "${campaign}" is already on line ${first}`);
      continue;
    }
    seen.set(key, line);
    rows.push({ day: day!, campaign, costCents: costCents!, clicks: clicks!, impressions: impressions!, currency: cur, line, ...(long ? { named } : {}) });
  }
  if (errors.length) return { ok: false, errors };
  if (!rows.length) return { ok: false, errors: ['The file has a header but no cost lines'] };
  return { ok: true, rows };
}
