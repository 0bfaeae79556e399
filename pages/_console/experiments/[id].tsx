/**
 * One experiment's results (engine/console/experiments.ts): per variant its visitors, conversions,
 * rate with its 95 % interval, lift over the control with its interval and the always-valid
 * p-value of the decision rule, revenue per visit once sales exist, over the overview's filters
 * (dates, campaign, source, device); the verdict, never a winner before the minimum sample; and,
 * for admins and editors of the brand, the forms that pause, resume or stop it with a winner
 * (each publishes a revision of the brand: engine/console/experimentActions.ts).
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, DateRangeFields, FilterSelect, buttonClass, inputClass, linkClass } from '../../../blocks/console/ConsoleLayout';
import { money, num, pct } from '../../../blocks/console/format';
import { getCatalog } from '../../../engine/site/catalog';
import { consolePage, ownKey, pageAddress, queryText, type ConsoleProps } from '../../../engine/console/pages';
import { DEVICE_CLASSES, overviewQuery } from '../../../engine/console/range';
import { zonedRange } from '../../../engine/console/periods';
import { findUser } from '../../../engine/store/console';
import {
  experimentRange,
  experimentResults,
  fixedShowing,
  listExperiments,
  METRIC_LABELS,
  stateOf,
  type ExperimentResults,
} from '../../../engine/console/experiments';
import type { Interval, Verdict } from '../../../engine/traffic/experimentStats';
import { DEFAULT_BURN_IN } from '../../../engine/traffic/bandit';
import { banditWeights } from '../../../engine/store/experimentWeights';
import { experimentPage, liveBrand, mayActOn } from '../../../engine/console/experimentActions';
import { EXPERIMENT_NOTES, FAILED_NOTES, type ExperimentNote, type ExperimentOp } from '../../../engine/console/experimentNotes';

export const config = { unstable_runtimeJS: false };

interface Found {
  id: string;
  brand: string;
  brands: string[];
  description: string;
  state: string;
  routes: string[];
  dates: string;
  /** `zone`: the operator's time zone, whose days `from` and `to` are */
  query: { from: string; to: string; zone: string; campaign: string; source: string; device: string; problem: string };
  results: ExperimentResults;
  /** the forms the viewer may post (none for a role that may not change the brand) */
  actions: { op: ExperimentOp; label: string; winner?: string }[];
  /** how new visitors are shared: the written weights, or the bandit's (with when it set them) */
  allocation: string;
  /** the weights in force by variant, when the bandit has set them */
  weights: Record<string, number> | null;
  /** while it assigns no one (paused, stopped, not started, ended): the variant every new visitor is shown, and how to say so */
  fixed: { variant: string; text: string } | null;
  /** how its run went: 'running' (the verdict may still change), 'paused', or 'over' (stopped or ended) */
  run: 'running' | 'paused' | 'over';
  /** the brand's live version the forms were drawn from */
  version: number;
  /** this page's own address (filters and all, no note), which the forms carry so their answer comes back here (engine/console/experimentActions.ts) */
  here: string | null;
  note: string;
  noteOk: boolean;
}
type Props = ConsoleProps<{ found: Found | null; id: string }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'overview.view', async (db, viewer) => {
    const id = queryText(ctx.query.id, 40);
    const all = listExperiments(getCatalog()).filter((l) => l.experiment.id === id);
    const listed = all.find((l) => l.brand === queryText(ctx.query.brand, 60)) ?? all[0];
    if (!listed) {
      ctx.res.statusCode = 404;
      return { found: null, id };
    }
    const text = (k: string) => queryText(ctx.query[k], 100);
    const e = listed.experiment;
    // the operator's days, as on the overview: visitors exposed from their midnight to their midnight
    const zone = (await findUser(db, viewer.email))?.time_zone || 'UTC';
    // the whole experiment unless other days are asked for (the verdict holds over every visitor since the start)
    const days = experimentRange({ from: text('from'), to: text('to') }, e, new Date(), zone);
    const q = {
      ...overviewQuery(
        { from: days.from, to: days.to, campaign: text('campaign'), source: text('source'), device: text('device') },
        new Set(),
        new Date(),
        zone,
      ),
      problem: days.problem,
    };
    const results = await experimentResults(db, listed, {
      fromDay: q.from,
      toDay: q.to,
      ...(zone === 'UTC' ? {} : { within: zonedRange(q.from, q.to, zone) }),
      ...(q.campaign ? { campaign: q.campaign } : {}),
      ...(q.source ? { source: q.source } : {}),
      ...(q.device ? { device: q.device } : {}),
    });
    // the actions act on the live document (what the form's version names), which the catalog follows within a poll
    const live = await liveBrand(db, listed.brand);
    const now = live?.document.experiments?.find((x) => x.id === e.id);
    const mayAct = !!now && (await mayActOn(db, viewer, listed.brand));
    const actions: Found['actions'] = !mayAct
      ? []
      : [
          ...(now.status === 'running' ? [{ op: 'pause' as const, label: 'Pause' }] : []),
          ...(now.status === 'paused' ? [{ op: 'resume' as const, label: 'Resume' }] : []),
          ...(now.status !== 'stopped' ? now.variants.map((v) => ({ op: 'stop' as const, label: `Stop with ${v.id} as the winner`, winner: v.id })) : []),
        ];
    const bandit = e.allocation === 'bandit' ? await banditWeights(db, listed.brand, e.id) : undefined;
    const allocation =
      e.allocation !== 'bandit'
        ? 'The written weights'
        : bandit
          ? `Bandit (Thompson sampling), weights set ${bandit.document.setAt.slice(0, 16).replace('T', ' ')} UTC; set again at most hourly`
          : `Bandit (Thompson sampling): the written weights until every variant has ${num(e.burnIn ?? DEFAULT_BURN_IN)} visitors`;
    const key = queryText(ctx.query.note, 20);
    const note = ownKey<ExperimentNote>(EXPERIMENT_NOTES, key);
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
        query: { from: q.from, to: q.to, zone, campaign: q.campaign, source: q.source, device: q.device, problem: q.problem },
        results,
        actions,
        allocation,
        weights: bandit?.document.weights ?? null,
        fixed: fixedShowing(e) ?? null,
        run: e.status === 'paused' ? 'paused' : e.status === 'stopped' || stateOf(e) === 'ended' ? 'over' : 'running',
        version: live?.version ?? 0,
        here: experimentPage(pageAddress(ctx), listed.brand, e.id) ?? null,
        note: note ? EXPERIMENT_NOTES[note] : '',
        noteOk: !!note && !FAILED_NOTES.includes(note),
      },
    };
  });

