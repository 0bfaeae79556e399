/**
 * The console's users (admin): every account with its role and state, and the forms to add one
 * (its temporary password shown once, to the admin who added it), change a role, disable or
 * enable it, reset its second factor, and limit an editor to some brands in the studio — posts to /api/console/users (engine/console/userRoutes.ts),
 * each audited — and make a one-time sign-in link, opening at the console page its "Open at" field
 * names (engine/console/signInLinkRoute.ts), shown once at the console's own origin. `npm run console:user` makes the account changes from a terminal.
 */
import type { GetServerSideProps } from 'next';
import type { ReactNode } from 'react';
import { ConsoleLayout, DataTable, Options, buttonClass, inputClass } from '../../blocks/console/ConsoleLayout';
import { when } from '../../blocks/console/format';
import { consolePage, ownKey, queryText, type ConsoleProps } from '../../engine/console/pages';
import { BRAND_ID, brandList, ROLES } from '../../engine/console/roles';
import { USER_NOTES, type UserNote } from '../../engine/console/userRoutes';
import { takeShownOnce, userRows, type UserRow } from '../../engine/store/consoleUserAdmin';
import { takeShownLinks } from '../../engine/console/signInLinks';
import { originOfRequest } from '../../engine/http/api';
import { RETURN_MAX } from '../../engine/console/returnTo';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{
  users: UserRow[];
  note: string;
  ok: boolean;
  shown: { email: string; password: string }[];
  /** one-time sign-in links this admin made, shown once, and the console page each opens at (none: the overview) */
  links: { email: string; url: string; expiresAt: string; opens: string | null }[];
}>;

const FAILED: readonly UserNote[] = [
  'taken',
  'email',
  'role_invalid',
  'missing',
  'last_admin',
  'self',
  'op',
  'link_disabled',
  'brands_unknown',
  'brands_role',
  'busy',
  'limited',
  'link_limited',
  'link_open',
];

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'users.manage', async (db, viewer) => {
    const key = queryText(ctx.query.note);
    const note = ownKey<UserNote>(USER_NOTES, key);
    // the ids a refused brand list named that no brand has (only well-formed ids are repeated)
    const unknown = note === 'brands_unknown' ? brandList(queryText(ctx.query.unknown, 1400)).filter((b) => BRAND_ID.test(b)) : [];
    // the console's own origin, as the colleague will open it: https on a public host; on a local one
    // (`npm start`, or behind the bundled nginx on its port) the scheme and port it was reached on --
    // read from X-Forwarded-Host/-Proto only behind a trusted proxy, never from a client's own
    const origin = originOfRequest(ctx.req);
    return {
      shown: await takeShownOnce(db, viewer.email),
      links: (await takeShownLinks(db, viewer.email)).map((l) => ({
        email: l.email,
        // the page it was made to open at rides as the sign-in page's return address
        url: `${origin}/login?${new URLSearchParams({ link: l.token, ...(l.next ? { next: l.next } : {}) }).toString()}`,
        expiresAt: l.expiresAt,
        opens: l.next ?? null,
      })),
      users: await userRows(db),
      note: note ? `${USER_NOTES[note]}${unknown.length ? ` Unknown: ${unknown.join(', ')}.` : ''}` : '',
      ok: !!note && !FAILED.includes(note),
    };
  });

const smallButton = 'inline-flex min-h-11 min-w-11 items-center rounded border border-slate-600 bg-white px-3 text-sm';

function UserForm(props: { csrf: string; email: string; op: string; label: string; action?: string; children?: ReactNode }) {
  return (
    <form method="post" action={props.action ?? '/api/console/users'} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="email" value={props.email} />
      <input type="hidden" name="op" value={props.op} />
      {props.children}
      <button type="submit" className={smallButton} aria-label={`${props.label} ${props.email}`}>
        {props.label}
      </button>
    </form>
  );
}

