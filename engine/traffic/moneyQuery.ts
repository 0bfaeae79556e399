/**
 * The overview's money — sold, revenue, returns — read from the sale records themselves
 * (lead_sales, lead_returns), never from funnel events: a sale is recorded once, by the sale, and
 * every page that shows money (the overview, the buyers page, the lead pages, the exports,
 * `npm run leads`) reads that same record, so they cannot disagree. The funnel's earlier stages
 * (visits … stored) stay in the event rollups (./funnelQuery.ts).
 *
 * A sale counts on the day it was decided, at its price; a return counts on the day it was made,
 * its refunded price taken off that day's revenue. A sale returned later thus shows on both days:
 * sold (+price) on the first, returned (−price) on the second; revenue is what was kept.
 *
 * Each row is joined to its lead, and takes the same dimensions its "stored" event took
 * (engine/store/traffic.ts): the visit's brand, campaign, source, landing page and device when the
 * visit is known — read from the lead's copy of them (engine/store/leadVisitDims.ts), not the visit
 * itself, so each sale costs one look-up — else the lead's brand and device and none of the rest;
 * the state from the lead. So a filter or a breakdown splits sales exactly as it splits
 * leads, on SQLite and PostgreSQL alike (only literals in the grouped expressions: PostgreSQL
 * matches GROUP BY to SELECT by their text). The cells also carry the lead's sub-id (source2),
 * loan kind and currency, the sale's buyer, and the leads no buyer took (unsold, on the day that
 * was decided), for the console's lead cuts (engine/console/cutsQuery.ts).
 *
 * Given a converter (./currency.ts), the cells come in its currency: a price in another currency
 * is converted sale by sale (the query splits those rows by price, so a cell's total is its sales
 * converted one by one — the same cents the leads export and `npm run leads` show a line at a
 * time), and a currency without a rate is left out, the converter naming it.
 */
import { sql, type CompiledQuery, type RawBuilder } from 'kysely';
import type { Store } from '../store/db';
import type { FunnelFilter } from './funnelQuery';
import type { Converter } from './currency';
import { isPostgresStore } from '../store/trafficPartitions';

export const MONEY_DIMS = ['brand', 'campaign', 'source', 'landing', 'state', 'device', 'subId', 'loanKind', 'buyer', 'currency'] as const;
export type MoneyDim = (typeof MONEY_DIMS)[number];

/** Sales and returns of one bucket (day or hour) and one combination of dimensions. */
export interface MoneyCell extends Record<MoneyDim, string> {
  at: string;
  sold: number;
  /** leads no buyer took, decided in the bucket */
  rejected: number;
  soldCents: number;
  returned: number;
  returnedCents: number;
}

const DIM_SQL: Record<MoneyDim, RawBuilder<string>> = {
  brand: sql<string>`coalesce(l.visit_brand, l.brand)`,
  campaign: sql<string>`coalesce(l.visit_campaign, '')`,
  source: sql<string>`coalesce(l.visit_source, '')`,
  landing: sql<string>`coalesce(l.visit_landing, '')`,
  // as serverEvents.ts stateDim: a two-letter code, upper-case; '' for the longer region codes
  state: sql<string>`case when length(l.state) = 2 then upper(l.state) else '' end`,
  device: sql<string>`coalesce(l.visit_device, l.device)`,
  // the lead's sub-id, as the quality page reads it
  subId: sql<string>`coalesce(l.source2, '')`,
  loanKind: sql<string>`coalesce(l.loan_kind, '')`,
  // the sale's buyer, or the returning one ('' for a lead no buyer took)
  buyer: sql<string>`coalesce(m.buyer_id, '')`,
  // a price is in its lead's currency (the brand's); the console converts (./currency.ts)
  currency: sql<string>`coalesce(nullif(l.currency, ''), 'USD')`,
};

const FILTERS = ['brand', 'campaign', 'source', 'landing', 'device'] as const;

