/**
 * One experiment's results (engine/console/experiments.ts): per variant its visitors, conversions,
 * rate with its 95 % interval, lift over the control with its interval and the always-valid
 * p-value of the decision rule, revenue per visit once sales exist, over the overview's filters
 * (dates, campaign, source, device); the verdict, never a winner before the minimum sample; and
 * the change to make in the brand's JSON to pause the experiment or stop it with a winner.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, DateRangeFields, FilterSelect, buttonClass, inputClass, linkClass } from '../../../blocks/console/ConsoleLayout';
import { money, num, pct } from '../../../blocks/console/format';
import { getCatalog } from '../../../engine/site/catalog';
import { consolePage, queryText, type ConsoleProps } from '../../../engine/console/pages';
import { DEVICE_CLASSES, overviewQuery } from '../../../engine/console/range';
import { actionChange, experimentResults, listExperiments, METRIC_LABELS, stateOf, type ExperimentResults } from '../../../engine/console/experiments';
import type { Interval, Verdict } from '../../../engine/traffic/experimentStats';

export const config = { unstable_runtimeJS: false };

interface Found {
  id: string;
  brand: string;
  brands: string[];
  description: string;
  state: string;
  routes: string[];
  dates: string;
  query: { from: string; to: string; campaign: string; source: string; device: string; problem: string };
  results: ExperimentResults;
  actions: { label: string; file: string; pointer: string; json: string }[];
}
type Props = ConsoleProps<{ found: Found | null; id: string }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'overview.view', async (db) => {
    const id = queryText(ctx.query.id, 40);
    const all = listExperiments(getCatalog()).filter((l) => l.experiment.id === id);
    const listed = all.find((l) => l.brand === queryText(ctx.query.brand, 60)) ?? all[0];
    if (!listed) {
      ctx.res.statusCode = 404;
      return { found: null, id };
    }
    const text = (k: string) => queryText(ctx.query[k], 100);
    const q = overviewQuery({ from: text('from'), to: text('to'), campaign: text('campaign'), source: text('source'), device: text('device') }, new Set());
    const e = listed.experiment;
    const results = await experimentResults(db, listed, {
      fromDay: q.from,
      toDay: q.to,
      ...(q.campaign ? { campaign: q.campaign } : {}),
      ...(q.source ? { source: q.source } : {}),
      ...(q.device ? { device: q.device } : {}),
    });
    const actions = [
      ...(e.status === 'running' ? [{ label: 'Pause (everyone sees the control; assignments are kept)', ...actionChange(listed, { kind: 'pause' }) }] : []),
      ...(e.status === 'paused' ? [{ label: 'Resume', ...actionChange(listed, { kind: 'resume' }) }] : []),
      ...(e.status !== 'stopped'
        ? e.variants.map((v) => ({ label: `Stop with ${v.id} as the winner (everyone sees it)`, ...actionChange(listed, { kind: 'stop', winner: v.id }) }))
        : []),
    ];
    return {
      id,
      found: {
        id,
        brand: listed.brand,
        brands: all.map((l) => l.brand),
        description: e.description ?? '',
        state: stateOf(e),
        routes: e.routes,
        dates: `${e.start}${e.end ? ` to ${e.end}` : ''}`,
        query: { from: q.from, to: q.to, campaign: q.campaign, source: q.source, device: q.device, problem: q.problem },
        results,
        actions,
      },
    };
  });

const range = (i: Interval, rate: boolean) => (rate ? `${pct(i.low)} to ${pct(i.high)}` : `${money(i.low)} to ${money(i.high)}`);
const signed = (x: number) => `${x > 0 ? '+' : ''}${pct(x)}`;

function verdictText(v: Verdict, minimumSample: number): string {
  switch (v.kind) {
    case 'collecting':
      return `Collecting: every variant needs ${num(minimumSample)} visitors before a winner can be named (${num(v.needed)} more for the smallest).`;
    case 'winner':
      return `${v.variant} converts better than the control by the decision rule.`;
    case 'control':
      return 'The control converts better than every other variant by the decision rule.';
    case 'noWinner':
      return 'No winner yet: the differences are within what chance gives. Keep it running.';
  }
}

export default function ExperimentPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Experiment" viewer={props.viewer} forbidden />;
  const f = props.found;
  if (!f)
    return (
      <ConsoleLayout title="Experiment not found" viewer={props.viewer} current="/experiments">
        <p>
          No brand has an experiment “{props.id}”.{' '}
          <a href="/experiments" className={linkClass}>
            All experiments
          </a>
        </p>
      </ConsoleLayout>
    );
  const r = f.results;
  return (
    <ConsoleLayout title={`Experiment ${f.id}`} viewer={props.viewer} current="/experiments">
      {f.description && <p className="mb-4">{f.description}</p>}
      <dl className="mb-4 grid grid-cols-1 gap-2 sm:grid-cols-3">
        {[
          ['Brand', f.brand],
          ['State', f.state],
          ['Pages', f.routes.join(', ')],
          ['Decided by', METRIC_LABELS[r.metric]],
          ['Minimum sample', `${num(r.minimumSample)} visitors a variant`],
          ['From', f.dates],
        ].map(([k, v]) => (
          <div key={k} className="rounded border border-slate-300 p-2">
            <dt className="text-sm text-slate-700">{k}</dt>
            <dd className="font-semibold">{v}</dd>
          </div>
        ))}
      </dl>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filters">
        {f.brands.length > 1 && <input type="hidden" name="brand" value={f.brand} />}
        <DateRangeFields from={f.query.from} to={f.query.to} />
        <label className="flex flex-col text-sm">
          Campaign
          <input type="text" name="campaign" defaultValue={f.query.campaign} className={inputClass} />
        </label>
        <label className="flex flex-col text-sm">
          Source
          <input type="text" name="source" defaultValue={f.query.source} className={inputClass} />
        </label>
        <FilterSelect label="Device" name="device" value={f.query.device} all="All devices" options={DEVICE_CLASSES} />
        <button type="submit" className={buttonClass}>
          Show
        </button>
      </form>
      {f.query.problem && (
        <p role="alert" className="mb-4 rounded border border-amber-700 bg-amber-50 p-2">
          {f.query.problem}
        </p>
      )}
      <p role="status" className="mb-4 rounded border border-slate-400 bg-slate-50 p-2 font-semibold" data-testid="verdict">
        {verdictText(r.verdict, r.minimumSample)}
      </p>
      <DataTable
        caption={`Variants, ${f.query.from} to ${f.query.to} (UTC)`}
        head={[
          'Variant',
          'Weight',
          'Visitors',
          r.rate ? 'Conversions' : 'Revenue',
          r.rate ? 'Rate (95 % interval)' : 'Per visit (95 % interval)',
          'Lift over control (95 % interval)',
          'Always-valid p',
          ...(r.hasSales && r.metric !== 'revenuePerVisit' ? ['Revenue per visit'] : []),
        ]}
        numeric={[false, true, true, true, true, true, true, true]}
        rows={r.rows.map((row, i) => [
          i === 0 ? `${row.id} (control)` : row.id,
          `${row.weight} %`,
          num(row.sample.n),
          r.rate ? num(row.sample.sum) : money(row.sample.sum),
          `${r.rate ? pct(row.mean) : money(row.mean)} (${range(row.interval, r.rate)})`,
          i === 0 ? '—' : row.lift ? `${signed(row.lift.lift)} (${signed(row.lift.interval.low)} to ${signed(row.lift.interval.high)})` : 'not yet',
          i === 0 || row.p === undefined ? '—' : row.p < 0.001 ? '< 0.001' : row.p.toFixed(3),
          ...(r.hasSales && r.metric !== 'revenuePerVisit' ? [money(row.revenuePerVisitCents)] : []),
        ])}
      />
      <p className="mb-6 text-sm">
        The rule (a sequential test, mSPRT) may be read every day: a variant is called better or worse only when its always-valid p is at most 5 % divided among
        the variants compared, and no winner is named before every variant has its minimum sample.
      </p>
      {f.actions.length > 0 && (
        <>
          <h2 className="mb-2 text-xl font-semibold">Actions</h2>
          <p className="mb-2">
            Set these members of the experiment in <code>{f.actions[0]!.file}</code> at <code>{f.actions[0]!.pointer}</code>, then validate and publish the
            brand.
          </p>
          <ul className="mb-6 flex flex-col gap-3">
            {f.actions.map((a) => (
              <li key={a.label}>
                <p className="font-semibold">{a.label}</p>
                <pre className="overflow-x-auto rounded border border-slate-300 bg-slate-50 p-2 text-sm">{a.json}</pre>
              </li>
            ))}
          </ul>
        </>
      )}
    </ConsoleLayout>
  );
}
