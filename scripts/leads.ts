/**
 * npm run leads -- --since 1d [--brand ipaydayloans] [--limit 500] [--currency USD] [--json | --csv]
 * The leads stored since then, oldest first, with their sale (status, buyer, price) and each
 * destination's delivery status — what
 * an operator needs to see that requests arrive and reach the buyers, without SQL. Sensitive
 * fields (date of birth, income) stay sealed: they are for the buyers, not for this listing.
 * Money as everywhere else (engine/traffic/moneyQuery.ts): the price of a sale, and for a returned
 * one the day of the return and the price given back, in the lead's currency (the brand's) and
 * converted to US dollars (or --currency) at the rates an admin set in the console, with the rate
 * used; the totals of the sales and returns listed are converted the same way, the rates stated
 * (engine/traffic/currency.ts: the overview's cents). --json prints { leads, totals, rates }; the
 * CSV ends with a "total" line.
 * A delivery is delivered, pending (retrying), rejected (the buyer refused it, with its reason)
 * or failed (given up). Stored text is printed escaped (no terminal control sequences) and the
 * CSV is spreadsheet-safe (scripts/cliFormat.ts).
 */
import './check-node.cjs';
import { closeStore, getStore, storeKindOf, storeLocation } from '../engine/store/db';
import { formatAmount, formatPhone, isCountry, type Country } from '../engine/browser/regions';
import { listLeads, type LeadListing } from '../engine/store/leads';
import { salesOf } from '../engine/store/sales';
import { returnsOf } from '../engine/sale/returns';
import type { LeadReturnsTable, LeadSalesTable } from '../engine/store/saleTables';
import { currencyRates } from '../engine/store/currencyRates';
import { CURRENCIES } from '../engine/console/settingsNotes';
import { saleStatusAt } from '../engine/console/leadQueries';
import { converter, convertedLines, plainMoney, ratesNote, ratesUsed, type ConvertedTotals } from '../engine/traffic/currency';
import { requireKnownBrand } from './cliBrands';
import { checkArgs, csv, listingOptions, option, textTable, type Column } from './cliFormat';

const delivery = (l: LeadListing): string =>
  l.deliveries.length
    ? l.deliveries
        .map(
          (d) =>
            `${d.destination}: ${d.status}${
              d.status === 'delivered'
                ? ''
                : d.status === 'rejected'
                  ? ` (${d.last_error ?? 'refused'})`
                  : ` (${d.attempts} tries${d.last_error ? `, ${d.last_error}` : ''})`
            }`,
        )
        .join('; ')
    : 'stored only';

const countryOf = (l: LeadListing): Country => (isCountry(l.lead.country) ? l.lead.country : 'US');
const regionOf = (l: LeadListing): string => l.lead.region || l.lead.state.toUpperCase();

/** A lead with its sale and return, and their money converted (engine/traffic/currency.ts convertedLines). */
type Listed = LeadListing & {
  sale?: LeadSalesTable;
  returned?: LeadReturnsTable;
  converted: { to: string; priceCents: number | null; refundCents: number | null; rate: string };
};

const cents = (c: number | null | undefined) => (c == null ? '' : (c / 100).toFixed(2));
const currencyOf = (l: Listed) => l.lead.currency || 'USD';
const price = (l: Listed) => cents(l.sale?.price_cents);
const refund = (l: Listed) => cents(l.returned?.price_cents);
/** The price (and refund) in the listing's currency, or why not. */
const converted = (l: Listed): string => {
  if (!price(l) && !refund(l)) return '';
  if (l.converted.priceCents === null && l.converted.refundCents === null) return l.converted.rate;
  const back = l.converted.refundCents === null ? '' : ` -${cents(l.converted.refundCents)}`;
  return `${cents(l.converted.priceCents)}${back} ${l.converted.to}`;
};
/** When the listing was read: a pending sale's lease is read against it (saleStatusAt). */
const readAt = new Date();
/**
 * sold, unsold, duplicate, suppressed; while undecided, `pending: selling` (a process holds it),
 * `pending: interrupted` (its lease ran out: the process died or stalled mid-sale, the sweep takes
 * it up again) or `pending` (not taken up yet); "none" for a lead stored before the sale existed.
 */
