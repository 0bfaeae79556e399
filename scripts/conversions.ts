/**
 * npm run conversions -- --since 1d --format google-ads [--name "Loan request sold"] [--brand ID]
 * Offline conversions for the ad platforms: the leads sold since then with the platform's click
 * id (engine/sale/conversions.ts), written to stdout in the platform's upload format. Formats:
 * google-ads (Google Click ID, Conversion Name, Conversion Time, Conversion Value, Conversion
 * Currency). The CSV is spreadsheet-safe (scripts/cliFormat.ts): a click id or name that looks
 * like a formula is written as text. Returned leads, test leads and visitors who opted out of
 * sale and sharing are left out.
 */
import './check-node.cjs';
import { soldConversions, googleAdsColumns } from '../engine/sale/conversions';
import { closeStore, getStore } from '../engine/store/db';
import { checkArgs, csv, option, sinceOption } from './cliFormat';
import { requireKnownBrand } from './cliBrands';

const FORMATS = ['google-ads'] as const;

async function main(args: string[]) {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(
      `npm run conversions -- --since 1d --format ${FORMATS.join('|')} [--name "Loan request sold"] [--brand ID]   (--since: 30m, 1h, 2d; default 1d)`,
    );
    return;
  }
  checkArgs(args, { values: ['--since', '--format', '--name', '--brand'], flags: ['--help', '-h'] });
  const { since } = sinceOption(args, '1d');
  const format = option(args, '--format') ?? 'google-ads';
  if (!(FORMATS as readonly string[]).includes(format)) throw new Error(`--format ${format}: the formats are ${FORMATS.join(', ')}`);
  const name = option(args, '--name') ?? 'Loan request sold';
  const brand = option(args, '--brand');
  const conversions = await soldConversions(await getStore(), { since, ...(brand ? { brand } : {}) });
  if (!conversions.length) await requireKnownBrand(await getStore(), brand);
  process.stdout.write(
    csv(
      conversions.filter((c) => c.gclid),
      googleAdsColumns(name),
    ),
  );
}

main(process.argv.slice(2))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => closeStore());
