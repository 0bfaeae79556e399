/**
 * The signed-in user's own account: two-step sign-in with an authenticator app (TOTP). Set-up
 * makes a secret, shown as an otpauth:// link and as text to type (no QR code: it would need a
 * library or script, and the console runs none); a code from the app turns it on. An admin in a
 * deployment must do this before anything else (their session reaches only this page until then).
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, buttonClass, inputClass, linkClass } from '../../blocks/console/ConsoleLayout';
import { consolePage, ownKey, queryText, type ConsoleProps } from '../../engine/console/pages';
import { groupedSecret, otpauthUri, totpRequired } from '../../engine/console/totp';
import { userTotp } from '../../engine/console/totpStore';
import { findUser } from '../../engine/store/console';
import { CURRENCIES, SETTINGS_FAILED, SETTINGS_NOTES, type SettingsNote } from '../../engine/console/settingsNotes';

export const config = { unstable_runtimeJS: false };

const MESSAGES: Record<string, [text: string, alert: boolean]> = {
  code: ['That code is not right, or was used already. Enter the code the app shows now.', true],
  enabled: ['Two-step sign-in is on already.', true],
  enrolled: ['Two-step sign-in is on. Each sign-in now asks for a code from your app.', false],
};

type Props = ConsoleProps<{
  enabled: boolean;
  required: boolean;
  pending: { uri: string; secret: string } | null;
  message: string;
  alert: boolean;
  zone: string;
  currency: string;
}>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(
    ctx,
    'overview.view',
    async (db, viewer) => {
      const user = await findUser(db, viewer.email);
      const totp = user ? await userTotp(db, user.id) : { enabled: false, lastStep: 0 };
      const key = queryText(ctx.query.note);
      const note = ownKey<SettingsNote>(SETTINGS_NOTES, key);
      const said = ownKey(MESSAGES, queryText(ctx.query.error) || queryText(ctx.query.status));
      const [message, alert] = note ? [SETTINGS_NOTES[note], SETTINGS_FAILED.includes(note)] : said ? MESSAGES[said]! : ['', false];
      return {
        enabled: totp.enabled,
        required: totpRequired(viewer.role),
        pending: !totp.enabled && totp.secret ? { uri: otpauthUri(totp.secret, viewer.email), secret: groupedSecret(totp.secret) } : null,
        message,
        alert,
        zone: user?.time_zone || 'UTC',
        currency: user?.currency || 'USD',
      };
    },
    ['full', 'enrol'],
  );

export default function AccountPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Your account" viewer={props.viewer} forbidden />;
  const { viewer, enabled, required, pending, message, alert, zone, currency } = props;
  return (
    <ConsoleLayout title="Your account" viewer={viewer} current="/account">
      {message && (
        <p
          role={alert ? 'alert' : 'status'}
          className={`mb-4 max-w-xl rounded border p-2 ${alert ? 'border-red-700 bg-red-50' : 'border-slate-400 bg-slate-50'}`}
        >
          {message}
        </p>
      )}
      <p className="mb-4">
        Signed in as {viewer.email} ({viewer.role}).
      </p>
      <section aria-labelledby="your-view" className="mb-6 max-w-xl">
        <h2 id="your-view" className="mb-2 text-xl font-semibold">
          Your figures
        </h2>
        <p className="mb-2">The overview groups days, weeks and months in this time zone and shows amounts in this currency.</p>
        <form method="post" action="/api/console/settings" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="csrf" value={viewer.csrf} />
          <input type="hidden" name="op" value="view" />
          <label className="flex flex-col text-sm">
            Time zone
            <input name="zone" defaultValue={zone} placeholder="America/New_York" autoComplete="off" className={inputClass} />
          </label>
          <label className="flex flex-col text-sm">
            Currency
            <select name="currency" defaultValue={currency} className={inputClass}>
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={buttonClass}>
            Save
          </button>
        </form>
      </section>
      <section aria-labelledby="two-step" className="mb-6 max-w-xl">
        <h2 id="two-step" className="mb-2 text-xl font-semibold">
          Two-step sign-in
        </h2>
        {enabled ? (
          <p>
            On: each sign-in asks for the six-digit code your authenticator app shows. Lost the phone? An admin can remove it from a terminal with{' '}
            <code>npm run console:user -- totp-reset --email {viewer.email}</code>.
          </p>
        ) : (
          <>
            <p className="mb-4">
              {required
                ? 'Your role must sign in with a code from an authenticator app here: set it up to continue.'
                : 'Off. With it on, each sign-in also asks for a code from an authenticator app on your phone.'}
            </p>
            {pending && (
              <>
                <p className="mb-2">Add this account to your authenticator app: open the link on your phone, or type the key into the app.</p>
                <p className="mb-2 break-all">
                  <a href={pending.uri} className={linkClass}>
                    {pending.uri}
                  </a>
                </p>
                <p className="mb-4">
                  Key: <code data-testid="totp-secret">{pending.secret}</code>
                </p>
                <form method="post" action="/api/console/totp" className="mb-4 flex flex-col gap-4">
                  <input type="hidden" name="csrf" value={viewer.csrf} />
                  <input type="hidden" name="action" value="confirm" />
                  <label className="flex flex-col">
                    Code from the app
                    <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="\s*\d{3}\s?\d{3}\s*" required className={inputClass} />
                  </label>
                  <div>
                    <button type="submit" className={buttonClass}>
                      Turn on two-step sign-in
                    </button>
                  </div>
                </form>
              </>
            )}
            <form method="post" action="/api/console/totp">
              <input type="hidden" name="csrf" value={viewer.csrf} />
              <input type="hidden" name="action" value="setup" />
              <button type="submit" className={buttonClass}>
                {pending ? 'Make a new key' : 'Set up an authenticator app'}
              </button>
            </form>
          </>
        )}
      </section>
    </ConsoleLayout>
  );
}
