/** The studio's editor of one brand (blocks/studio/BrandEditor.tsx); read-only for a role that may not edit it. */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout } from '../../../../blocks/console/ConsoleLayout';
import { BrandEditor, type BrandEditorProps } from '../../../../blocks/studio/BrandEditor';
import { consolePage, consoleRequestOf, type ConsoleProps } from '../../../../engine/console/pages';
import { mayEditHere, studioBrand, studioProblems, studioRefs } from '../../../../engine/console/studioPages';
import { draftHostWarnings } from '../../../../engine/console/draftHosts';
import { getCatalog } from '../../../../engine/site/catalog';
import { BLOCK_SPECS } from '../../../../blocks/generated/specs';
import { refusedNotices, type RefusedNotice } from '../../../../engine/console/refusedRevisions';
import { RefusedRevisions } from '../../../../blocks/console/RefusedRevisions';

type Props = ConsoleProps<{ editor: Omit<BrandEditorProps, 'csrf' | 'readOnly'> | null; readOnly: boolean; refused: RefusedNotice[] }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'studio.view', async (db) => {
    const id = typeof ctx.params?.brandId === 'string' ? ctx.params.brandId : '';
    getCatalog(BLOCK_SPECS);
    const brand = await studioBrand(db, id);
    if (!brand) {
      ctx.res.statusCode = 404;
      return { editor: null, readOnly: true, refused: [] };
    }
    return {
      editor: {
        brandId: id,
        ...brand,
        problems: studioProblems(id, brand.document),
        warnings: await draftHostWarnings(db, id, brand.document),
        ...studioRefs(id),
      },
      readOnly: !(await mayEditHere(db, consoleRequestOf(ctx), id)),
      // the published version may be left out of what is served (it does not build since a deploy): the editor opens it to be fixed
      refused: refusedNotices([id]),
    };
  });

export default function StudioBrandPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Studio" viewer={props.viewer} forbidden />;
  const { editor } = props;
  if (!editor)
    return (
      <ConsoleLayout title="No such brand" viewer={props.viewer} current="/studio">
        <p>
          There is no brand by that id. <a href="/studio">All brands</a>
        </p>
      </ConsoleLayout>
    );
  return (
    <ConsoleLayout title={`Studio: ${String(editor.document.name ?? editor.brandId)}`} viewer={props.viewer} current="/studio">
      <RefusedRevisions notices={props.refused} where={props.readOnly ? 'read-only' : 'editor'} />
      <BrandEditor {...editor} csrf={props.viewer.csrf} readOnly={props.readOnly} />
    </ConsoleLayout>
  );
}