export default function UsersPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Users" viewer={props.viewer} forbidden />;
  const { csrf } = props.viewer;
  return (
    <ConsoleLayout title="Users" viewer={props.viewer} current="/users">
      {props.note && (
        <p
          role={props.ok ? 'status' : 'alert'}
          className={`mb-4 rounded border p-2 ${props.ok ? 'border-green-700 bg-green-50' : 'border-amber-700 bg-amber-50'}`}
        >
          {props.note}
        </p>
      )}
      {props.shown.map((s) => (
        <p key={s.email} className="mb-4 rounded border border-slate-500 p-2">
          Temporary password for {s.email}: <code data-temporary-password>{s.password}</code> (shown only this once: give it to them over a channel you trust)
        </p>
      ))}
      {props.links.map((l) => (
        <p key={l.url} className="mb-4 rounded border border-slate-500 p-2 break-all">
          One-time sign-in link for {l.email}, until {when(l.expiresAt)}
          {l.opens ? `, opening at ${l.opens}` : ''}: <code data-sign-in-link>{l.url}</code> (shown only this once; it signs in once)
        </p>
      ))}
      <h2 id="add-user" className="mb-2 text-xl font-semibold">
        Add an account
      </h2>
      <form method="post" action="/api/console/users" aria-labelledby="add-user" className="mb-6 flex flex-wrap items-end gap-3">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="op" value="add" />
        <label className="flex flex-col text-sm">
          Email
          <input type="email" name="email" required className={inputClass} autoComplete="off" />
        </label>
        <label className="flex flex-col text-sm">
          Role
          <select name="role" defaultValue="analyst" className={inputClass}>
            <Options values={ROLES} />
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          Add with a temporary password
        </button>
      </form>
      <DataTable
        caption="Accounts"
        head={['Email', 'Role', 'Brands in the studio', 'State', 'Two-step', 'Created', 'Changed', 'Change']}
        rows={props.users.map((u) => [
          u.email,
          u.role,
          u.role === 'admin' ? 'every brand' : u.role === 'editor' ? u.brands || 'every brand' : 'none (reads only)',
          u.disabled_at ? `disabled ${when(u.disabled_at)}` : 'active',
          Number(u.totp_enabled) === 1 ? 'on' : 'off',
          when(u.created_at),
          when(u.updated_at),
          <div key="change" className="flex flex-wrap gap-2">
            <UserForm csrf={csrf} email={u.email} op="role" label="Set role">
              <label className="sr-only" htmlFor={`role-${u.email}`}>{`Role of ${u.email}`}</label>
              <select id={`role-${u.email}`} name="role" defaultValue={u.role} className={inputClass}>
                <Options values={ROLES} />
              </select>
            </UserForm>
            {u.role === 'editor' && (
              <UserForm csrf={csrf} email={u.email} op="brands" label="Set brands">
                <label className="sr-only" htmlFor={`brands-${u.email}`}>{`Brands ${u.email} may edit (ids separated by commas; empty: every brand)`}</label>
                <input
                  id={`brands-${u.email}`}
                  name="brands"
                  defaultValue={u.brands ?? ''}
                  placeholder="every brand"
                  className={inputClass}
                  autoComplete="off"
                  spellCheck={false}
                />
              </UserForm>
            )}
            <UserForm csrf={csrf} email={u.email} op={u.disabled_at ? 'enable' : 'disable'} label={u.disabled_at ? 'Enable' : 'Disable'} />
            {Number(u.totp_enabled) === 1 && <UserForm csrf={csrf} email={u.email} op="totp-reset" label="Reset two-step" />}
            {!u.disabled_at && (
              <UserForm csrf={csrf} email={u.email} op="create" action="/api/console/links" label="Make a sign-in link">
                <label className="text-sm" htmlFor={`open-${u.email}`}>
                  Open at<span className="sr-only">{` (the console page the sign-in link for ${u.email} opens; empty: the overview)`}</span>
                </label>
                <input
                  id={`open-${u.email}`}
                  name="open"
                  placeholder="/leads"
                  className={inputClass}
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={RETURN_MAX}
                />
              </UserForm>
            )}
          </div>,
        ])}
      />
      <p className="max-w-2xl text-sm">
        An editor edits every brand in the studio while its brands are left empty, or only the brands listed. From a terminal on the server:{' '}
        <code>npm run console:user -- add --email E --role admin|analyst|viewer|editor [--brands a,b] --password-stdin</code>, and <code>list</code>,{' '}
        <code>reset</code>, <code>remove</code>, <code>totp-reset</code>.
      </p>
    </ConsoleLayout>
  );
}
