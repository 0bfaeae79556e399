/**
 * npm run traces -- --since 1h [--brand ipaydayloans] [--limit 500] [--json] [--forms]
 * Prints the session traces stored since then (30m, 1h, 2d …), oldest first: where visitors
 * came from, without SQL. A table by default; --json prints one JSON array.
 * --forms: the form traces instead (evidence for a dispute: the request a form sent and its
 * answer). They are sealed at rest and opened here, on demand, with the lead keys.
 */
import './check-node.cjs';
import { getStore, closeStore, storeKindOf, storeLocation } from '../engine/store/db';
import { listFormTraces, type FormTracesTable } from '../engine/store/leads';
import { listSessionTraces, type SessionTrace } from '../engine/store/sessionTraces';
import { requireKnownBrand } from './cliBrands';
import { checkArgs, listingOptions, textTable, traceTable, type Column } from './cliFormat';

const FORM_COLUMNS: Column<FormTracesTable>[] = [
  ['time (UTC)', (t) => t.created_at.replace('T', ' ').slice(0, 19), 19],
  ['brand', (t) => t.brand, 20],
  ['type', (t) => t.type, 10],
  ['client', (t) => t.client_id, 24],
  ['ip', (t) => t.ip || '-', 16],
  ['trace', (t) => t.trace, 120],
];

async function main(args: string[]) {
  if (args.includes('--help') || args.includes('-h')) {
    console.log('npm run traces -- --since 1h [--brand ID] [--limit N] [--json] [--forms]   (--since: 30m, 1h, 2d, default 1h; --forms: form traces, opened)');
    return;
  }
  checkArgs(args, { values: ['--since', '--brand', '--limit'], flags: ['--json', '--forms', '--help', '-h'] });
  const { since, sinceText, limit, brand } = listingOptions(args, '1h');
  if (args.includes('--forms')) {
    const forms = await listFormTraces(await getStore(), { since, limit, open: true, ...(brand ? { brand } : {}) });
    if (!forms.length) await requireKnownBrand(await getStore(), brand);
    if (args.includes('--json'))
      console.log(
        JSON.stringify(
          forms.map((f) => ({ ...f, trace: JSON.parse(f.trace) as unknown })),
          null,
          2,
        ),
      );
    else {
      console.log(`Form traces since ${since.toISOString()} (${sinceText}) in the ${storeKindOf()} store at ${storeLocation()}: ${forms.length}`);
      if (forms.length) console.log(textTable(forms, FORM_COLUMNS));
    }
    return;
  }
  const traces: SessionTrace[] = await listSessionTraces(await getStore(), { since, limit, ...(brand ? { brand } : {}) });
  if (!traces.length) await requireKnownBrand(await getStore(), brand);
  if (args.includes('--json')) {
    console.log(JSON.stringify(traces, null, 2));
    return;
  }
  console.log(`Session traces since ${since.toISOString()} (${sinceText}) in the ${storeKindOf()} store at ${storeLocation()}: ${traces.length}`);
  if (traces.length) console.log(traceTable(traces));
}

main(process.argv.slice(2))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => closeStore());
