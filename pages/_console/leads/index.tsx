/**
 * The console's leads: filtered by date range, brand, status, buyer, campaign, source and state,
 * found by lead id, email or phone (by their start only for a role that sees them unmasked;
 * engine/console/leadFilter.ts), sorted by time or amount, paged by keyset. One plain GET form
 * (the console runs no script); a wrong value is said on the page and nothing is read. An admin
 * downloads exactly these rows as CSV. Personal data masked by role (engine/console/masking.ts);
 * a viewer may not open this page (403).
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, DateRangeFields, Options, buttonClass, inputClass, linkClass, said } from '../../../blocks/console/ConsoleLayout';
import { money, when } from '../../../blocks/console/format';
import { getCatalog } from '../../../engine/site/catalog';
import { listLeadsPage, type LeadRow } from '../../../engine/console/leadQueries';
import { LEAD_FORM_FIELDS, LEAD_STATUSES, LEADS_PAGE_MAX, leadListHref, leadListQuery, type LeadFormField } from '../../../engine/console/leadFilter';
import { consolePage, queryText, type ConsoleProps } from '../../../engine/console/pages';
import { EXPORT_TOO_MANY } from '../../../engine/console/exportRoute';
import { may } from '../../../engine/console/roles';
import { VISIT_VALUE_MAX } from '../../../engine/store/trafficRules';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{
  rows: LeadRow[];
  next: string;
  prev: string;
  form: Record<LeadFormField, string>;
  problems: string[];
  brands: string[];
  /** the export of these rows was refused: more than EXPORT_MAX (`?export=too_many`, where the export sends the browser back) */
  exportRefused?: string;
}>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'leads.list', async (db, viewer) => {
    const brands = [...getCatalog().brands.keys()].sort();
    const raw = Object.fromEntries([...LEAD_FORM_FIELDS, 'after', 'before'].map((k) => [k, queryText(ctx.query[k], VISIT_VALUE_MAX)]));
    const query = leadListQuery(raw, new Set(brands), viewer.role);
    const page = query.problems.length ? { rows: [] } : await listLeadsPage(db, viewer.role, query);
    const exportRefused = queryText(ctx.query.export) === 'too_many' && may(viewer.role, 'exports.run') ? EXPORT_TOO_MANY.list : '';
    return { rows: page.rows, next: page.next ?? '', prev: page.prev ?? '', form: query.form, problems: query.problems, brands, exportRefused };
  });

const field = 'flex flex-col text-sm';
const TEXT_FIELDS: [name: LeadFormField, label: string, size: number][] = [
  ['buyer', 'Buyer', 12],
  ['campaign', 'Campaign', 14],
  ['source', 'Source', 12],
  ['state', 'State', 4],
];

export default function LeadsPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Leads" viewer={props.viewer} forbidden />;
  const { rows, next, prev, form, problems, brands } = props;
  const plain = props.viewer.role === 'admin';
  const sortHref = (sort: string) => leadListHref({ ...form, sort, dir: form.sort === sort && form.dir !== 'asc' ? 'asc' : 'desc' });
  return (
    <ConsoleLayout title="Leads" viewer={props.viewer} current="/leads">
      <form method="get" action="/leads" className="mb-4 flex flex-wrap items-end gap-3">
        <label className={field}>
          {plain ? 'Lead id, or the start of an email or phone' : 'Lead id, or a whole email or phone'}
          <input type="search" name="q" defaultValue={form.q} className={inputClass} />
        </label>
        <DateRangeFields from={form.from} to={form.to} />
        <label className={field}>
          Brand
          <select name="brand" defaultValue={form.brand} className={inputClass}>
            <option value="">All brands</option>
            <Options values={brands} />
          </select>
        </label>
        <label className={field}>
          Status
          <select name="status" defaultValue={form.status} className={inputClass}>
            <option value="">Any status</option>
            <Options values={LEAD_STATUSES} />
          </select>
        </label>
        {TEXT_FIELDS.map(([name, label, size]) => (
          <label key={name} className={field}>
            {label}
            <input name={name} defaultValue={form[name]} className={inputClass} size={size} />
          </label>
        ))}
        <label className={field}>
          Sort by
          <select name="sort" defaultValue={form.sort || 'created'} className={inputClass}>
            <option value="created">Stored</option>
            <option value="amount">Amount</option>
          </select>
        </label>
        <label className={field}>
          Order
          <select name="dir" defaultValue={form.dir || 'desc'} className={inputClass}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
        <label className={field}>
          {`Per page (up to ${LEADS_PAGE_MAX})`}
          <input name="size" inputMode="numeric" defaultValue={form.size || '50'} className={inputClass} size={4} />
        </label>
        <button type="submit" className={buttonClass}>
          Find
        </button>
        <a href="/leads" className={`${linkClass} min-h-11`}>
          Clear the filter
        </a>
      </form>
      {problems.length > 0 && (
        <div role="alert" className="mb-4 rounded border border-amber-700 bg-amber-50 p-2">
          {problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
      )}
      <DataTable
        caption={`Leads, ${form.sort === 'amount' ? 'by amount' : 'by time stored'}, ${form.dir === 'asc' ? 'ascending' : 'descending'}`}
        head={['Lead', 'Stored', 'Brand', 'Name', 'Email', 'Phone', 'State', 'Amount', 'Sale', 'Buyer', 'Price']}
        numeric={[false, false, false, false, false, false, false, true, false, false, true]}
        sort={{
          hrefs: ['', sortHref('created'), '', '', '', '', '', sortHref('amount'), '', '', ''],
          active: form.sort === 'amount' ? 7 : 1,
          dir: form.dir === 'asc' ? 'asc' : 'desc',
          only: [1, 7],
        }}
        rows={rows.map((r) => [
          <a key="id" href={`/leads/${r.id}`} className={linkClass}>
            {r.id}
          </a>,
          when(r.created_at),
          r.brand,
          said`${r.first_name} ${r.last_name}`,
          r.email,
          r.phone,
          r.region,
          money(r.amount * 100, r.currency),
          r.status,
          r.buyer_id ?? '',
          money(r.price_cents),
        ])}
      />
      <nav aria-label="Pages of leads" className="mb-6 flex flex-wrap gap-4">
        {prev && (
          <a href={leadListHref(form, { before: prev })} className={`${linkClass} min-h-11`}>
            Previous page
          </a>
        )}
        {next && (
          <a href={leadListHref(form, { after: next })} className={`${linkClass} min-h-11`}>
            Next page
          </a>
        )}
      </nav>
      {props.exportRefused && (
        <div role="alert" className="mb-4 max-w-2xl rounded border border-slate-500 p-3">
          <p className="font-semibold">Nothing was exported</p>
          <p>{props.exportRefused}</p>
        </div>
      )}
      {props.viewer.may.includes('exports.run') && problems.length === 0 && (
        <form method="post" action="/api/console/export" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="csrf" value={props.viewer.csrf} />
          <input type="hidden" name="kind" value="leads" />
          {/* a refusal comes back to this list, filter kept, rather than to the Exports page */}
          <input type="hidden" name="back" value="leads" />
          {(['from', 'to', 'brand', 'status', 'buyer', 'campaign', 'source', 'state', 'q'] as const).map((k) =>
            form[k] ? <input key={k} type="hidden" name={k} value={form[k]} /> : null,
          )}
          <button type="submit" className={buttonClass}>
            Download these leads (CSV)
          </button>
        </form>
      )}
    </ConsoleLayout>
  );
}
