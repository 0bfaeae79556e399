/**
 * Brands in different currencies, one set of figures: sales on a US-dollar brand (ipaydayloans),
 * a Canadian-dollar brand (weloans, one sale returned) and an Australian-dollar brand
 * (fastloansau) with no rate set, and the Canadian dollar's rate set by an admin. The overview
 * (unfiltered and by brand), the buyers page and each buyer's page, the leads export and
 * `npm run leads -- --json` then show the same sold, returned and revenue to the cent — every
 * price converted sale by sale, so two C$10.01 sales in one cell are $7.31 each, not $14.61
 * together — each states the rate used, and each leaves the Australian sale out and names it.
 * On SQLite and PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { insertLead } from '../../engine/store/leads';
import { setCurrencyRate } from '../../engine/store/currencyRates';
import { overviewData, type OverviewAsk } from '../../engine/console/overviewData';
import { buyersOverview } from '../../engine/console/buyerQueries';
import { buyerDetail } from '../../engine/console/buyerDetail';
import { leadsCsv } from '../../engine/console/adminQueries';
import { converter, ratesUsed } from '../../engine/traffic/currency';
import { currencyRates } from '../../engine/store/currencyRates';
import { bothStores, migratedStore } from '../support/bothStores';
import { overviewAsk } from '../support/overviewAsk';
import { leadRow } from '../support/leadRow';
import { recordSaleRow } from '../support/saleRecord';

const stores = bothStores('loansites-currencies-');
const NOW = new Date();
const TODAY = NOW.toISOString().slice(0, 10);
const DAY = { from: `${TODAY}T00:00:00.000Z`, to: new Date(Date.parse(TODAY) + 86_400_000).toISOString() };
const ask = (extra: Partial<OverviewAsk> = {}): OverviewAsk => overviewAsk({ from: TODAY, to: TODAY, ...extra });

/** sold, returned and revenue as every page must show them */
interface Figures {
  sold: number;
  soldCents: number;
  returned: number;
  returnedCents: number;
  revenueCents: number;
}