const saleStatus = (l: Listed) => (l.sale ? (l.sale.duplicate && l.sale.status === 'sold' ? 'sold (duplicate)' : saleStatusAt(l.sale, readAt)) : 'none');

const COLUMNS: Column<Listed>[] = [
  ['time (UTC)', (l) => l.lead.created_at.replace('T', ' ').slice(0, 19), 19],
  ['brand', (l) => l.lead.brand, 18],
  ['env', (l) => (l.lead.environment === 'production' ? 'production' : `${l.lead.environment} (test)`), 18],
  ['lead', (l) => l.lead.id, 30],
  ['amount', (l) => formatAmount(l.lead.amount, countryOf(l)), 12],
  ['place', (l) => `${[l.lead.city, regionOf(l)].filter(Boolean).join(', ')} ${l.lead.zip} ${countryOf(l)}`, 32],
  ['name', (l) => `${l.lead.first_name} ${l.lead.last_name}`, 24],
  ['phone', (l) => formatPhone(l.lead.phone, countryOf(l)), 14],
  ['source', (l) => [l.lead.source, l.lead.click_id].filter(Boolean).join(' / '), 28],
  ['sale', saleStatus, 20],
  ['buyer', (l) => l.sale?.buyer_id ?? '', 20],
  ['price', (l) => (price(l) ? `${price(l)} ${currencyOf(l)}` : ''), 14],
  ['returned', (l) => (l.returned ? `${l.returned.created_at.slice(0, 10)} -${refund(l)} ${currencyOf(l)}` : ''), 26],
  ['converted', converted, 28],
  ['delivery', delivery, 60],
];

const CSV_COLUMNS: [string, (l: Listed) => string][] = [
  ['created_at', (l) => l.lead.created_at],
  ['brand', (l) => l.lead.brand],
  ['id', (l) => l.lead.id],
  ['loan_kind', (l) => l.lead.loan_kind],
  ['country', countryOf],
  ['amount', (l) => String(l.lead.amount)],
  ['currency', currencyOf],
  ['zip', (l) => l.lead.zip],
  ['city', (l) => l.lead.city],
  ['state', (l) => l.lead.state.toUpperCase()],
  ['region', regionOf],
  ['first_name', (l) => l.lead.first_name],
  ['last_name', (l) => l.lead.last_name],
  ['email', (l) => l.lead.email],
  ['phone', (l) => formatPhone(l.lead.phone, countryOf(l))],
  ['source', (l) => l.lead.source],
  ['source2', (l) => l.lead.source2],
  ['click_id', (l) => l.lead.click_id],
  ['session_uuid', (l) => l.lead.session_uuid],
  ['consent_version', (l) => l.lead.consent_version],
  ['consent_sha256', (l) => l.lead.consent_hash],
  ['privacy_opt_out', (l) => String(l.lead.privacy_opt_out)],
  ['host', (l) => l.lead.host],
  ['environment', (l) => l.lead.environment],
  ['sale_status', saleStatus],
  ['sale_buyer', (l) => l.sale?.buyer_id ?? ''],
  ['sale_price', price],
  ['sale_decided_at', (l) => l.sale?.decided_at ?? ''],
  ['returned_at', (l) => l.returned?.created_at ?? ''],
  ['refund', refund],
  ['converted_currency', (l) => l.converted.to],
  ['price_converted', (l) => cents(l.converted.priceCents)],
  ['refund_converted', (l) => cents(l.converted.refundCents)],
  ['rate', (l) => l.converted.rate],
  ['delivery', delivery],
];

