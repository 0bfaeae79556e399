/**
 * The console's sign-in page: a plain form posted to /api/console/login, which answers with a
 * redirect (here again with a message code on failure; on success the page the operator was going
 * to, `?next=`, when it is a console page — engine/console/returnTo.ts — else the overview).
 * Messages come from a fixed table, never from the query's text.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, buttonClass, inputClass } from '../../blocks/console/ConsoleLayout';
import { requireUser } from '../../engine/console/api';
import { csrfToken } from '../../engine/console/csrf';
import { consoleRequestOf, ownKey, queryText } from '../../engine/console/pages';
import { getStore } from '../../engine/store/db';
import { LINK_TOKEN } from '../../engine/console/signInLinks';
import { RETURN_MAX, returnPath } from '../../engine/console/returnTo';

export const config = { unstable_runtimeJS: false };

const MESSAGES: Record<string, string> = {
  wrong: 'The email or password is wrong.',
  locked: 'Too many failed sign-ins: this account is locked for a while. Try again later.',
  busy: 'The server is busy checking other sign-ins. Try again in a few seconds.',
  invalid: 'Enter an email address and a password.',
  refused: 'The sign-in was refused: use the form on this page.',
  out: 'You are signed out.',
  expired: 'Your session has expired. Sign in again.',
  // a form posted after the session ended (it expired, or a sign-out in another tab): formRefusals.ts SESSION_ENDED
  session_form: 'Your session had expired or was signed out, so nothing was changed. Sign in again, then open the page and send the form again.',
  code: 'That code is not right, or was used already. Enter the code your app shows now.',
  link: 'That sign-in link was used already, has expired, or is not one of ours. Ask an admin for a new one.',
  link_limited: 'Too many sign-in links tried from here in the last minute. Wait a minute, then open your link again.',
};

/**
 * `csrf` when the password was right and the authenticator's code is still to come; `link` a one-time sign-in link's token to spend;
 * `next` the console page the operator was going to (engine/console/returnTo.ts), carried by every form: the password, the code and the link's.
 */
type Props = { message: string; alert: boolean; csrf: string | null; link: string | null; next: string | null };

export const getServerSideProps: GetServerSideProps<Props> = async (ctx) => {
  ctx.res.setHeader('Cache-Control', 'no-store');
  // The link's token stays out of the address of whatever is loaded from this page.
  ctx.res.setHeader('Referrer-Policy', 'no-referrer');
  const who = await requireUser(await getStore(), consoleRequestOf(ctx), 'overview.view', ['full', 'code']);
  // read whole (a cut one could name another page), then kept only if it is a console page's
  const next = returnPath(queryText(ctx.query.next, RETURN_MAX + 1)) ?? null;
  if (!('refused' in who) && who.user.stage === 'full') return { redirect: { destination: next ?? '/', permanent: false } };
  const csrf = 'refused' in who ? null : csrfToken(who.token);
  const code = queryText(ctx.query.error) || queryText(ctx.query.status);
  const minutes = Number(queryText(ctx.query.minutes));
  const known = ownKey(MESSAGES, code);
  let message = known ? MESSAGES[known]! : '';
  if (code === 'locked' && Number.isInteger(minutes) && minutes > 0 && minutes < 1000) message = message.replace('for a while', `for ${minutes} min`);
  if (code === 'busy') {
    ctx.res.statusCode = 503;
    ctx.res.setHeader('Retry-After', '2');
  } else if (code === 'wrong' || code === 'locked' || code === 'link_limited' || code === 'invalid' || code === 'refused' || code === 'code' || code === 'link')
    ctx.res.statusCode = code === 'locked' || code === 'link_limited' ? 429 : code === 'wrong' || code === 'code' || code === 'link' ? 401 : 400;
  const token = queryText(ctx.query.link);
  return { props: { message, alert: code !== 'out' && !!message, csrf, link: LINK_TOKEN.test(token) ? token : null, next } };
};

export default function LoginPage({ message, alert, csrf, link, next }: Props) {
  const returnField = next ? <input type="hidden" name="next" value={next} /> : null;
  return (
    <ConsoleLayout title="Sign in">
      {message && (
        <p
          role={alert ? 'alert' : 'status'}
          className={`mb-4 max-w-md rounded border p-2 ${alert ? 'border-red-700 bg-red-50' : 'border-slate-400 bg-slate-50'}`}
        >
          {message}
        </p>
      )}
      {link && !csrf ? (
        <form method="post" action="/api/console/links" className="flex max-w-md flex-col gap-4">
          <input type="hidden" name="op" value="use" />
          <input type="hidden" name="token" value={link} />
          {returnField}
          <p>An admin made you a one-time sign-in link. It works once, and expires.</p>
          <div>
            <button type="submit" className={buttonClass}>
              Sign in with this link
            </button>
          </div>
        </form>
      ) : csrf ? (
        <form method="post" action="/api/console/totp" className="flex max-w-md flex-col gap-4">
          <input type="hidden" name="csrf" value={csrf} />
          <input type="hidden" name="action" value="code" />
          {returnField}
          <label className="flex flex-col">
            Code from your authenticator app
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="\s*\d{3}\s?\d{3}\s*" required className={inputClass} />
          </label>
          <div>
            <button type="submit" className={buttonClass}>
              Continue
            </button>
          </div>
        </form>
      ) : (
        <form method="post" action="/api/console/login" className="flex max-w-md flex-col gap-4">
          {returnField}
          <label className="flex flex-col">
            Email
            <input type="email" name="email" autoComplete="username" required className={inputClass} />
          </label>
          <label className="flex flex-col">
            Password
            <input type="password" name="password" autoComplete="current-password" required className={inputClass} />
          </label>
          <div>
            <button type="submit" className={buttonClass}>
              Sign in
            </button>
          </div>
        </form>
      )}
    </ConsoleLayout>
  );
}
