/**
 * Lead quality: score bands and reason codes by source, campaign and sub-id over a date range,
 * the worst average first — which traffic sends bad leads. Codes and counts only, no personal
 * data, so every role that lists leads may read it. Above it, the leads screening holds for review,
 * each linked to its page, where an operator releases or rejects it.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, DateRangeFields, buttonClass, inputClass, linkClass } from '../../blocks/console/ConsoleLayout';
import { when } from '../../blocks/console/format';
import { getCatalog } from '../../engine/site/catalog';
import { consolePage, queryText, type ConsoleProps } from '../../engine/console/pages';
import { heldLeads, qualityBreakdown, type HeldLead, type QualityRow } from '../../engine/console/qualityQueries';
import { overviewQuery } from '../../engine/console/range';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{ from: string; to: string; brand: string; brands: string[]; problem: string; rows: QualityRow[]; held: HeldLead[] }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'leads.list', async (db) => {
    const brands = [...getCatalog().brands.keys()].sort();
    const q = overviewQuery({ from: queryText(ctx.query.from, 10), to: queryText(ctx.query.to, 10), brand: queryText(ctx.query.brand, 60) }, new Set(brands));
    const rows = await qualityBreakdown(db, { from: q.filter.from, to: q.filter.to, brand: q.brand });
    const held = await heldLeads(db, q.brand || undefined);
    return { from: q.from, to: q.to, brand: q.brand, brands, problem: q.problem, rows, held };
  });

export default function QualityPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Lead quality" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Lead quality" viewer={props.viewer} current="/quality">
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Range">
        <DateRangeFields from={props.from} to={props.to} />
        <label className="flex flex-col text-sm">
          Brand
          <select name="brand" defaultValue={props.brand} className={inputClass}>
            <option value="">All brands</option>
            {props.brands.map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          Show
        </button>
      </form>
      {props.problem && <p className="mb-4">{props.problem}</p>}
      <DataTable
        caption={`Held for review (${props.held.length}${props.held.length === 200 ? ' or more' : ''}, longest waiting first): open a lead to release or reject it`}
        head={['Lead', 'Brand', 'Screened', 'Score', 'Reason codes']}
        rows={props.held.map((h) => [
          <a key={h.id} href={`/leads/${h.id}`} className={linkClass}>
            {h.id}
          </a>,
          h.brand,
          when(h.createdAt),
          String(h.score),
          h.codes.join(', ') || 'none',
        ])}
      />
      <DataTable
        caption="Score bands and reason codes by source, campaign and sub-id (worst average first; high 80–100, medium 50–79, low 0–49)"
        head={['Source', 'Campaign', 'Sub-id', 'Leads', 'High', 'Medium', 'Low', 'Average score', 'Reason codes (leads)']}
        rows={props.rows.map((r) => [
          r.source,
          r.campaign,
          r.subId,
          String(r.leads),
          String(r.high),
          String(r.medium),
          String(r.low),
          String(r.averageScore),
          r.codes.map(([c, n]) => `${c} (${n})`).join(', '),
        ])}
      />
    </ConsoleLayout>
  );
}