/** A query over leads (`l`) narrowed to the filter's values, as the money cells are. */
export function dimWhere<Q extends { where(lhs: RawBuilder<string>, op: '=', rhs: string): Q }>(q: Q, f: FunnelFilter): Q {
  for (const d of FILTERS) {
    const value = f[d];
    if (value !== undefined) q = q.where(DIM_SQL[d], '=', value);
  }
  return q;
}

/** The sales and returns rows of the money query, before they are summed into cells. */
type MoneyRow = Record<MoneyDim | 'at', string> & { unit: number | string | null; n: number | string; cents: number | string | null };
interface MoneyRows {
  sold: (MoneyRow & { rejected: number | string; set?: MoneyDim })[];
  back: (MoneyRow & { set?: MoneyDim })[];
}

/**
 * The money query's rows by `bucket` and the kept dimensions (the others ''); with `sets`, PostgreSQL
 * groups once per set (GROUPING SETS: each row grouped by the bucket, the currency and one of the
 * sets' dimensions, which it names in `set`), so each reader gets a few rows instead of every
 * combination of dimensions, and the join to the leads is still read once.
 */
async function moneyRows(
  db: Store,
  f: FunnelFilter,
  bucket: 'day' | 'hour',
  money: Converter | undefined,
  opts: { buyer?: string; dims?: readonly MoneyDim[] },
  sets?: readonly MoneyDim[],
): Promise<MoneyRows> {
  const width = sql.lit(bucket === 'day' ? 10 : 13);
  const from = f.from.slice(0, 13);
  const to = f.to.slice(0, 13);
  // Converting: a price not in the target currency is its own group (0 or null: nothing to convert;
  // a row whose currency is the target's anyway converts to itself). The raw column, not the
  // dimension's expression: cheaper on every row of the overview.
  const target = money && /^[A-Z]{3}$/.test(money.to) ? money.to : undefined;
  const unit = !target
    ? sql<number>`0`
    : target === 'USD'
      ? sql<number | string | null>`case when l.currency = 'USD' or l.currency = '' then 0 else m.price_cents end`
      : sql<number | string | null>`case when l.currency = ${sql.lit(target)} then 0 else m.price_cents end`;
  // a converter reads each row's currency
  const kept = MONEY_DIMS.filter((d) => (sets ? sets.includes(d) : !opts.dims || opts.dims.includes(d)) || d === 'currency');
  const dims = [...MONEY_DIMS.map((d) => (kept.includes(d) ? DIM_SQL[d] : sql<string>`''`).as(d)), unit.as('unit')];
  const common = [DIM_SQL.currency, ...(target ? [unit] : [])];
  const groupOf = (at: RawBuilder<string>) =>
    sets
      ? [sql`grouping sets (${sql.join(sets.map((d) => sql`(${sql.join([at, ...common, DIM_SQL[d]])})`))})`]
      : [at, ...kept.map((d) => DIM_SQL[d]), ...(target ? [unit] : [])];
  // which set a row was grouped by: the one dimension of the set that grouping() says is grouped
  const setOf = sets
    ? [
        sql<MoneyDim>`case ${sql.join(
          sets.map((d) => sql`when grouping(${DIM_SQL[d]}) = 0 then ${sql.lit(d)}`),
          sql` `,
        )} end`.as('set'),
      ]
    : [];

  // Both tables are aliased m, so the buyer dimension reads m.buyer_id in either.
  const salesAt = sql<string>`substr(m.decided_at, 1, ${width})`;
  let sales = db
    .selectFrom('lead_sales as m')
    .innerJoin('leads as l', 'l.id', 'm.lead_id')
    .where('m.status', 'in', ['sold', 'returned', 'unsold'])
    .where('m.decided_at', '>=', from)
    .where('m.decided_at', '<', to);
  const returnsAt = sql<string>`substr(m.created_at, 1, ${width})`;
  let returns = db
    .selectFrom('lead_returns as m')
    .innerJoin('leads as l', 'l.id', 'm.lead_id')
    .where('m.created_at', '>=', from)
    .where('m.created_at', '<', to);
  sales = dimWhere(sales, f);
  returns = dimWhere(returns, f);
  if (opts.buyer !== undefined) {
    sales = sales.where('m.buyer_id', '=', opts.buyer);
    returns = returns.where('m.buyer_id', '=', opts.buyer);
  }
  // Grouping sets: PostgreSQL hashes every set's groups in one pass when it has the memory to (its estimate of the groups
  // is far above the few thousand there are); with the default 4 MB it sorts the joined rows once per set, on one core.
  const run = <R>(q: { compile(): CompiledQuery<R>; execute(): Promise<R[]> }): Promise<R[]> => (!sets ? q.execute() : withWorkMem(db, q.compile()));
  const [sold, back] = await Promise.all([
    run(
      sales
        .select(() => [
          salesAt.as('at'),
          ...dims,
          ...setOf,
          sql<number | string>`sum(case when m.status = 'unsold' then 0 else 1 end)`.as('n'),
          sql<number | string>`sum(case when m.status = 'unsold' then 1 else 0 end)`.as('rejected'),
          sql<number | string | null>`sum(case when m.status = 'unsold' then 0 else m.price_cents end)`.as('cents'),
        ])
        .groupBy(groupOf(salesAt)),
    ),
    run(
      returns
        .select((eb) => [
          returnsAt.as('at'),
          ...dims,
          ...setOf,
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.sum<number | string>('m.price_cents').as('cents'),
        ])
        .groupBy(groupOf(returnsAt)),
    ),
  ]);
  return { sold, back } as MoneyRows;
}

