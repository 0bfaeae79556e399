/**
 * The console's overview: for a date range (and a brand or campaign), the funnel from visit to
 * sale with its conversion rates, revenue and earnings per lead and per visit, visits and sales
 * per day, and the funnel by campaign, source, landing page and state (engine/traffic/funnelQuery.ts
 * overview): the stages up to stored leads from the event rollups, the money from the sale records.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DateRangeFields, DataTable, FilterSelect, buttonClass, inputClass } from '../../blocks/console/ConsoleLayout';
import { DailyChart, FunnelChart, funnelRows } from '../../blocks/console/charts';
import { money, num, pct, when } from '../../blocks/console/format';
import { getCatalog } from '../../engine/site/catalog';
import { consolePage, queryText, type ConsoleProps } from '../../engine/console/pages';
import { BREAKDOWN_COLUMNS, sortBreakdown, type BreakdownSort } from '../../engine/console/breakdownSort';
import { DEVICE_CLASSES, overviewQuery, type OverviewQuery } from '../../engine/console/range';
import { VISIT_VALUE_MAX } from '../../engine/store/trafficRules';
import type { CostFigures } from '../../engine/traffic/costMetrics';
import { refusedEvents } from '../../engine/traffic/refusedQuery';
import { ratesNote } from '../../engine/traffic/currency';
import type { CutRow } from '../../engine/console/cutsQuery';
import { CUTS } from '../../engine/console/cuts';
import { overviewData, type Totals } from '../../engine/console/overviewData';
import { delta, GRAINS, grainOf } from '../../engine/console/periods';
import { findUser } from '../../engine/store/console';
import { openAlerts, type OpenAlert } from '../../engine/console/alerts';
import { refusedNotices, type RefusedNotice } from '../../engine/console/refusedRevisions';
import { RefusedRevisions } from '../../blocks/console/RefusedRevisions';

export const config = { unstable_runtimeJS: false };

type Data = Awaited<ReturnType<typeof overviewData>>;
type Overview = Data['data'];
type Query = Omit<OverviewQuery, 'filter'> & { grain: (typeof GRAINS)[number]; compare: boolean };
type Props = ConsoleProps<{
  query: Query;
  brands: string[];
  view: Omit<Data, 'filter' | 'data'> & { data: Omit<Overview, 'chart' | 'costDays'> };
  alerts: OpenAlert[];
  /** events refused past the ingest budget in the range */
  refused: number;
  /** published brand revisions left out because they do not build since the deploy */
  notApplied?: RefusedNotice[];
}>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'overview.view', async (db, viewer) => {
    const brands = [...getCatalog().brands.keys()].sort();
    const q = Object.fromEntries(FIELDS.map((k) => [k, queryText(ctx.query[k], VISIT_VALUE_MAX)]));
    const user = await findUser(db, viewer.email);
    const { filter, ...base } = overviewQuery(q, new Set(brands), new Date(), user?.time_zone || 'UTC');
    const { grain, problem } = grainOf(queryText(ctx.query.grain), base.from, base.to);
    const query: Query = { ...base, grain, compare: queryText(ctx.query.compare) === '1', problem: base.problem || problem };
    const { from: _from, to: _to, ...dims } = filter;
    const all = await overviewData(db, {
      from: query.from,
      to: query.to,
      dims,
      zone: user?.time_zone ?? '',
      grain,
      compare: query.compare,
      currency: user?.currency || 'USD',
    });
    const refused = await refusedEvents(db, all.filter);
    const { chart: _chart, costDays: _days, ...data } = all.data;
    const sorted = (rows: Overview['byCampaign']) => sortBreakdown(rows, query.sort);
    const { filter: _f, data: _d, ...view } = all;
    return {
      query,
      brands,
      refused,
      alerts: await openAlerts(db),
      notApplied: refusedNotices(),
      view: {
        ...view,
        data: {
          ...data,
          byCampaign: sorted(data.byCampaign),
          bySource: sorted(data.bySource),
          byLanding: sorted(data.byLanding),
          byState: sorted(data.byState),
        },
      },
    };
  });

