/**
 * One buyer in the console: its record (a daily trend, acceptance and return rates, response time
 * p50/p95, the last errors: engine/console/buyerDetail.ts) and, for a role that may manage buyers,
 * the form that pauses or resumes it and changes its caps, price, schedule and filters
 * (engine/console/buyerForm.ts). The form posts to this page (no script): a change is checked as
 * `npm run validate` checks a file — each message at its field and all of them on top — and saved
 * as an audited revision that every server applies within seconds; then 303 back here.
 */
import type { GetServerSideProps } from 'next';
import type { ReactNode } from 'react';
import { ConsoleLayout, DataTable, buttonClass, inputClass, linkClass } from '../../../blocks/console/ConsoleLayout';
import { money, num, pct, when } from '../../../blocks/console/format';
import { buyerDetail, DAYS_SHOWN, type BuyerDetail } from '../../../engine/console/buyerDetail';
import { buyerBase, saveBuyerForm } from '../../../engine/console/buyerForm';
import { DAYS, fieldOfPointer, formValuesOf, type FormValues } from '../../../engine/console/buyerFormFields';
import { consolePage, queryText, type ConsoleProps } from '../../../engine/console/pages';
import { readConsoleForm } from '../../../engine/console/forms';
import { ApiError } from '../../../engine/http/api';
import { applyRevision, BUYER_KIND, buyerRevision } from '../../../engine/sale/buyerRevisions';
import { revisionsReady } from '../../../engine/store/liveRevisions';
import { operatorView } from '../../../engine/console/operatorMoney';
import { ratesNote } from '../../../engine/traffic/currency';

export const config = { unstable_runtimeJS: false };

interface Data {
  id: string;
  found: boolean;
  displayName: string;
  paused: boolean;
  source: string;
  revision: { version: number; author: string; savedAt: string } | null;
  fileChanged: boolean;
  version: number;
  values: FormValues | null;
  fieldErrors: Record<string, string[]>;
  problems: string[];
  notice: string;
  alert: boolean;
  detail: BuyerDetail | null;
  daysShown: number;
  canManage: boolean;
  redirectTo: string | null;
}
type Props = ConsoleProps<Data>;

const empty = (id: string): Data => ({
  id,
  found: false,
  displayName: '',
  paused: false,
  source: '',
  revision: null,
  fileChanged: false,
  version: 0,
  values: null,
  fieldErrors: {},
  problems: [],
  notice: '',
  alert: false,
  detail: null,
  daysShown: DAYS_SHOWN,
  canManage: false,
  redirectTo: null,
});

export const getServerSideProps: GetServerSideProps<Props> = async (ctx) => {
  const id = queryText(ctx.params?.id, 64);
  const result = await consolePage(ctx, 'buyers.view', async (db, viewer): Promise<Data> => {
    await revisionsReady(BUYER_KIND);
    const data = empty(id);
    const base = buyerBase(id);
    if (!base) {
      ctx.res.statusCode = 404;
      return data;
    }
    data.canManage = viewer.may.includes('buyers.manage');
    if (ctx.req.method === 'POST') {
      const refuse = (status: number, message: string) => ((ctx.res.statusCode = status), (data.notice = message), (data.alert = true));
      if (!data.canManage) refuse(403, `Your role (${viewer.role}) may not change buyers.`);
      else {
        let form: Record<string, string> | undefined;
        try {
          form = await readConsoleForm(ctx.req);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          refuse(err.status, err.message);
        }
        const outcome = form && (await saveBuyerForm(db, { id, form, author: viewer.email, csrf: viewer.csrf }));
        if (outcome && 'saved' in outcome) return { ...data, redirectTo: `/buyers/${id}?saved=${outcome.saved.version}` };
        if (outcome && 'refused' in outcome) refuse(outcome.refused, outcome.message);
        if (outcome && 'conflict' in outcome) {
          refuse(409, outcome.conflict);
          data.values = outcome.values;
        }
        if (outcome && 'problems' in outcome) {
          ctx.res.statusCode = 422;
          data.values = outcome.values;
          data.alert = true;
          data.notice = 'Nothing was saved: correct the fields below.';
          data.problems = outcome.problems.map((p) => `${p.pointer || '/'}: ${p.message}`);
          for (const p of outcome.problems) {
            const field = fieldOfPointer(p.pointer);
            if (field) (data.fieldErrors[field] ??= []).push(p.message);
          }
        }
      }
    }
    const revision = buyerRevision(id);
    const live = applyRevision(base.file, revision);
    const saved = queryText(ctx.query.saved, 12);
    if (saved && !data.notice) data.notice = `Saved as version ${saved}. Every server applies it within 5 seconds.`;
    // the trend counts the operator's days, as the overview and the buyers list do
    const operator = await operatorView(db, viewer.email);
    return {
      ...data,
      found: true,
      displayName: live.displayName,
      paused: live.enabled === false,
      source: base.source,
      revision: revision ? { version: revision.version, author: revision.author, savedAt: revision.savedAt } : null,
      fileChanged: !!revision && revision.baseHash !== base.hash,
      version: revision?.version ?? 0,
      values: data.canManage ? (data.values ?? formValuesOf(live)) : null,
      detail: await buyerDetail(db, id, new Date(), operator.money, operator.zone),
    };
  });
  if ('props' in result) {
    const props = await result.props;
    if (!props.forbidden && props.redirectTo) return { redirect: { destination: props.redirectTo, statusCode: 303 } };
  }
  return result;
};

