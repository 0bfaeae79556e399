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
import { consolePage, type ConsoleProps } from '../../engine/console/pages';
import { overviewQuery } from '../../engine/console/range';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{ from: string; to: string; brands: string[] }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'exports.run', async () => {
    const { from, to } = overviewQuery({}, new Set());
    return { from, to, brands: [...getCatalog().brands.keys()].sort() };
  });

export default function ExportsPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Exports" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Exports" viewer={props.viewer} current="/exports">
      <h2 id="leads-export" className="mb-2 text-xl font-semibold">
        Leads (CSV)
      </h2>
      <p className="mb-4 max-w-2xl">
        {`One line a lead, with its personal data, source and sale. Cells a spreadsheet would run as a formula start with an apostrophe. At most ${EXPORT_MAX.toLocaleString('en-US')} leads at once; every export is recorded in the audit log.`}
      </p>
      <form method="post" action="/api/console/export" aria-labelledby="leads-export" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <DateRangeFields from={props.from} to={props.to} required />
        <label className="flex flex-col text-sm">
          Brand
          <select name="brand" defaultValue="" className={inputClass}>
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
      <form method="post" action="/api/console/export" aria-labelledby="conversions-export" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="csrf" value={props.viewer.csrf} />
        <input type="hidden" name="kind" value="google-ads" />
        <DateRangeFields from={props.from} to={props.to} required />
        <label className="flex flex-col text-sm">
          Conversion name
          <input type="text" name="name" defaultValue="Loan request sold" maxLength={100} className={inputClass} />
        </label>
        <button type="submit" className={buttonClass}>
          Download conversions CSV
        </button>
      </form>
    </ConsoleLayout>
  );
}