describe.each(stores.kinds('currencies.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);

  it('the overview, the buyers pages, the leads export and npm run leads -- --json agree to the cent on converted totals, the rates stated', async () => {
    const sell = async (brand: string, currency: string, buyer: string, cents: number, returned = false) => {
      const lead = await insertLead(db(), leadRow({ brand, currency, created_at: NOW.toISOString() }), []);
      await recordSaleRow(db(), { leadId: lead.id, buyer, priceCents: cents, at: NOW, ...(returned ? { returnedAt: NOW } : {}) });
    };
    await sell('ipaydayloans', 'USD', 'acme', 3750);
    await sell('ipaydayloans', 'USD', 'acme', 2125);
    await sell('weloans', 'CAD', 'maple', 1001);
    await sell('weloans', 'CAD', 'maple', 1001);
    await sell('weloans', 'CAD', 'maple', 5000, true);
    await sell('fastloansau', 'AUD', 'acme', 2000);
    await setCurrencyRate(db(), 'CAD', 730_000, 'admin@example.com');

    // In US dollars: $37.50 + $21.25, and C$10.01 → $7.31 (twice) and C$50.00 → $36.50, given back the same day; A$20.00 left out.
    const want: Figures = { sold: 5, soldCents: 3750 + 2125 + 731 + 731 + 3650, returned: 1, returnedCents: 3650, revenueCents: 10987 - 3650 };
    const rates = [
      { currency: 'AUD', usdMicros: null, leftOutCents: 2000, rate: null },
      { currency: 'CAD', usdMicros: 730_000, leftOutCents: 0, rate: '1 CAD = 0.730000 USD' },
    ];

    // The overview, unfiltered and by brand.
    const overviewFigures = async (dims: OverviewAsk['dims'] = {}) => {
      const o = await overviewData(db(), ask({ dims }));
      const f = o.data.funnel;
      return {
        byBuyer: o.cuts.buyer.filter((r) => r.sold > 0).map((r) => [r.key, r.sold, r.revenueCents]),
        figures: {
          sold: o.totals.sold,
          soldCents: f.revenueCents + f.returnedCents,
          returned: f.returned,
          returnedCents: f.returnedCents,
          revenueCents: f.revenueCents,
        },
        rates: o.currencies,
      };
    };
    const overview = await overviewFigures();
    expect({ figures: overview.figures, rates: overview.rates }).toEqual({ figures: want, rates });
    expect((await overviewFigures({ brand: 'weloans' })).figures).toEqual({ sold: 3, soldCents: 5112, returned: 1, returnedCents: 3650, revenueCents: 1462 });
    expect((await overviewFigures({ brand: 'ipaydayloans' })).figures).toEqual({ sold: 2, soldCents: 5875, returned: 0, returnedCents: 0, revenueCents: 5875 });
    expect((await overviewFigures({ brand: 'fastloansau' })).figures).toEqual({ sold: 0, soldCents: 0, returned: 0, returnedCents: 0, revenueCents: 0 });

    // The buyers page, and each buyer's page.
    const money = converter('USD', await currencyRates(db()));
    const buyers = await buyersOverview(db(), DAY.from, DAY.to, new Map(), money);
    const sum = (k: 'wins' | 'returned' | 'returnedCents' | 'revenueCents') => buyers.reduce((s, r) => s + r[k], 0);
    expect({
      sold: sum('wins'),
      soldCents: sum('revenueCents') + sum('returnedCents'),
      returned: sum('returned'),
      returnedCents: sum('returnedCents'),
      revenueCents: sum('revenueCents'),
    }).toEqual(want);
    expect(buyers.map((b) => [b.buyer, b.wins, b.revenueCents, b.averagePriceCents])).toEqual([
      ['acme', 2, 5875, 2938],
      ['maple', 3, 1462, 1704],
    ]);
    // the overview's "By buyer" cut says the same
    expect(overview.byBuyer).toEqual(buyers.map((b) => [b.buyer, b.wins, b.revenueCents]));
    expect(ratesUsed(money)).toEqual(rates);
    const pages = await Promise.all(['acme', 'maple'].map((b) => buyerDetail(db(), b, NOW)));
    const days = pages.flatMap((p) => p.days);
    expect([days.reduce((s, d) => s + d.wins, 0), days.reduce((s, d) => s + d.returns, 0), days.reduce((s, d) => s + d.revenueCents, 0)]).toEqual([
      want.sold,
      want.returned,
      want.revenueCents,
    ]);
    expect(pages[0]!.currencies).toEqual([rates[0]]);
    expect(pages[1]!.currencies).toEqual([rates[1]]);

    // The leads export: each line's price in its own currency and converted with the rate, then a total line stating the rates.
    const text = (await leadsCsv(db(), { from: DAY.from, to: DAY.to }, converter('USD', await currencyRates(db()))))!.text;
    const [head, ...lines] = text.trim().split('\r\n');
    const columns = head!.split(',');
    const rows = lines.map((l) =>
      Object.fromEntries(
        (l.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? []).map((cell, i) => [columns[i], cell.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"')]),
      ),
    );
    const total = rows.at(-1)!;
    const leads = rows.slice(0, -1);
    const cents = (text: string | undefined) => Math.round(Number(text || 0) * 100);
    // leads made in the same instant come in id order, which is random within a millisecond: compare as sorted
    expect(
      leads
        .filter((r) => r.currency === 'CAD')
        .map((r) => [r.price, r.price_converted, r.rate])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      ['10.01', '7.31', '1 CAD = 0.730000 USD'],
      ['10.01', '7.31', '1 CAD = 0.730000 USD'],
      ['50.00', '36.50', '1 CAD = 0.730000 USD'],
    ]);
    expect(leads.filter((r) => r.currency === 'AUD').map((r) => [r.price, r.price_converted, r.rate])).toEqual([
      ['20.00', '', 'no rate from AUD to USD is set'],
    ]);
    const soldLines = leads.filter((r) => r.sold_at && r.price_converted);
    const csvFigures = {
      sold: soldLines.length,
      soldCents: soldLines.reduce((s, r) => s + cents(r.price_converted), 0),
      returned: leads.filter((r) => r.refund_converted).length,
      returnedCents: leads.reduce((s, r) => s + cents(r.refund_converted), 0),
      revenueCents: cents(total.price_converted) - cents(total.refund_converted),
    };
    expect(csvFigures).toEqual(want);
    expect(total).toMatchObject({
      lead_id: 'total',
      converted_currency: 'USD',
      price_converted: '109.87',
      refund_converted: '36.50',
      sale_status: '5 sold; 1 returned; revenue 73.37 USD',
    });
    expect(total.rate).toBe(
      'Amounts in AUD (20.00 AUD) are left out: no rate to USD is set (an admin sets rates on Settings). CAD converted at 1 CAD = 0.730000 USD.',
    );

    // npm run leads -- --json
    const store = options();
    const listed = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/leads.ts', '--since', '1d', '--json'], {
        env: { ...process.env, LOANSITES_DB_FILE: store.file ?? '', DATABASE_URL: store.url ?? '' },
        encoding: 'utf8',
      }),
    ) as {
      leads: {
        currency: string;
        sale: { status: string; price: number | null; priceConverted: number | null; refundConverted: number | null; rate: string };
      }[];
      totals: { currency: string; sold: number; soldAmount: number; returned: number; returnedAmount: number; revenue: number };
      rates: { note: string; used: unknown };
    };
    const won = listed.leads.filter((l) => (l.sale.status === 'sold' || l.sale.status === 'returned') && l.sale.priceConverted !== null);
    expect({
      sold: won.length,
      soldCents: Math.round(won.reduce((s, l) => s + l.sale.priceConverted! * 100, 0)),
      returned: listed.leads.filter((l) => l.sale.refundConverted !== null).length,
      returnedCents: Math.round(listed.leads.reduce((s, l) => s + (l.sale.refundConverted ?? 0) * 100, 0)),
      revenueCents: Math.round(listed.totals.revenue * 100),
    }).toEqual(want);
    expect(listed.totals).toEqual({ currency: 'USD', sold: 5, soldAmount: 109.87, returned: 1, returnedAmount: 36.5, revenue: 73.37 });
    expect(listed.rates).toEqual({ note: total.rate, used: rates });

    // Read in Canadian dollars, the four agree again: $37.50 → C$51.37, $21.25 → C$29.11.
    const inCad = await overviewData(db(), ask({ currency: 'CAD' }));
    const cadBuyers = await buyersOverview(db(), DAY.from, DAY.to, new Map(), converter('CAD', await currencyRates(db())));
    const cadCsv = (await leadsCsv(db(), { from: DAY.from, to: DAY.to }, converter('CAD', await currencyRates(db()))))!.text.trim().split('\r\n').at(-1)!;
    const cadCli = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/leads.ts', '--since', '1d', '--json', '--currency', 'CAD'], {
        env: { ...process.env, LOANSITES_DB_FILE: store.file ?? '', DATABASE_URL: store.url ?? '' },
        encoding: 'utf8',
      }),
    ) as { totals: { revenue: number } };
    const cadRevenue = 5137 + 2911 + 1001 + 1001 + 5000 - 5000;
    expect(inCad.data.funnel.revenueCents).toBe(cadRevenue);
    expect(cadBuyers.reduce((s, r) => s + r.revenueCents, 0)).toBe(cadRevenue);
    expect(cadCsv).toContain(`revenue ${(cadRevenue / 100).toFixed(2)} CAD`);
    expect(Math.round(cadCli.totals.revenue * 100)).toBe(cadRevenue);

    // Read in Australian dollars, which have no rate: only the A$20.00 sale counts, and every other currency is named as left out.
    const inAud = await overviewData(db(), ask({ currency: 'AUD' }));
    expect(inAud.data.funnel.revenueCents).toBe(2000);
    expect(inAud.currencies.map((c) => [c.currency, c.rate, c.leftOutCents])).toEqual([
      ['CAD', null, 1001 + 1001 + 5000 + 5000],
      ['USD', null, 3750 + 2125],
    ]);
  }, 120_000);
});
