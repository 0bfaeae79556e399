/** The console's users (admin): who has an account and with which role; accounts are added, reset and removed with `npm run console:user`. */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable } from '../../blocks/console/ConsoleLayout';
import { when } from '../../blocks/console/format';
import { consolePage, type ConsoleProps } from '../../engine/console/pages';
import { listUsers } from '../../engine/store/console';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{ users: { email: string; role: string; created_at: string; updated_at: string }[] }>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) => consolePage(ctx, 'users.manage', async (db) => ({ users: await listUsers(db) }));

export default function UsersPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Users" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Users" viewer={props.viewer} current="/users">
      <p className="mb-4 max-w-2xl">
        Accounts are managed from a terminal on the server: <code>npm run console:user -- add --email E --role admin|analyst|viewer --password-stdin</code>, and{' '}
        <code>list</code>, <code>reset</code>, <code>remove</code>.
      </p>
      <DataTable
        caption="Accounts"
        head={['Email', 'Role', 'Created', 'Changed']}
        rows={props.users.map((u) => [u.email, u.role, when(u.created_at), when(u.updated_at)])}
      />
    </ConsoleLayout>
  );
}
