/**
 * The console's exports (admin): the leads of a date range, and the Google Ads offline conversions
 * of the leads sold in it, as spreadsheet-safe CSVs, posted with the session's CSRF token and
 * audited. Each is one response the browser saves as it arrives (its own download progress); the
 * size is capped (EXPORT_MAX rows) so no export runs for long.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DateRangeFields, buttonClass, inputClass } from '../../blocks/console/ConsoleLayout';
import { getCatalog } from '../../engine/site/catalog';
import { EXPORT_MAX } from '../../engine/console/adminQueries';
import { consolePage, queryText, type ConsoleProps } from '../../engine/console/pages';
import { costUploadResult, type UploadChoices } from '../../engine/console/costUpload';
import { COST_SOURCES, DAY_ORDERS } from '../../engine/traffic/costCsv';
import { visibleText } from '../../engine/browser/safeText';
import { overviewQuery } from '../../engine/console/range';
import { EXPORT_TOO_MANY, exportRangeProblem, type ExportForm } from '../../engine/console/exportRoute';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{
  from: string;
  to: string;
  brands: string[];
  /** the result of the cost upload just made, and what its form chose */ costs: { ok: boolean; lines: string[]; chose?: UploadChoices } | null;
  /** an export refused for its range or brand, or for holding too many rows: which form, what it posted, and why */
  refused: (ExportForm & { problem: string }) | null;
}>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'exports.run', async (db, viewer) => {
    const { from, to } = overviewQuery({}, new Set());
    const upload = queryText(ctx.query.costs);
    const costs = upload ? ((await costUploadResult(db, upload, viewer.email)) ?? null) : null;
    const brands = [...getCatalog().brands.keys()].sort();
    const kind = queryText(ctx.query.refused);
    const posted = { from: queryText(ctx.query.from), to: queryText(ctx.query.to), brand: queryText(ctx.query.brand) };
    const known = kind === 'leads' || kind === 'google-ads';
    // the range's own problem first; a range it let through that held too many rows says so (too=many)
    const problem = known
      ? exportRangeProblem({ kind, ...posted }, new Set(brands), viewer.role) || (queryText(ctx.query.too) === 'many' ? EXPORT_TOO_MANY[kind] : '')
      : '';
    return { from, to, brands, costs, refused: problem ? { kind: kind as ExportForm['kind'], ...posted, problem } : null };
  });

/** An export refused for what its form posted: said above that form, which keeps what was typed. */
function Refused({ problem }: { problem: string }) {
  return (
    <div role="alert" className="mb-4 max-w-2xl rounded border border-slate-500 p-3">
      <p className="font-semibold">Nothing was exported</p>
      <p>{problem}</p>
    </div>
  );
}

/** The cost form's choices: the last upload's where they are still choices the form offers, else its defaults. */
function uploadChoices(last: UploadChoices | undefined): { source: string; currency: string; dayOrder: string } {
  return {
    source: last?.source && (COST_SOURCES as readonly string[]).includes(last.source) ? last.source : 'google',
    currency: last?.currency && /^[A-Za-z]{3}$/.test(last.currency) ? last.currency.toUpperCase() : 'USD',
    dayOrder: last?.dayOrder && (DAY_ORDERS as readonly string[]).includes(last.dayOrder) ? last.dayOrder : 'month-first',
  };
}

