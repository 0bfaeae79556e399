/**
 * npm run costs -- import FILE --source google|microsoft|meta|tiktok|generic [--currency USD] [--date-order month-first|day-first]
 * Imports an ad platform's cost report (CSV: day, campaign, cost, clicks, impressions; each
 * platform's column names in docs/operators/console.md). A day written with slashes is read
 * month-first (11/1/2026, as US platforms write it) unless --date-order day-first says the
 * report writes the day first (1/11/2026: Australian, Canadian, UK accounts). Importing the same days again replaces
 * them; a file with any bad line is refused whole, each problem with its line number; every
 * import is in the console's audit log with the actor "cli".
 */
import './check-node.cjs';
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { closeStore, getStore } from '../engine/store/db';
import { COST_CSV_MAX_BYTES, COST_SOURCES, DAY_ORDERS, isDayOrder, reportText } from '../engine/traffic/costCsv';
import { cutSummary, importCostReport } from '../engine/traffic/costImport';
import { checkArgs, option, terminalSafe } from './cliFormat';

const USAGE = `usage: npm run costs -- import FILE --source ${COST_SOURCES.join('|')} [--currency USD] [--date-order ${DAY_ORDERS.join('|')}]`;

async function main(args: string[]): Promise<number> {
  try {
    checkArgs(args, { values: ['--source', '--currency', '--date-order'], words: 2 });
  } catch (err) {
    console.error(`costs: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, file] = args;
  const source = option(args, '--source');
  if (command !== 'import' || !file || file.startsWith('--') || !source) {
    console.error(USAGE);
    return 2;
  }
  const dayOrder = option(args, '--date-order');
  if (dayOrder !== undefined && !isDayOrder(dayOrder)) {
    console.error(`costs: --date-order is ${DAY_ORDERS.join(' or ')}, not "${terminalSafe(dayOrder.slice(0, 40))}"\n${USAGE}`);
    return 2;
  }
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) {
      console.error(`costs: ${file} is a folder, not a file: give the path of the CSV report`);
      return 1;
    }
    size = stat.size;
  } catch {
    console.error(`costs: cannot read ${file}`);
    return 1;
  }
  if (size > COST_CSV_MAX_BYTES) {
    console.error(`costs: ${file} is larger than ${COST_CSV_MAX_BYTES / 1024 / 1024} MB; split it by date range`);
    return 1;
  }
  const text = reportText(readFileSync(file));
  const a = await importCostReport(await getStore(), {
    text,
    source,
    currency: option(args, '--currency'),
    dayOrder,
    actor: 'cli',
    file: basename(file),
  });
  if (!a.ok) {
    // A problem quotes the report's cells (a campaign, a cost), which may hold a terminal escape
    // or a right-to-left override: printed as they are, they would clear the screen or turn the line around.
    // "choose day-first" is the form's wording; here the choice is the option
    const said = a.errors.map((e) => e.replace(/choose (month-first|day-first)$/, 'run it again with --date-order $1'));
    console.error(`costs: ${file} was not imported:\n${said.map((e) => `  ${terminalSafe(e)}`).join('\n')}`);
    return 1;
  }
  console.log(`costs: ${a.rows} day-campaign rows from ${source} (${a.days.from} … ${a.days.to}); ${a.replaced} replaced earlier imports${cutSummary(a.cut)}`);
  return 0;
}

let code = 1;
try {
  code = await main(process.argv.slice(2));
} catch (err) {
  console.error(`costs: ${(err as Error).message}`);
} finally {
  await closeStore();
}
process.exit(code);