const FIELDS = ['from', 'to', 'brand', 'campaign', 'source', 'landing', 'device', 'sort', 'dir'] as const;
const KEPT = ['from', 'to', 'brand', 'campaign', 'source', 'landing', 'device'] as const;

/** The overview's own URL with the same filter and another sort (a header's link; the console sends no script). */
function sortHref(query: Query, column: BreakdownSort['column']): string {
  const dir = query.sort.column === column ? (query.sort.dir === 'asc' ? 'desc' : 'asc') : column === 'key' ? 'asc' : 'desc';
  const params = new URLSearchParams();
  for (const k of KEPT) if (query[k]) params.set(k, query[k]);
  if (query.grain !== 'day') params.set('grain', query.grain);
  if (query.compare) params.set('compare', '1');
  params.set('sort', column);
  params.set('dir', dir);
  return `/?${params.toString()}`;
}

function Breakdown({ caption, rows, query, cur }: { caption: string; rows: Overview['byCampaign']; query: Query; cur: string }) {
  return (
    <DataTable
      caption={caption}
      head={[...BREAKDOWN_COLUMNS.map(([, label]) => label), ...COST_HEAD]}
      sort={{
        hrefs: BREAKDOWN_COLUMNS.map(([column]) => sortHref(query, column)),
        active: BREAKDOWN_COLUMNS.findIndex(([column]) => column === query.sort.column),
        dir: query.sort.dir,
      }}
      numeric={[false, true, true, true, true, true, true, true, ...COST_HEAD.map(() => true)]}
      rows={rows.map((r) => [
        r.key || '(none)',
        num(r.visits),
        num(r.applyViews),
        num(r.submitted),
        num(r.stored),
        num(r.sold),
        r.visits ? pct(r.stored / r.visits) : '—',
        money(r.revenueCents, cur),
        ...costCells(r.cost, cur),
      ])}
    />
  );
}

/** The cost metrics' columns, beside the funnel's ('—' where no cost, or nothing to divide by, is known). */
const COST_HEAD = ['Cost', 'Cost per visit', 'Cost per lead', 'Revenue per lead', 'Revenue per sold lead', 'Earnings per click', 'Profit', 'ROAS'];
const ratioText = (r: number | null) => (r === null ? '—' : `${r.toFixed(2)}×`);
function costCells(c: CostFigures, cur: string): string[] {
  return [
    money(c.costCents, cur),
    money(c.costPerVisitCents, cur),
    money(c.costPerLeadCents, cur),
    money(c.revenuePerLeadCents, cur),
    money(c.revenuePerSoldCents, cur),
    money(c.earningsPerClickCents, cur),
    money(c.profitCents, cur),
    ratioText(c.roas),
  ];
}

const CUT_HEAD = [
  'Leads',
  'Sold',
  'Rejected',
  'Returns',
  'Return %',
  'Revenue',
  'Cost',
  'Profit',
  'Cost per lead',
  'Revenue per lead',
  'Revenue per sold lead',
  'Earnings per click',
  'Acceptance %',
];
const rate = (r: number | null) => (r === null ? '—' : pct(r));

/** A lead cut (buyer, sub-id, landing page, loan kind) with the lead platforms' columns; response times per buyer only. */
function CutTable({ cut, caption, rows, cur }: { cut: (typeof CUTS)[number][0]; caption: string; rows: CutRow[]; cur: string }) {
  const timed = cut === 'buyer';
  const head = ['Value', ...CUT_HEAD, ...(timed ? ['Response p50', 'Response p95'] : [])];
  return (
    <DataTable
      caption={caption}
      head={head}
      numeric={head.map((_, i) => i > 0)}
      rows={rows.map((r) => [
        r.key || '(none)',
        num(r.leads),
        num(r.sold),
        num(r.rejected),
        num(r.returned),
        rate(r.returnRate),
        money(r.revenueCents, cur),
        money(r.cost.costCents, cur),
        money(r.cost.profitCents, cur),
        money(r.cost.costPerLeadCents, cur),
        money(r.cost.revenuePerLeadCents, cur),
        money(r.cost.revenuePerSoldCents, cur),
        money(r.cost.earningsPerClickCents, cur),
        rate(r.acceptance),
        ...(timed ? [r.p50Ms === null ? '—' : `${num(r.p50Ms)} ms`, r.p95Ms === null ? '—' : `${num(r.p95Ms)} ms`] : []),
      ])}
    />
  );
}

