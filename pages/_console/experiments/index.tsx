/**
 * The console's experiments: every brand's, as their documents declare them — where each stands,
 * the pages it covers, its variants and weights — each linking to its results.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, linkClass } from '../../../blocks/console/ConsoleLayout';
import { getCatalog } from '../../../engine/site/catalog';
import { consolePage, type ConsoleProps } from '../../../engine/console/pages';
import { DEFAULT_METRIC, listExperiments, METRIC_LABELS, stateOf } from '../../../engine/console/experiments';

export const config = { unstable_runtimeJS: false };

interface Row {
  brand: string;
  id: string;
  href: string;
  state: string;
  routes: string;
  variants: string;
  metric: string;
  dates: string;
}
type Props = ConsoleProps<{ rows: Row[] }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'overview.view', async () => {
    const listed = listExperiments(getCatalog());
    const ambiguous = (id: string) => listed.filter((l) => l.experiment.id === id).length > 1;
    return {
      rows: listed.map(({ brand, experiment: e }) => ({
        brand,
        id: e.id,
        href: `/experiments/${e.id}${ambiguous(e.id) ? `?brand=${encodeURIComponent(brand)}` : ''}`,
        state: stateOf(e),
        routes: e.routes.join(', '),
        variants: e.variants.map((v) => `${v.id} ${v.weight} %`).join(', '),
        metric: METRIC_LABELS[e.metric ?? DEFAULT_METRIC],
        dates: `${e.start}${e.end ? ` to ${e.end}` : ''}`,
      })),
    };
  });

export default function ExperimentsPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Experiments" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Experiments" viewer={props.viewer} current="/experiments">
      <p className="mb-4">
        An experiment is declared in its brand’s document (<code>experiments</code>); each visitor sees one variant on every page it covers, each variant served
        from the page cache.
      </p>
      {props.rows.length ? (
        <DataTable
          caption="Experiments of every brand"
          head={['Experiment', 'Brand', 'State', 'Pages', 'Variants and weights', 'Decided by', 'From']}
          rows={props.rows.map((r) => [
            <a key={r.href} href={r.href} className={linkClass}>
              {r.id}
            </a>,
            r.brand,
            r.state,
            r.routes,
            r.variants,
            r.metric,
            r.dates,
          ])}
        />
      ) : (
        <p>No brand declares an experiment.</p>
      )}
    </ConsoleLayout>
  );
}
