/** The console's brands: hosts, whether the brand's file is valid, its page patterns, visits and leads today, and a link to its site. */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, linkClass } from '../../blocks/console/ConsoleLayout';
import { num } from '../../blocks/console/format';
import { getCatalog } from '../../engine/site/catalog';
import { brandRows, type BrandRow } from '../../engine/console/adminQueries';
import { consolePage, type ConsoleProps } from '../../engine/console/pages';
import { originOfRequest } from '../../engine/http/api';
import { refusedNotices, type RefusedNotice } from '../../engine/console/refusedRevisions';
import { RefusedRevisions } from '../../blocks/console/RefusedRevisions';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{
  rows: BrandRow[];
  /** on a local console, where a brand's local host is: the console's scheme, and '.localhost' with its port */
  local: { scheme: string; suffix: string } | null;
  refused: RefusedNotice[];
}>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'brands.view', async (db) => {
    // on console.localhost the brands' local hosts ({id}.localhost), reached the way the console was
    // (its scheme and port, also behind the bundled nginx: originOfRequest), are the useful links
    const origin = new URL(originOfRequest(ctx.req));
    const local = origin.hostname === 'console.localhost' ? { scheme: origin.protocol, suffix: `.localhost${origin.port ? `:${origin.port}` : ''}` } : null;
    return { rows: await brandRows(db, getCatalog()), local, refused: refusedNotices() };
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
          const site = props.local ? `${props.local.scheme}//${b.id}${props.local.suffix}/` : b.hosts[0] ? `https://${b.hosts[0]}/` : '';
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