const COMPARED: [label: string, key: keyof Totals, kind: 'count' | 'money'][] = [
  ['Visits', 'visits', 'count'],
  ['Stored leads', 'stored', 'count'],
  ['Sold', 'sold', 'count'],
  ['Revenue', 'revenueCents', 'money'],
  ['Cost', 'costCents', 'money'],
  ['Profit', 'profitCents', 'money'],
  ['Cost per lead', 'costPerLeadCents', 'money'],
  ['Revenue per lead', 'revenuePerLeadCents', 'money'],
];

/** The headline figures beside the previous period's, with the change (the console sends no script: a table). */
function Comparison({ now, before, period, cur }: { now: Totals; before: Totals; period: string; cur: string }) {
  const show = (v: number | null, kind: 'count' | 'money') => (v === null ? '—' : kind === 'money' ? money(v, cur) : num(v));
  return (
    <DataTable
      caption={`Compared with the previous period, ${period}`}
      head={['Figure', 'This period', `Previous (${period})`, 'Change', 'Change %']}
      numeric={[false, true, true, true, true]}
      rows={COMPARED.map(([label, key, kind]) => {
        const d = delta(now[key], before[key]);
        const sign = d.change !== null && d.change > 0 ? '+' : '';
        return [
          label,
          show(now[key], kind),
          show(before[key], kind),
          d.change === null ? '—' : sign + show(d.change, kind),
          d.share === null ? '—' : sign + pct(d.share),
        ];
      })}
    />
  );
}

