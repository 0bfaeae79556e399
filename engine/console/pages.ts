/**
 * The server side of every console page (getServerSideProps): the session is read from the
 * cookie and the page's permission checked on the server for every request — no session: to
 * the sign-in page; a role without the permission: 403 and a page that says so, with nothing of
 * the page's data loaded. Nothing here is stored by any cache (no-store).
 */
import type { GetServerSidePropsContext, GetServerSidePropsResult } from 'next';
import { getStore, type Store } from '../store/db';
import type { SessionStage } from '../store/console';
import { cutToCharacters } from '../browser/visitValue';
import { hasSessionCookie, requireUser, sessionCookie } from './api';
import { csrfToken } from './csrf';
import { signInAddress } from './returnTo';
import { CONSOLE_PREFIX } from './pagePaths';
import { may, PERMISSIONS, type Permission, type Role } from './roles';

export interface Viewer {
  email: string;
  role: Role;
  /** the CSRF token the page's forms carry */
  csrf: string;
  /** what the role may do (the navigation shows only those pages; the server checks each anyway) */
  may: Permission[];
}

export type ConsoleProps<T> = { viewer: Viewer; forbidden: true } | ({ viewer: Viewer; forbidden?: false } & T);

/** The request as the console's API functions read it. */
export const consoleRequestOf = (ctx: Pick<GetServerSidePropsContext, 'req'>) => ({
  method: 'GET',
  headers: ctx.req.headers as Record<string, string | undefined>,
  ip: ctx.req.socket.remoteAddress ?? '',
});

/**
 * One query value as a string ('' when absent). A name given twice (`?status=sold&status=unsold`,
 * which the console's own forms never send) is read as its first value, as a form body's is, rather
 * than dropped: dropped, the filter silently widened to everything. At most `max` characters,
 * counted as a visit's campaign is (code points): a cut by UTF-16 units would keep half of a
 * 500-emoji campaign the breakdown names, and filter on a campaign no visit has.
 */
export const queryText = (value: string | string[] | undefined, max = 200): string => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? cutToCharacters(first, max) : '';
};

/**
 * The key of a page's message table a query value names, or undefined. Only the table's own keys
 * count: `?note=constructor` or `?error=__proto__` name what every object inherits, not a message.
 */
export const ownKey = <K extends string>(table: Readonly<Record<K, unknown>>, key: string): K | undefined =>
  Object.hasOwn(table, key) ? (key as K) : undefined;

export async function consolePage<T extends object>(
  ctx: GetServerSidePropsContext,
  permission: Permission,
  load: (db: Store, viewer: Viewer) => Promise<T>,
  stages: readonly SessionStage[] = ['full'],
): Promise<GetServerSidePropsResult<ConsoleProps<T>>> {
  ctx.res.setHeader('Cache-Control', 'no-store');
  const db = await getStore();
  const who = await requireUser(db, consoleRequestOf(ctx), permission, stages);
  if ('refused' in who) {
    // Half signed in: the code is still to come (the sign-in page asks for it), or an admin must set up an authenticator first.
    if (who.stage === 'code') return { redirect: { destination: signInAddress({}, pageAddress(ctx)), permanent: false } };
    if (who.stage === 'enrol') return { redirect: { destination: '/account', permanent: false } };
    if (who.refused!.status === 401) return toSignIn(ctx);
    const user = await requireUser(db, consoleRequestOf(ctx), 'overview.view', stages);
    if ('refused' in user) return toSignIn(ctx);
    ctx.res.statusCode = 403;
    return { props: { viewer: viewerOf(user.user, user.token), forbidden: true } };
  }
  const viewer = viewerOf(who.user, who.token);
  return { props: { viewer, ...(await load(db, viewer)) } };
}

/**
 * No valid session: to the sign-in page — saying the session ended when the browser still sent
 * one (it expired, or a password reset ended it), and dropping that cookie.
 */
function toSignIn(ctx: GetServerSidePropsContext): { redirect: { destination: string; permanent: false } } {
  if (!hasSessionCookie(consoleRequestOf(ctx))) return { redirect: { destination: signInAddress({}, pageAddress(ctx)), permanent: false } };
  ctx.res.setHeader('Set-Cookie', sessionCookie('', 0));
  return { redirect: { destination: signInAddress({ error: 'expired' }, pageAddress(ctx)), permanent: false } };
}

/**
 * The page's own address on the console host (its path and query), for the sign-in page to return
 * to: Next's resolvedUrl names it under the internal prefix the front door maps it onto.
 */
export function pageAddress(ctx: Pick<GetServerSidePropsContext, 'resolvedUrl'>): string | undefined {
  const url = ctx.resolvedUrl;
  if (typeof url !== 'string' || !url.startsWith(CONSOLE_PREFIX)) return undefined;
  const rest = url.slice(CONSOLE_PREFIX.length);
  return rest.startsWith('/') ? rest : rest.startsWith('?') || rest === '' ? `/${rest}` : undefined;
}

const viewerOf = (user: { email: string; role: Role }, token: string): Viewer => ({
  email: user.email,
  role: user.role,
  csrf: csrfToken(token),
  may: PERMISSIONS.filter((p) => may(user.role, p)),
});