export default function ExportsPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Exports" viewer={props.viewer} forbidden />;
  const refused = props.refused;
  const typed = (kind: ExportForm['kind']) => (refused?.kind === kind ? refused : { from: props.from, to: props.to, brand: '' });
  // after an upload the form chooses what it chose then: a file refused for its slash days is sent again read the other way
  const chose = uploadChoices(props.costs?.chose);
  return (
    <ConsoleLayout title="Exports" viewer={props.viewer} current="/exports">
      {props.costs && (
        <div role={props.costs.ok ? 'status' : 'alert'} className="mb-6 rounded border border-slate-500 p-3">
          <p className="font-semibold">{props.costs.ok ? 'Cost report imported' : 'Cost report refused: nothing was imported'}</p>
          <ul className="list-disc pl-5">
            {props.costs.lines.map((l, i) => (
              <li key={i}>{visibleText(l)}</li>
            ))}
          </ul>
        </div>
      )}
      <h2 id="leads-export" className="mb-2 text-xl font-semibold">
        Leads (CSV)
      </h2>
      <p className="mb-4 max-w-2xl">
        {`One line a lead made in the range (when the borrower sent the form), with its personal data, source and sale, whenever the sale was decided: the overview and the buyers page count a sale on the day it was decided. Cells a spreadsheet would run as a formula start with an apostrophe. At most ${EXPORT_MAX.toLocaleString('en-US')} leads at once; every export is recorded in the audit log.`}
      </p>
      {refused?.kind === 'leads' && <Refused problem={refused.problem} />}
      <form method="post" action="/api/console/export" aria-labelledby="leads-export" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <DateRangeFields from={typed('leads').from} to={typed('leads').to} required />
        <label className="flex flex-col text-sm">
          Brand
          <select name="brand" defaultValue={props.brands.includes(typed('leads').brand) ? typed('leads').brand : ''} className={inputClass}>
            <option value="">All brands</option>
            {props.brands.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          Download leads CSV
        </button>
      </form>
      <h2 id="conversions-export" className="mt-8 mb-2 text-xl font-semibold">
        Google Ads offline conversions
      </h2>
      <p className="mb-4 max-w-2xl">
        The leads sold in the range with a Google click id, in Google Ads’ upload format (Google Click ID, Conversion Name, Conversion Time, Conversion Value,
        Conversion Currency). Test leads, returned leads and visitors who opted out of sale and sharing are left out.
      </p>
      {refused?.kind === 'google-ads' && <Refused problem={refused.problem} />}
      <form method="post" action="/api/console/export" aria-labelledby="conversions-export" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <input type="hidden" name="kind" value="google-ads" />
        <DateRangeFields from={typed('google-ads').from} to={typed('google-ads').to} required />
        <label className="flex flex-col text-sm">
          Conversion name
          <input type="text" name="name" defaultValue="Loan request sold" maxLength={100} className={inputClass} />
        </label>
        <button type="submit" className={buttonClass}>
          Download conversions CSV
        </button>
      </form>
      <h2 id="costs-upload" className="mt-8 mb-2 text-xl font-semibold">
        Ad costs (CSV upload)
      </h2>
      <p className="mb-4 max-w-2xl">
        A cost report as Google Ads, Microsoft Advertising, Meta or TikTok exports it, or a generic CSV (day, campaign, cost, clicks, impressions). Importing
        the same days and campaigns again replaces them. A day written with slashes is read in the order you choose (a day in YYYY-MM-DD reads the same either
        way). A file with any bad line is refused whole, with the line numbers; at most 2 MB. Every upload is recorded in the audit log.
      </p>
      <form method="post" action="/api/console/costs" encType="multipart/form-data" aria-labelledby="costs-upload" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <label className="flex flex-col text-sm">
          Platform
          <select name="source" defaultValue={chose.source} className={inputClass}>
            {COST_SOURCES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Currency, if the file has none
          <input type="text" name="currency" defaultValue={chose.currency} maxLength={3} pattern="[A-Za-z]{3}" className={inputClass} />
        </label>
        <label className="flex flex-col text-sm">
          Dates with slashes
          <select name="dayOrder" defaultValue={chose.dayOrder} className={inputClass}>
            <option value="month-first">month-first: 03/04/2026 is March 4 (US)</option>
            <option value="day-first">day-first: 03/04/2026 is 3 April (AU, CA, UK)</option>
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Cost report
          <input type="file" name="file" accept=".csv,.tsv,text/csv" required className={inputClass} />
        </label>
        <button type="submit" className={buttonClass}>
          Upload costs
        </button>
      </form>
    </ConsoleLayout>
  );
}