/**
 * Runs a query with PostgreSQL's work_mem raised to 64 MB for its own transaction (SQLite: as it is), for the
 * console's few large aggregates: with the default 4 MB PostgreSQL sorts where it could hash, and writes
 * materialized intermediate rows to disk.
 */
export async function withWorkMem<R>(db: Store, query: CompiledQuery<R>): Promise<R[]> {
  if (!isPostgresStore(db)) return (await db.executeQuery(query)).rows;
  return db.transaction().execute(async (trx) => {
    await sql`set local work_mem = '64MB'`.execute(trx);
    return (await trx.executeQuery(query)).rows;
  });
}

/** The rows summed into cells, in the converter's currency when given (a currency it has no rate for left out). */
function cellsOf(rows: MoneyRows, money: Converter | undefined): MoneyCell[] {
  const cells = new Map<string, MoneyCell>();
  const cell = (r: Record<MoneyDim | 'at', string | null>) => {
    const currency = money ? money.to : r.currency!;
    // A cell's key: its values joined by NUL, which no stored text holds (PostgreSQL's text cannot; cheaper than JSON per row).
    // A dimension a grouping set left out comes back null: it is '' as in the other sets' cells.
    let key = r.at!;
    for (const d of MONEY_DIMS) key += `\u0000${d === 'currency' ? currency : (r[d] ?? '')}`;
    let c = cells.get(key);
    if (!c) {
      c = { at: r.at } as MoneyCell;
      for (const d of MONEY_DIMS) c[d] = r[d] ?? '';
      c.currency = currency;
      c.sold = 0;
      c.rejected = 0;
      c.soldCents = 0;
      c.returned = 0;
      c.returnedCents = 0;
      cells.set(key, c);
    }
    return c;
  };
  /** The row's cents in the target currency (undefined: no rate, the row is left out); as they are without a converter. */
  const inTarget = (r: { currency: string; unit: number | string | null }, n: number, cents: number) =>
    !money ? cents : !Number(r.unit) ? money.convert(cents, r.currency) : money.convertEach(n, Number(r.unit), r.currency);
  for (const r of rows.sold) {
    const cents = inTarget(r, Number(r.n), Number(r.cents ?? 0));
    if (cents === undefined) continue;
    const c = cell(r);
    c.sold += Number(r.n);
    c.rejected += Number(r.rejected);
    c.soldCents += cents;
  }
  for (const r of rows.back) {
    const cents = inTarget(r, Number(r.n), Number(r.cents ?? 0));
    if (cents === undefined) continue;
    const c = cell(r);
    c.returned += Number(r.n);
    c.returnedCents += cents;
  }
  return [...cells.values()];
}

