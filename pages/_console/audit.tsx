/** The console's audit log (admin): sign-ins and failures, lockouts, reveals, exports and account changes, newest first. */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable } from '../../blocks/console/ConsoleLayout';
import { when } from '../../blocks/console/format';
import { auditPage } from '../../engine/console/adminQueries';
import { consolePage, type ConsoleProps } from '../../engine/console/pages';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{ entries: { id: string; at: string; actor: string; action: string; target: string; detail: string }[] }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) => consolePage(ctx, 'audit.view', async (db) => ({ entries: await auditPage(db) }));

export default function AuditPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Audit log" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Audit log" viewer={props.viewer} current="/audit">
      <DataTable
        caption="The last 200 entries, newest first"
        head={['When', 'Who', 'What', 'Target', 'Detail']}
        rows={props.entries.map((e) => [when(e.at), e.actor, e.action, e.target, e.detail === '{}' ? '' : e.detail])}
      />
    </ConsoleLayout>
  );
}
