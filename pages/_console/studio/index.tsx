/** The studio's brands: each with its published version, whether a draft waits, who changed it last and when, and whether its file changed since. */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, linkClass } from '../../../blocks/console/ConsoleLayout';
import { consolePage, type ConsoleProps } from '../../../engine/console/pages';
import { getCatalog } from '../../../engine/site/catalog';
import { brandDrafts, brandFile, brandFileChanged, publishedBrands } from '../../../engine/store/brandRevisions';
import { BLOCK_SPECS } from '../../../blocks/generated/specs';
import { refusedNotices, type RefusedNotice } from '../../../engine/console/refusedRevisions';
import { RefusedRevisions } from '../../../blocks/console/RefusedRevisions';

export const config = { unstable_runtimeJS: false };

interface Row {
  id: string;
  name: string;
  published: string;
  draft: string;
  last: string;
  fileChanged: boolean;
}

type Props = ConsoleProps<{ rows: Row[]; canCreate: boolean; refused: RefusedNotice[] }>;

const when = (iso: string) => iso.replace('T', ' ').slice(0, 16) + ' UTC';

/** What serves the brand: its published version, or, when that version does not build, what does instead. */
function live(version: number | undefined, refused: RefusedNotice | undefined, hasFile: boolean): string {
  if (refused) return `${refused.instead === 'file' ? 'the file' : 'nothing: not served'} (version ${refused.version} does not build)`;
  return version ? `version ${version}` : hasFile ? 'the file' : 'not yet';
}

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'studio.view', async (db, viewer) => {
    const catalog = getCatalog(BLOCK_SPECS);
    const [drafts, published] = await Promise.all([brandDrafts(db), publishedBrands(db)]);
    const refused = refusedNotices();
    const notApplied = new Map(refused.map((n) => [n.id, n]));
    const ids = [...new Set([...catalog.brands.keys(), ...catalog.broken.keys(), ...drafts.keys(), ...published.keys()])].sort();
    const rows = ids.map((id): Row => {
      const d = drafts.get(id);
      const p = published.get(id);
      const last = [d, p].filter((r) => !!r).sort((a, b) => b!.savedAt.localeCompare(a!.savedAt))[0];
      const name = String((d ?? p)?.document.name ?? catalog.brands.get(id)?.brand.name ?? id);
      return {
        id,
        name,
        published: live(p?.version, notApplied.get(id), !!brandFile(id)),
        draft: d && (!p || d.version > p.version) ? `version ${d.version}, not published` : 'none',
        last: last ? `${last.author}, ${when(last.savedAt)}` : 'in the file',
        fileChanged: brandFileChanged(p),
      };
    });
    return { rows, canCreate: viewer.may.includes('studio.edit'), refused };
  });

export default function StudioBrands(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Studio" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Studio" viewer={props.viewer} current="/studio">
      <RefusedRevisions notices={props.refused} />
      {props.canCreate && (
        <p className="mb-4">
          <a href="/studio/new" className={linkClass}>
            Launch a new brand
          </a>
        </p>
      )}
      <DataTable
        caption="Brands"
        head={['Brand', 'Live', 'Draft', 'Last change', 'File changed since', 'Edit']}
        rows={props.rows.map((r) => [
          r.name,
          r.published,
          r.draft,
          r.last,
          r.fileChanged ? 'yes: the published version still applies' : 'no',
          <a key="edit" href={`/studio/${r.id}`} className={linkClass}>
            {`Open ${r.id}`}
          </a>,
        ])}
      />
    </ConsoleLayout>
  );
}
