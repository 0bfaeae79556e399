/** The console's brands: hosts, whether the brand's file is valid, its page patterns, visits and leads today, and a link to its site. */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, linkClass } from '../../blocks/console/ConsoleLayout';
import { num } from '../../blocks/console/format';
import { getCatalog } from '../../engine/site/catalog';
import { brandRows, type BrandRow } from '../../engine/console/adminQueries';
import { consolePage, type ConsoleProps } from '../../engine/console/pages';
import { refusedNotices, type RefusedNotice } from '../../engine/console/refusedRevisions';
import { RefusedRevisions } from '../../blocks/console/RefusedRevisions';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{ rows: BrandRow[]; localSuffix: string; refused: RefusedNotice[] }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'brands.view', async (db) => {
    // on console.localhost:PORT the brands' local hosts ({id}.localhost:PORT) are the useful links
    const host = String(ctx.req.headers.host ?? '');
    const local = /^console\.localhost(:\d+)?$/.exec(host);
    return { rows: await brandRows(db, getCatalog()), localSuffix: local ? `.localhost${local[1] ?? ''}` : '', refused: refusedNotices() };
  });

export default function BrandsPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Brands" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Brands" viewer={props.viewer} current="/brands">
      <RefusedRevisions notices={props.refused} />
      <DataTable
        caption="Brands (today is the UTC day)"
        head={['Brand', 'Hosts', 'File', 'Page patterns', 'Visits today', 'Leads today', 'Site']}
        numeric={[false, false, false, true, true, true, false]}
        rows={props.rows.map((b) => {
          const site = props.localSuffix ? `http://${b.id}${props.localSuffix}/` : b.hosts[0] ? `https://${b.hosts[0]}/` : '';
          return [
            b.name,
            b.hosts.join(', '),
            b.valid ? 'valid' : `${b.problems} problem${b.problems === 1 ? '' : 's'}`,
            num(b.routes),
            num(b.visitsToday),
            num(b.leadsToday),
            site ? (
              <a key="site" href={site} className={linkClass}>
                {`Open ${b.id}`}
              </a>
            ) : (
              '—'
            ),
          ];
        })}
      />
    </ConsoleLayout>
  );
}
