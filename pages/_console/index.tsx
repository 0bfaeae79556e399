/**
 * The console's overview: for a date range (and a brand or campaign), the funnel from visit to
 * sale with its conversion rates, revenue and earnings per lead and per visit, visits and sales
 * per day, and the funnel by campaign, source, landing page and state — all from the rollups
 * (engine/traffic/funnelQuery.ts overview).
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, buttonClass, inputClass } from '../../blocks/console/ConsoleLayout';
import { DailyChart, FunnelChart, stageLabel } from '../../blocks/console/charts';
import { money, num, pct } from '../../blocks/console/format';
import { getCatalog } from '../../engine/catalog';
import { consolePage, queryText, type ConsoleProps } from '../../engine/console/pages';
import { overviewQuery, type OverviewQuery } from '../../engine/console/range';
import { overview } from '../../engine/traffic/funnelQuery';

export const config = { unstable_runtimeJS: false };

type Overview = Awaited<ReturnType<typeof overview>>;
type Props = ConsoleProps<{ query: Omit<OverviewQuery, 'filter'>; brands: string[]; data: Overview }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'overview.view', async (db) => {
    const brands = [...getCatalog().brands.keys()].sort();
    const q = Object.fromEntries(['from', 'to', 'brand', 'campaign'].map((k) => [k, queryText(ctx.query[k])]));
    const { filter, ...query } = overviewQuery(q, new Set(brands));
    return { query, brands, data: await overview(db, filter) };
  });

const BREAKDOWN_HEAD = ['Visits', 'Apply views', 'Submitted', 'Stored', 'Sold', 'Visit → lead', 'Revenue'];

function Breakdown({ caption, rows }: { caption: string; rows: Overview['byCampaign'] }) {
  return (
    <DataTable
      caption={caption}
      head={['Value', ...BREAKDOWN_HEAD]}
      numeric={[false, true, true, true, true, true, true, true]}
      rows={rows.map((r) => [
        r.key || '(none)',
        num(r.visits),
        num(r.applyViews),
        num(r.submitted),
        num(r.stored),
        num(r.sold),
        r.visits ? pct(r.stored / r.visits) : '—',
        money(r.revenueCents),
      ])}
    />
  );
}

export default function OverviewPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Overview" viewer={props.viewer} forbidden />;
  const { query, brands, data } = props;
  const f = data.funnel;
  return (
    <ConsoleLayout title="Overview" viewer={props.viewer} current="/">
      <form method="get" action="/" className="mb-6 flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          From
          <input type="date" name="from" defaultValue={query.from} className={inputClass} />
        </label>
        <label className="flex flex-col text-sm">
          To
          <input type="date" name="to" defaultValue={query.to} className={inputClass} />
        </label>
        <label className="flex flex-col text-sm">
          Brand
          <select name="brand" defaultValue={query.brand} className={inputClass}>
            <option value="">All brands</option>
            {brands.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Campaign
          <input type="text" name="campaign" defaultValue={query.campaign} className={inputClass} />
        </label>
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
      </p>
      <dl className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="totals">
        {[
          ['Visits', num(f.stages[0]!.count)],
          ['Revenue', money(f.revenueCents)],
          ['Earnings per lead', money(f.earningsPerLeadCents)],
          ['Earnings per visit', money(f.earningsPerVisitCents)],
        ].map(([k, v]) => (
          <div key={k} className="rounded border border-slate-300 p-3">
            <dt className="text-sm text-slate-700">{k}</dt>
            <dd className="text-xl font-semibold tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
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
        head={['Day', 'Visits', 'Stored leads', 'Sold', 'Revenue']}
        numeric={[false, true, true, true, true]}
        rows={data.chart.map((p) => [p.at, num(p.visits), num(p.stored), num(p.sold), money(p.revenueCents)])}
      />
      <h2 className="mb-2 text-xl font-semibold">Breakdowns</h2>
      <Breakdown caption="By campaign" rows={data.byCampaign} />
      <Breakdown caption="By source" rows={data.bySource} />
      <Breakdown caption="By landing page" rows={data.byLanding} />
      <Breakdown caption="By state" rows={data.byState} />
    </ConsoleLayout>
  );
}