function Field(props: {
  name: string;
  label: string;
  hint?: string;
  errors: Record<string, string[]>;
  children: (attrs: Record<string, string | boolean | undefined>) => ReactNode;
}) {
  const errors = props.errors[props.name] ?? [];
  const describedBy = [props.hint ? `${props.name}-hint` : '', errors.length ? `${props.name}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={props.name} className="font-semibold">
        {props.label}
      </label>
      {props.hint && (
        <p id={`${props.name}-hint`} className="text-sm text-slate-700">
          {props.hint}
        </p>
      )}
      {props.children({ id: props.name, name: props.name, 'aria-describedby': describedBy, 'aria-invalid': errors.length ? true : undefined })}
      {errors.length > 0 && (
        <p id={`${props.name}-error`} className="text-sm font-semibold text-red-800">
          {errors.join('; ')}
        </p>
      )}
    </div>
  );
}

function BuyerForm(props: { id: string; csrf: string; version: number; values: FormValues; errors: Record<string, string[]> }) {
  const { values: v, errors } = props;
  const text = (name: keyof FormValues, label: string, hint?: string, inputMode?: 'numeric' | 'decimal') => (
    <Field name={name} label={label} hint={hint} errors={errors}>
      {(attrs) => <input {...attrs} type="text" inputMode={inputMode} defaultValue={v[name] as string} className={inputClass} />}
    </Field>
  );
  return (
    <form method="post" action={`/buyers/${props.id}`} className="flex max-w-2xl flex-col gap-5" noValidate>
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="version" value={props.version} />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-lg font-bold">Status</legend>
        {(
          [
            ['active', 'Active: offered leads'],
            ['paused', 'Paused: offered nothing'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex min-h-10 items-center gap-2">
            <input type="radio" name="status" value={value} defaultChecked={v.status === value} className="h-5 w-5" />
            {label}
          </label>
        ))}
        {errors.status && <p className="text-sm font-semibold text-red-800">{errors.status.join('; ')}</p>}
      </fieldset>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-lg font-bold">Caps (leads sold; empty: no cap)</legend>
        {text('capsPerDay', 'Leads per day', undefined, 'numeric')}
        {text('capsPerMonth', 'Leads per month', undefined, 'numeric')}
      </fieldset>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 text-lg font-bold">Price in US dollars</legend>
        {text('priceFloor', 'Floor', 'Lower bids are not posted to.', 'decimal')}
        {text('priceFixed', 'Fixed price', 'Empty: the bid decides.', 'decimal')}
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-lg font-bold">Schedule (all empty: always)</legend>
        {text('timeZone', 'Time zone', 'An IANA time zone, e.g. America/Chicago; caps are counted in it too.')}
        <div className="grid gap-3 sm:grid-cols-2">
          {text('from', 'Opens at', 'HH:MM, e.g. 08:00')}
          {text('to', 'Closes at', 'HH:MM, e.g. 20:00')}
        </div>
        <fieldset aria-describedby={errors.days ? 'days-error' : undefined}>
          <legend className="font-semibold">Days (none ticked: every day)</legend>
          <div className="flex flex-wrap gap-x-4">
            {DAYS.map((d) => (
              <label key={d} className="flex min-h-10 items-center gap-2">
                <input type="checkbox" name={`day-${d}`} defaultChecked={v.days.includes(d)} className="h-5 w-5" />
                {d}
              </label>
            ))}
          </div>
          {errors.days && (
            <p id="days-error" className="text-sm font-semibold text-red-800">
              {errors.days.join('; ')}
            </p>
          )}
        </fieldset>
      </fieldset>
      <Field
        name="filters"
        label="Filters (JSON)"
        hint='As in the buyer file, e.g. {"states": ["TX"], "amount": {"max": 3000}}; empty: every lead.'
        errors={errors}
      >
        {(attrs) => <textarea {...attrs} rows={8} defaultValue={v.filters} className={`${inputClass} font-mono`} />}
      </Field>
      <p className="text-sm text-slate-700">Endpoints and the secret are set in the buyer&apos;s file and the server&apos;s environment, not here.</p>
      <div>
        <button type="submit" className={buttonClass}>
          Save
        </button>
      </div>
    </form>
  );
}

export default function BuyerPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Buyer" viewer={props.viewer} forbidden />;
  if (!props.found)
    return (
      <ConsoleLayout title="No such buyer" viewer={props.viewer} current="/buyers">
        <p>
          There is no buyer &ldquo;{props.id}&rdquo;.{' '}
          <a href="/buyers" className={linkClass}>
            All buyers
          </a>
        </p>
      </ConsoleLayout>
    );
  const d = props.detail!;
  return (
    <ConsoleLayout title={`${props.displayName} (${props.id})`} viewer={props.viewer} current="/buyers">
      {props.notice && (
        <div
          role={props.alert ? 'alert' : 'status'}
          className={`mb-4 rounded border p-2 ${props.alert ? 'border-red-700 bg-red-50' : 'border-slate-400 bg-slate-50'}`}
        >
          <p>{props.notice}</p>
          {props.problems.length > 0 && (
            <ul className="ml-5 list-disc">
              {props.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <p className="mb-1">
        <strong>{props.paused ? 'Paused' : 'Active'}</strong>. From {props.source}
        {props.revision
          ? `, with console changes: version ${props.revision.version} by ${props.revision.author}, ${when(props.revision.savedAt)}.`
          : '; no console changes.'}
      </p>
      {props.fileChanged && (
        <p className="mb-2 rounded border border-amber-700 bg-amber-50 p-2">
          The buyer file changed since this version was saved. The console&apos;s status, caps, price, schedule and filters still apply; its other fields come
          from the file.
        </p>
      )}
      <h2 className="mt-6 mb-2 text-xl font-bold">
        Last {props.daysShown} days ({d.zone})
      </h2>
      <ul className="mb-3">
        <li>{`Acceptance rate: ${pct(d.acceptRate)} (${num(d.accepted)} of ${num(d.posts)} posts answered)`}</li>
        <li>{`Interrupted (ours): ${num(d.interrupted)} pings and posts whose answer was never recorded because our sale stopped while they were out; counted in no rate`}</li>
        <li>{`Return rate: ${pct(d.returnRate)} (${num(d.returns)} of ${num(d.wins)} wins)`}</li>
        <li>{`Response time: p50 ${d.p50Ms === null ? '—' : `${num(d.p50Ms)} ms`}, p95 ${d.p95Ms === null ? '—' : `${num(d.p95Ms)} ms`}`}</li>
      </ul>
      <p className="mb-3">
        Revenue: the prices of the sales won on the day, less those given back by the returns made on it. Amounts in {d.currency}.
        {d.currencies.length > 0 && (
          <>
            {' '}
            <span data-testid="rates">{ratesNote(d.currencies, d.currency, money)}</span>
          </>
        )}
      </p>
      <DataTable
        caption="Daily trend"
        head={['Day', 'Pings', 'Bids', 'Wins', 'Revenue', 'Returns']}
        numeric={[false, true, true, true, true, true]}
        rows={d.days.map((r) => [r.day, num(r.pings), num(r.bids), num(r.wins), money(r.revenueCents, d.currency), num(r.returns)])}
      />
      <h2 className="mt-6 mb-2 text-xl font-bold">Last errors</h2>
      {d.errors.length ? (
        <DataTable
          caption="Refused or unconfirmed posts, failed pings"
          head={['When', 'Step', 'Outcome', 'Detail']}
          rows={d.errors.map((e) => [when(e.at), e.step, e.outcome, e.detail])}
        />
      ) : (
        <p>None.</p>
      )}
      <h2 className="mt-6 mb-2 text-xl font-bold">Change this buyer</h2>
      {props.values ? (
        <BuyerForm id={props.id} csrf={props.viewer.csrf} version={props.version} values={props.values} errors={props.fieldErrors} />
      ) : (
        <p>Your role ({props.viewer.role}) may see this buyer but not change it.</p>
      )}
    </ConsoleLayout>
  );
}
