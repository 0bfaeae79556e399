/**
 * The console's leads: newest first, 50 a page, filtered by brand, or found by an exact lead id,
 * email or phone. Personal data masked by role (engine/console/masking.ts); a viewer may not
 * open this page (403).
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, buttonClass, inputClass, linkClass } from '../../../blocks/console/ConsoleLayout';
import { money, when } from '../../../blocks/console/format';
import { getCatalog } from '../../../engine/site/catalog';
import { listLeadsPage, type LeadRow } from '../../../engine/console/leadQueries';
import { consolePage, queryText, type ConsoleProps } from '../../../engine/console/pages';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{ rows: LeadRow[]; more: boolean; page: number; brand: string; q: string; brands: string[] }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'leads.list', async (db, viewer) => {
    const brands = [...getCatalog().brands.keys()].sort();
    const brand = brands.includes(queryText(ctx.query.brand)) ? queryText(ctx.query.brand) : '';
    const q = queryText(ctx.query.q).trim();
    const page = Math.min(10_000, Math.max(0, Math.floor(Number(queryText(ctx.query.page)) || 0)));
    const { rows, more } = await listLeadsPage(db, viewer.role, { brand, search: q, page });
    return { rows, more, page, brand, q, brands };
  });

const pageLink = (p: { brand: string; q: string }, page: number) =>
  '/leads?' + new URLSearchParams({ ...(p.brand ? { brand: p.brand } : {}), ...(p.q ? { q: p.q } : {}), page: String(page) }).toString();

export default function LeadsPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Leads" viewer={props.viewer} forbidden />;
  const { rows, more, page, brand, q, brands } = props;
  return (
    <ConsoleLayout title="Leads" viewer={props.viewer} current="/leads">
      <form method="get" action="/leads" className="mb-4 flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          Lead id, email or phone (exact)
          <input type="search" name="q" defaultValue={q} className={inputClass} />
        </label>
        <label className="flex flex-col text-sm">
          Brand
          <select name="brand" defaultValue={brand} className={inputClass}>
            <option value="">All brands</option>
            {brands.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          Find
        </button>
      </form>
      <DataTable
        caption={`Leads, newest first (page ${page + 1})`}
        head={['Lead', 'Stored', 'Brand', 'Name', 'Email', 'Phone', 'State', 'Amount', 'Sale', 'Price']}
        numeric={[false, false, false, false, false, false, false, true, false, true]}
        rows={rows.map((r) => [
          <a key="id" href={`/leads/${r.id}`} className={linkClass}>
            {r.id}
          </a>,
          when(r.created_at),
          r.brand,
          `${r.first_name} ${r.last_name}`,
          r.email,
          r.phone,
          r.region,
          money(r.amount * 100, r.currency),
          r.status,
          money(r.price_cents),
        ])}
      />
      <nav aria-label="Pages of leads" className="flex gap-4">
        {page > 0 && (
          <a href={pageLink(props, page - 1)} className={linkClass}>
            Newer leads
          </a>
        )}
        {more && (
          <a href={pageLink(props, page + 1)} className={linkClass}>
            Older leads
          </a>
        )}
      </nav>
    </ConsoleLayout>
  );
}
