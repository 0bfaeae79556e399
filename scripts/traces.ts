/**
 * npm run traces -- --since 1h [--brand ipaydayloans] [--limit 500] [--json]
 * Prints the session traces stored since then (30m, 1h, 2d …), oldest first: where visitors
 * came from, without SQL. A table by default; --json prints one JSON array.
 */
import { getStore, closeStore, storeKindOf, storeLocation } from '../engine/store/db';
import { listSessionTraces, type SessionTrace } from '../engine/store/sessionTraces';
import { option, parseSince, traceTable } from './cliFormat';

async function main(args: string[]) {
  if (args.includes('--help') || args.includes('-h')) {
    console.log('npm run traces -- --since 1h [--brand ID] [--limit N] [--json]   (--since: 30m, 1h, 2d, default 1h)');
    return;
  }
  const sinceText = option(args, '--since') ?? '1h';
  const since = parseSince(sinceText);
  if (!since) throw new Error(`--since ${sinceText}: give a number and a unit, e.g. 30m, 1h or 2d`);
  const limit = Number(option(args, '--limit') ?? 10_000);
  if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive whole number');
  const brand = option(args, '--brand');
  const traces: SessionTrace[] = await listSessionTraces(await getStore(), { since, limit, ...(brand ? { brand } : {}) });
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