const range = (i: Interval, rate: boolean, currency: string) =>
  rate ? `${pct(i.low)} to ${pct(i.high)}` : `${money(i.low, currency)} to ${money(i.high, currency)}`;
const signed = (x: number) => `${x > 0 ? '+' : ''}${pct(x)}`;

function verdictText(v: Verdict, minimumSample: number, run: Found['run']): string {
  // once it is over, the result is what the run gave: nothing more will be counted
  if (run === 'over')
    switch (v.kind) {
      case 'collecting':
        return `It ended before a winner could be named: every variant needed ${num(minimumSample)} visitors (${num(v.needed)} more for the smallest).`;
      case 'winner':
        return `Over its run, ${v.variant} converted better than the control by the decision rule.`;
      case 'control':
        return 'Over its run, the control converted better than every other variant by the decision rule.';
      case 'noWinner':
        return 'No winner over its run: the differences stayed within what chance gives.';
    }
  switch (v.kind) {
    case 'collecting':
      return `Collecting: every variant needs ${num(minimumSample)} visitors before a winner can be named (${num(v.needed)} more for the smallest).`;
    case 'winner':
      return `${v.variant} converts better than the control by the decision rule.`;
    case 'control':
      return 'The control converts better than every other variant by the decision rule.';
    case 'noWinner':
      return `No winner yet: the differences are within what chance gives. ${run === 'paused' ? 'Resume it to count more visitors.' : 'Keep it running.'}`;
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
      {f.note && (
        <p
          role={f.noteOk ? 'status' : 'alert'}
          className={`mb-4 max-w-3xl rounded border p-2 ${f.noteOk ? 'border-green-700 bg-green-50' : 'border-amber-700 bg-amber-50'}`}
        >
          {f.note}
        </p>
      )}
      {f.description && <p className="mb-4">{f.description}</p>}
      <dl className="mb-4 grid grid-cols-1 gap-2 sm:grid-cols-3">
        {[
          ['Brand', f.brand],
          ['State', f.state],
          ['Pages', f.routes.join(', ')],
          ['Decided by', METRIC_LABELS[r.metric]],
          ['Minimum sample', `${num(r.minimumSample)} visitors a variant`],
          f.fixed ? ['New visitors', f.fixed.text] : ['New visitors shared by', f.allocation],
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
        {verdictText(r.verdict, r.minimumSample, f.run)}
      </p>
      <DataTable
        caption={`Variants, ${f.query.from} to ${f.query.to} (${f.query.zone})`}
        head={[
          'Variant',
          // the written weights share nobody while it assigns no one: say who is shown instead
          f.fixed ? 'Shown now to' : 'Weight',
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
          f.fixed ? (row.id === f.fixed.variant ? 'everyone' : 'no one') : `${f.weights?.[row.id] ?? row.weight} %`,
          num(row.sample.n),
          r.rate ? num(row.sample.sum) : money(row.sample.sum, r.currency),
          // a variant nobody has seen yet has no rate: "0 % (0 % to 0 %)" would read as a certain 0 %
          row.sample.n ? `${r.rate ? pct(row.mean) : money(row.mean, r.currency)} (${range(row.interval, r.rate, r.currency)})` : '—',
          i === 0 ? '—' : row.lift ? `${signed(row.lift.lift)} (${signed(row.lift.interval.low)} to ${signed(row.lift.interval.high)})` : 'not yet',
          i === 0 || row.p === undefined || !row.sample.n || !r.rows[0]!.sample.n ? '—' : row.p < 0.001 ? '< 0.001' : row.p.toFixed(3),
          ...(r.hasSales && r.metric !== 'revenuePerVisit' ? [money(row.revenuePerVisitCents, r.currency)] : []),
        ])}
      />
      <p className="mb-6 text-sm">
        The rule (a sequential test, mSPRT) may be read every day: a variant is called better or worse only when its always-valid p is at most 5 % divided among
        the variants compared, and no winner is named before every variant has its minimum sample.
      </p>
      {f.actions.length > 0 && (
        <section aria-labelledby="actions" className="mb-6">
          <h2 id="actions" className="mb-2 text-xl font-semibold">
            Actions
          </h2>
          <p className="mb-2 max-w-3xl">
            Each action publishes a new version of the brand at once, on every instance. Pausing shows everyone the control and keeps assignments for a resume;
            stopping with a winner makes that variant the page itself for every visitor, whatever variant they were shown before.
          </p>
          <ul className="flex flex-wrap gap-3">
            {f.actions.map((a) => (
              <li key={a.label}>
                <form method="post" action="/api/console/experiments">
                  <input type="hidden" name="csrf" value={props.viewer.csrf} />
                  <input type="hidden" name="brand" value={f.brand} />
                  <input type="hidden" name="experiment" value={f.id} />
                  <input type="hidden" name="version" value={String(f.version)} />
                  {f.here && <input type="hidden" name="next" value={f.here} />}
                  <input type="hidden" name="op" value={a.op} />
                  {a.winner && <input type="hidden" name="winner" value={a.winner} />}
                  <button type="submit" className={buttonClass}>
                    {a.label}
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </section>
      )}
    </ConsoleLayout>
  );
}
