/**
 * npm run leads -- --since 1d [--brand ipaydayloans] [--limit 500] [--json | --csv]
 * The leads stored since then, oldest first, with their sale (status, buyer, price) and each
 * destination's delivery status — what
 * an operator needs to see that requests arrive and reach the buyers, without SQL. Sensitive
 * fields (date of birth, income) stay sealed: they are for the buyers, not for this listing.
 * Money as everywhere else (engine/traffic/moneyQuery.ts): the price of a sale, and for a returned
 * one the day of the return and the price given back.
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
import { csv, option, parseSince, textTable, type Column } from './cliFormat';

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

type Listed = LeadListing & { sale?: LeadSalesTable; returned?: LeadReturnsTable };

const price = (l: Listed) => (l.sale?.price_cents != null ? (l.sale.price_cents / 100).toFixed(2) : '');
const refund = (l: Listed) => (l.returned ? (l.returned.price_cents / 100).toFixed(2) : '');
/** sold, unsold, duplicate, suppressed; pending while the sale runs; "none" for a lead stored before the sale existed. */
const saleStatus = (l: Listed) => (l.sale ? (l.sale.duplicate && l.sale.status === 'sold' ? 'sold (duplicate)' : l.sale.status) : 'none');

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
  ['sale', saleStatus, 16],
  ['buyer', (l) => l.sale?.buyer_id ?? '', 20],
  ['price', (l) => (price(l) ? `$${price(l)}` : ''), 9],
  ['returned', (l) => (l.returned ? `${l.returned.created_at.slice(0, 10)} -$${refund(l)}` : ''), 22],
  ['delivery', delivery, 60],
];

const CSV_COLUMNS: [string, (l: Listed) => string][] = [
  ['created_at', (l) => l.lead.created_at],
  ['brand', (l) => l.lead.brand],
  ['id', (l) => l.lead.id],
  ['loan_kind', (l) => l.lead.loan_kind],
  ['country', countryOf],
  ['amount', (l) => String(l.lead.amount)],
  ['currency', (l) => l.lead.currency || 'USD'],
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
  ['sale_price_usd', price],
  ['sale_decided_at', (l) => l.sale?.decided_at ?? ''],
  ['returned_at', (l) => l.returned?.created_at ?? ''],
  ['refund_usd', refund],
  ['delivery', delivery],
];

async function main(args: string[]) {
  if (args.includes('--help') || args.includes('-h')) {
    console.log('npm run leads -- --since 1d [--brand ID] [--limit N] [--json | --csv]   (--since: 30m, 1h, 2d, default 1d)');
    return;
  }
  const sinceText = option(args, '--since') ?? '1d';
  const since = parseSince(sinceText);
  if (!since) throw new Error(`--since ${sinceText}: give a number and a unit, e.g. 30m, 1h or 2d`);
  const limit = Number(option(args, '--limit') ?? 10_000);
  if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive whole number');
  const brand = option(args, '--brand');
  const db = await getStore();
  const listed = await listLeads(db, { since, limit, ...(brand ? { brand } : {}) });
  const sales = await salesOf(
    db,
    listed.map((l) => l.lead.id),
  );
  const returns = await returnsOf(
    db,
    listed.map((l) => l.lead.id),
  );
  const leads: Listed[] = listed.map((l) => ({ ...l, sale: sales.get(l.lead.id), returned: returns.get(l.lead.id) }));
  if (args.includes('--json')) {
    console.log(
      JSON.stringify(
        leads.map(({ lead: { sealed: _, consent_text: __, ...rest }, deliveries, sale, returned }) => ({
          ...rest,
          sale: {
            status: saleStatus({ lead: rest, deliveries, sale } as Listed),
            buyer: sale?.buyer_id ?? null,
            priceUsd: sale?.price_cents != null ? sale.price_cents / 100 : null,
            redirectUrl: sale?.redirect_url ?? null,
            reason: sale?.reason ?? null,
            decidedAt: sale?.decided_at ?? null,
            returnedAt: returned?.created_at ?? null,
            refundUsd: returned ? returned.price_cents / 100 : null,
          },
          deliveries,
        })),
        null,
        2,
      ),
    );
    return;
  }
  if (args.includes('--csv')) {
    process.stdout.write(csv(leads, CSV_COLUMNS));
    return;
  }
  console.log(`Leads since ${since.toISOString()} (${sinceText}) in the ${storeKindOf()} store at ${storeLocation()}: ${leads.length}`);
  if (leads.length) console.log(textTable(leads, COLUMNS));
}

main(process.argv.slice(2))
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => closeStore());