export default function OverviewPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Overview" viewer={props.viewer} forbidden />;
  const { query, brands, view, refused, alerts } = props;
  const { data, cuts, periods, totals, previous, zone } = view;
  const cur = view.currency;
  const f = data.funnel;
  const unit = query.grain;
  return (
    <ConsoleLayout title="Overview" viewer={props.viewer} current="/">
      <RefusedRevisions notices={props.notApplied ?? []} />
      {alerts.length > 0 && (
        <section aria-labelledby="alerts-now" className="mb-6 rounded border border-red-700 bg-red-50 p-3">
          <h2 id="alerts-now" className="mb-1 text-lg font-semibold">
            Alerts
          </h2>
          <ul className="list-disc pl-5">
            {alerts.map((a) => (
              <li key={`${a.ruleId}/${a.subject}`}>
                {a.message} <span className="text-sm text-slate-700">(since {when(a.openedAt)})</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <form method="get" action="/" className="mb-6 flex flex-wrap items-end gap-3">
        <DateRangeFields from={query.from} to={query.to} />
        <FilterSelect label="Brand" name="brand" value={query.brand} all="All brands" options={brands} />
        <label className="flex flex-col text-sm">
          Campaign
          <input type="text" name="campaign" defaultValue={query.campaign} className={inputClass} />
        </label>
        <label className="flex flex-col text-sm">
          Source
          <input type="text" name="source" defaultValue={query.source} className={inputClass} />
        </label>
        <label className="flex flex-col text-sm">
          Landing page
          <input type="text" name="landing" defaultValue={query.landing} placeholder="/payday-loans" className={inputClass} />
        </label>
        <FilterSelect label="Device" name="device" value={query.device} all="All devices" options={DEVICE_CLASSES} />
        <label className="flex flex-col text-sm">
          Group by
          <select name="grain" defaultValue={query.grain} className={inputClass}>
            {GRAINS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-h-11 items-center gap-2 text-sm">
          <input type="checkbox" name="compare" value="1" defaultChecked={query.compare} className="h-6 w-6" />
          Compare with the previous period
        </label>
        {query.sort.column !== 'visits' || query.sort.dir !== 'desc' ? (
          <>
            <input type="hidden" name="sort" value={query.sort.column} />
            <input type="hidden" name="dir" value={query.sort.dir} />
          </>
        ) : null}
        <button type="submit" className={buttonClass}>
          Show
        </button>
      </form>
      {query.problem && (
        <p role="alert" className="mb-4 rounded border border-amber-700 bg-amber-50 p-2">
          {query.problem}
        </p>
      )}
      <p className="mb-4" data-testid="range">
        {query.from} to {query.to} ({zone}){query.brand && `, ${query.brand}`}
        {query.campaign && `, campaign ${query.campaign}`}
        {query.source && `, source ${query.source}`}
        {query.landing && `, landing page ${query.landing}`}
        {query.device && `, ${query.device}`}. Amounts in {cur}.
      </p>
      {view.currencies.length > 0 && (
        <p className="mb-4" data-testid="rates">
          {ratesNote(view.currencies, cur, money)}
        </p>
      )}
      {refused > 0 && (
        <p role="status" className="mb-4 rounded border border-amber-700 bg-amber-50 p-2">
          Sampled data: {num(refused)} events were refused past the ingest budget in this range, so the counts below are lower than what happened.
        </p>
      )}
      <dl className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-3" data-testid="totals">
        {[
          ['Visits', num(f.stages[0]!.count)],
          ['Revenue', money(f.revenueCents, cur)],
          ['Sold', `${num(f.stages[f.stages.length - 1]!.count)} for ${money(f.soldCents, cur)}`],
          ['Returned', `${num(f.returned)}, ${money(f.returnedCents, cur)} given back`],
          ['Earnings per lead', money(f.earningsPerLeadCents, cur)],
          ['Earnings per visit', money(f.earningsPerVisitCents, cur)],
          ...COST_HEAD.map((k, i) => [k, costCells(data.cost, cur)[i]!]),
        ].map(([k, v]) => (
          <div key={k} className="rounded border border-slate-300 p-3">
            <dt className="text-sm text-slate-700">{k}</dt>
            <dd className="text-xl font-semibold tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      {previous && <Comparison now={totals} before={previous.totals} period={`${previous.from} to ${previous.to}`} cur={cur} />}
      {!data.costApplies && (
        <p className="mb-4">Costs are reported by day and campaign only, so they are not shown for a brand, source, landing page or device.</p>
      )}
      <h2 className="mb-2 text-xl font-semibold">Funnel</h2>
      <FunnelChart stages={f.stages} />
      <DataTable
        caption="The funnel, stage by stage"
        head={['Stage', 'Count', 'Of the stage before', 'Of visits', 'Counted in']}
        numeric={[false, true, true, true, false]}
        rows={funnelRows(f.stages)}
      />
      <h2 className="mb-2 text-xl font-semibold">By {unit}</h2>
      <DailyChart points={periods} unit={unit} />
      <DataTable
        caption={`Visits, leads and sales per ${unit} (${zone})`}
        head={[unit[0]!.toUpperCase() + unit.slice(1), 'Visits', 'Stored leads', 'Sold', 'Returned', 'Revenue', ...COST_HEAD]}
        numeric={[false, true, true, true, true, true, ...COST_HEAD.map(() => true)]}
        rows={periods.map((p) => [
          p.at,
          num(p.visits),
          num(p.stored),
          num(p.sold),
          p.returned ? `${num(p.returned)} (${money(-p.returnedCents, cur)})` : '0',
          money(p.revenueCents, cur),
          ...costCells(p.cost, cur),
        ])}
      />
      <h2 className="mb-2 text-xl font-semibold">Breakdowns</h2>
      <Breakdown cur={cur} query={query} caption="By campaign" rows={data.byCampaign} />
      <Breakdown cur={cur} query={query} caption="By source" rows={data.bySource} />
      <Breakdown cur={cur} query={query} caption="By landing page" rows={data.byLanding} />
      <Breakdown cur={cur} query={query} caption="By state" rows={data.byState} />
      <h2 className="mb-2 text-xl font-semibold">Leads, buyers and sales</h2>
      <p className="mb-4">
        A buyer&apos;s leads are those offered to it, its rejected ones those it neither bid on nor accepted; elsewhere rejected leads are those no buyer took.
        Costs are reported by day and campaign only, so these cuts show no cost.
      </p>
      {CUTS.map(([cut, caption]) => (
        <CutTable key={cut} cut={cut} caption={caption} rows={cuts[cut]} cur={cur} />
      ))}
    </ConsoleLayout>
  );
}