async function main(args: string[]) {
  if (args.includes('--help') || args.includes('-h')) {
    console.log('npm run leads -- --since 1d [--brand ID] [--limit N] [--currency USD|CAD|AUD] [--json | --csv]   (--since: 30m, 1h, 2d, default 1d)');
    return;
  }
  checkArgs(args, { values: ['--since', '--brand', '--limit', '--currency'], flags: ['--json', '--csv', '--help', '-h'] });
  const { since, sinceText, limit, brand } = listingOptions(args, '1d');
  const to = (option(args, '--currency') ?? 'USD').toUpperCase();
  if (!(CURRENCIES as readonly string[]).includes(to)) throw new Error(`--currency must be one of ${CURRENCIES.join(', ')}`);
  const db = await getStore();
  const listed = await listLeads(db, { since, limit, ...(brand ? { brand } : {}) });
  if (!listed.length) await requireKnownBrand(db, brand);
  const sales = await salesOf(
    db,
    listed.map((l) => l.lead.id),
  );
  const returns = await returnsOf(
    db,
    listed.map((l) => l.lead.id),
  );
  const money = converter(to, await currencyRates(db));
  const lines = convertedLines(money);
  const leads: Listed[] = listed.map((l) => {
    const sale = sales.get(l.lead.id);
    const returned = returns.get(l.lead.id);
    const c = lines.line({
      currency: l.lead.currency,
      priceCents: sale?.price_cents ?? null,
      refundCents: returned?.price_cents ?? null,
      won: sale?.status === 'sold' || sale?.status === 'returned',
    });
    return { ...l, sale, returned, converted: { to, priceCents: c.priceCents, refundCents: c.refundCents, rate: c.rate } };
  });
  const used = ratesUsed(money);
  const note = ratesNote(used, to, plainMoney) || `All in ${to}.`;
  if (args.includes('--json')) {
    const amount = (c: number | null | undefined) => (c == null ? null : c / 100);
    console.log(
      JSON.stringify(
        {
          leads: leads.map(({ lead: { sealed: _, consent_text: __, ...rest }, deliveries, sale, returned, converted }) => ({
            ...rest,
            sale: {
              status: saleStatus({ lead: rest, deliveries, sale, converted } as Listed),
              buyer: sale?.buyer_id ?? null,
              price: amount(sale?.price_cents),
              redirectUrl: sale?.redirect_url ?? null,
              reason: sale?.reason ?? null,
              decidedAt: sale?.decided_at ?? null,
              returnedAt: returned?.created_at ?? null,
              refund: amount(returned?.price_cents),
              convertedCurrency: to,
              priceConverted: amount(converted.priceCents),
              refundConverted: amount(converted.refundCents),
              rate: converted.rate,
            },
            deliveries,
          })),
          totals: totalsOf(lines.totals),
          rates: { note, used },
        },
        null,
        2,
      ),
    );
    return;
  }
  if (args.includes('--csv')) {
    const t = lines.totals;
    // The last line sums the converted money and states the rates, as the console's leads export does.
    const total = CSV_COLUMNS.map(([title]): string => {
      if (title === 'created_at') return 'total';
      if (title === 'sale_status') return `${t.sold} sold; ${t.returned} returned; revenue ${plainMoney(t.revenueCents, to)}`;
      if (title === 'converted_currency') return to;
      if (title === 'price_converted') return cents(t.soldCents);
      if (title === 'refund_converted') return cents(t.returnedCents);
      if (title === 'rate') return note;
      return '';
    });
    const rows = [...leads.map((l) => CSV_COLUMNS.map(([, value]) => value(l))), total];
    process.stdout.write(
      csv(
        rows,
        CSV_COLUMNS.map(([title], i): [string, (r: string[]) => string] => [title, (r) => r[i]!]),
      ),
    );
    return;
  }
  console.log(`Leads since ${since.toISOString()} (${sinceText}) in the ${storeKindOf()} store at ${storeLocation()}: ${leads.length}`);
  if (leads.length) console.log(textTable(leads, COLUMNS));
  const t = lines.totals;
  console.log(
    `Sold ${t.sold} for ${plainMoney(t.soldCents, to)}, returned ${t.returned} (${plainMoney(t.returnedCents, to)} given back): revenue ${plainMoney(t.revenueCents, to)}. ${note}`,
  );
}

/** The listing's totals in the converter's currency, as amounts (not cents), as the JSON gives every amount. */
const totalsOf = (t: ConvertedTotals) => ({
  currency: t.currency,
  sold: t.sold,
  soldAmount: t.soldCents / 100,
  returned: t.returned,
  returnedAmount: t.returnedCents / 100,
  revenue: t.revenueCents / 100,
});

main(process.argv.slice(2))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => closeStore());