/**
 * Money by `bucket` and every dimension (or only `opts.dims`, the others '': the buyers pages need
 * no more than buyer and currency), over the filter's range and values (and `opts.buyer`'s sales).
 */
export async function moneyCells(
  db: Store,
  f: FunnelFilter,
  bucket: 'day' | 'hour' = 'day',
  money?: Converter,
  opts: { buyer?: string; dims?: readonly MoneyDim[] } = {},
): Promise<MoneyCell[]> {
  return cellsOf(await moneyRows(db, f, bucket, money, opts), money);
}

/** Cells for readers that each sum by one dimension (and the bucket): each dimension's own cells. */
export type MoneyEach = ReadonlyMap<MoneyDim, readonly MoneyCell[]>;
/** Money cells as a reader is given them: by every dimension it reads, or each dimension's own, or their query under way. */
export type MoneyAsked = readonly MoneyCell[] | Promise<readonly MoneyCell[]> | Promise<MoneyEach>;

/**
 * Money by `bucket` for readers of one dimension each (`dims`): on PostgreSQL one query groups once
 * per dimension (far fewer rows than every combination); on SQLite, which has no grouping sets,
 * one set of cells by all of `dims` serves every reader. Either way a reader sums the same figures.
 */
export async function moneyCellsEach(
  db: Store,
  f: FunnelFilter,
  bucket: 'day' | 'hour',
  money: Converter | undefined,
  dims: readonly MoneyDim[],
): Promise<MoneyEach> {
  if (!isPostgresStore(db)) {
    const cells = await moneyCells(db, f, bucket, money, { dims });
    return new Map(dims.map((d) => [d, cells]));
  }
  const rows = await moneyRows(db, f, bucket, money, {}, dims);
  const setOf = (d: MoneyDim) => cellsOf({ sold: rows.sold.filter((r) => r.set === d), back: rows.back.filter((r) => r.set === d) }, money);
  const each = new Map([[dims[0]!, setOf(dims[0]!)]]);
  // Every set holds each sale once: what the converter left out is counted by the first set alone, as one set of cells would.
  const met = money && new Map([...money.met].map(([c, m]) => [c, { ...m }]));
  for (const d of dims.slice(1)) each.set(d, setOf(d));
  if (money && met) {
    money.met.clear();
    for (const [c, m] of met) money.met.set(c, m);
  }
  return each;
}

/**
 * The cells a reader of `dim` sums; without `dim` (a reader of the totals or the bucket only), any
 * dimension's cells: each set of cells holds every sale and return once.
 */
export async function cellsFor(asked: MoneyAsked, dim?: MoneyDim): Promise<readonly MoneyCell[]> {
  const got = await asked;
  if (!(got instanceof Map)) return got as readonly MoneyCell[];
  const each = got as MoneyEach;
  const cells = dim ? each.get(dim) : each.values().next().value;
  if (!cells) throw new Error(`no money cells by ${dim ?? 'any dimension'} were asked for`);
  return cells;
}

export interface MoneyTotals {
  sold: number;
  rejected: number;
  soldCents: number;
  returned: number;
  returnedCents: number;
  /** what was kept: sales less returns */
  revenueCents: number;
}

export const NO_MONEY: MoneyTotals = { sold: 0, rejected: 0, soldCents: 0, returned: 0, returnedCents: 0, revenueCents: 0 };

/** The cells summed by `keyOf` (one group: the totals). */
export function moneyBy(cells: readonly MoneyCell[], keyOf: (c: MoneyCell) => string): Map<string, MoneyTotals> {
  const out = new Map<string, MoneyTotals>();
  for (const c of cells) {
    const k = keyOf(c);
    let t = out.get(k);
    if (!t) out.set(k, (t = { ...NO_MONEY }));
    t.sold += c.sold;
    t.rejected += c.rejected;
    t.soldCents += c.soldCents;
    t.returned += c.returned;
    t.returnedCents += c.returnedCents;
  }
  for (const t of out.values()) t.revenueCents = t.soldCents - t.returnedCents;
  return out;
}
