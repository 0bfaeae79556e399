/** The studio's new-brand questions (blocks/studio/NewBrandWizard.tsx), for a role that may edit brands. */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout } from '../../../blocks/console/ConsoleLayout';
import { NewBrandWizard } from '../../../blocks/studio/NewBrandWizard';
import { consolePage, type ConsoleProps } from '../../../engine/console/pages';

type Props = ConsoleProps<{ canCreate: boolean }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'studio.view', async (_db, viewer) => ({ canCreate: viewer.may.includes('studio.edit') }));

export default function NewBrandPage(props: Props) {
  if (props.forbidden || !props.canCreate) return <ConsoleLayout title="Launch a new brand" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Launch a new brand" viewer={props.viewer} current="/studio">
      <NewBrandWizard csrf={props.viewer.csrf} />
    </ConsoleLayout>
  );
}
