/**
 * The console's overview: for a date range (and a brand or campaign), the funnel from visit to
 * sale with its conversion rates, revenue and earnings per lead and per visit, visits and sales
 * per day, and the funnel by campaign, source, landing page and state (engine/traffic/funnelQuery.ts
 * overview): the stages up to stored leads from the event rollups, the money from the sale records.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DateRangeFields, DataTable, FilterSelect, buttonClass, inputClass } from '../../blocks/console/ConsoleLayout';
import { DailyChart, FunnelChart, stageLabel } from '../../blocks/console/charts';
import { money, num, pct } from '../../blocks/console/format';
import { getCatalog } from '../../engine/site/catalog';
import { consolePage, queryText, type ConsoleProps } from '../../engine/console/pages';
import { BREAKDOWN_COLUMNS, sortBreakdown, type BreakdownSort } from '../../engine/console/breakdownSort';
import { DEVICE_CLASSES, overviewQuery, type OverviewQuery } from '../../engine/console/range';
import { overview } from '../../engine/traffic/funnelQuery';
import type { CostFigures } from '../../engine/traffic/costMetrics';
import { refusedEvents } from '../../engine/traffic/refusedQuery';

export const config = { unstable_runtimeJS: false };

type Overview = Awaited<ReturnType<typeof overview>>;
type Query = Omit<OverviewQuery, 'filter'>;
type Props = ConsoleProps<{ query: Query; brands: string[]; data: Overview; /** events refused past the ingest budget in the range */ refused: number }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'overview.view', async (db) => {
    const brands = [...getCatalog().brands.keys()].sort();
    const q = Object.fromEntries(FIELDS.map((k) => [k, queryText(ctx.query[k])]));
    const { filter, ...query } = overviewQuery(q, new Set(brands));
    const data = await overview(db, filter);
    const refused = await refusedEvents(db, filter);
    const sorted = (rows: Overview['byCampaign']) => sortBreakdown(rows, query.sort);
    return {
      query,
      brands,
      refused,
      data: { ...data, byCampaign: sorted(data.byCampaign), bySource: sorted(data.bySource), byLanding: sorted(data.byLanding), byState: sorted(data.byState) },
    };
  });

const FIELDS = ['from', 'to', 'brand', 'campaign', 'source', 'landing', 'device', 'sort', 'dir'] as const;

/** The overview's own URL with the same filter and another sort (a header's link; the console sends no script). */
function sortHref(query: Query, column: BreakdownSort['column']): string {
  const dir = query.sort.column === column ? (query.sort.dir === 'asc' ? 'desc' : 'asc') : column === 'key' ? 'asc' : 'desc';
  const params = new URLSearchParams();
  for (const k of ['from', 'to', 'brand', 'campaign', 'source', 'landing', 'device'] as const) if (query[k]) params.set(k, query[k]);
  params.set('sort', column);
  params.set('dir', dir);
  return `/?${params.toString()}`;
}

function Breakdown({ caption, rows, query }: { caption: string; rows: Overview['byCampaign']; query: Query }) {
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
        money(r.revenueCents),
        ...costCells(r.cost),
      ])}
    />
  );
}

/** The cost metrics' columns, beside the funnel's ('—' where no cost, or nothing to divide by, is known). */
const COST_HEAD = ['Cost', 'Cost per visit', 'Cost per lead', 'Revenue per lead', 'Revenue per sold lead', 'Earnings per click', 'Profit', 'ROAS'];
const ratioText = (r: number | null) => (r === null ? '—' : `${r.toFixed(2)}×`);
function costCells(c: CostFigures): string[] {
  return [
    money(c.costCents),
    money(c.costPerVisitCents),
    money(c.costPerLeadCents),
    money(c.revenuePerLeadCents),
    money(c.revenuePerSoldCents),
    money(c.earningsPerClickCents),
    money(c.profitCents),
    ratioText(c.roas),
  ];
}

export default function OverviewPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Overview" viewer={props.viewer} forbidden />;
  const { query, brands, data, refused } = props;
  const f = data.funnel;
  return (
    <ConsoleLayout title="Overview" viewer={props.viewer} current="/">
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
      <p className="mb-4">
        {query.from} to {query.to} (UTC){query.brand && `, ${query.brand}`}
        {query.campaign && `, campaign ${query.campaign}`}
        {query.source && `, source ${query.source}`}
        {query.landing && `, landing page ${query.landing}`}
        {query.device && `, ${query.device}`}
      </p>
      {refused > 0 && (
        <p role="status" className="mb-4 rounded border border-amber-700 bg-amber-50 p-2">
          Sampled data: {num(refused)} events were refused past the ingest budget in this range, so the counts below are lower than what happened.
        </p>
      )}
      <dl className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-3" data-testid="totals">
        {[
          ['Visits', num(f.stages[0]!.count)],
          ['Revenue', money(f.revenueCents)],
          ['Sold', `${num(f.stages[f.stages.length - 1]!.count)} for ${money(f.soldCents)}`],
          ['Returned', `${num(f.returned)}, ${money(f.returnedCents)} given back`],
          ['Earnings per lead', money(f.earningsPerLeadCents)],
          ['Earnings per visit', money(f.earningsPerVisitCents)],
          ...COST_HEAD.map((k, i) => [k, costCells(data.cost)[i]!]),
        ].map(([k, v]) => (
          <div key={k} className="rounded border border-slate-300 p-3">
            <dt className="text-sm text-slate-700">{k}</dt>
            <dd className="text-xl font-semibold tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      {!data.costApplies && (
        <p className="mb-4">Costs are reported by day and campaign only, so they are not shown for a brand, source, landing page or device.</p>
      )}
      {data.costsLeftOut.length > 0 && (
        <p className="mb-4">
          {`Costs in ${data.costsLeftOut.map((c) => `${c.currency} (${money(c.cents, c.currency)})`).join(', ')} are left out of the cost figures: revenue is in US dollars and no conversion rate is set.`}
        </p>
      )}
      <h2 className="mb-2 text-xl font-semibold">Funnel</h2>
      <FunnelChart stages={f.stages} />
      <DataTable
        caption="The funnel, stage by stage"
        head={['Stage', 'Count', 'Of the stage before', 'Of visits']}
        numeric={[false, true, true, true]}
        rows={f.stages.map((s) => [stageLabel(s.stage), num(s.count), pct(s.rate), pct(s.ofVisits)])}
      />
      <h2 className="mb-2 text-xl font-semibold">By day</h2>
      <DailyChart points={data.chart} />
      <DataTable
        caption="Visits, leads and sales per day"
        head={['Day', 'Visits', 'Stored leads', 'Sold', 'Returned', 'Revenue', ...COST_HEAD]}
        numeric={[false, true, true, true, true, true, ...COST_HEAD.map(() => true)]}
        rows={data.chart.map((p) => [
          p.at,
          num(p.visits),
          num(p.stored),
          num(p.sold),
          p.returned ? `${num(p.returned)} (${money(-p.returnedCents)})` : '0',
          money(p.revenueCents),
          ...costCells(p.cost),
        ])}
      />
      <h2 className="mb-2 text-xl font-semibold">Breakdowns</h2>
      <Breakdown query={query} caption="By campaign" rows={data.byCampaign} />
      <Breakdown query={query} caption="By source" rows={data.bySource} />
      <Breakdown query={query} caption="By landing page" rows={data.byLanding} />
      <Breakdown query={query} caption="By state" rows={data.byState} />
    </ConsoleLayout>
  );
}
