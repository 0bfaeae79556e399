/**
 * A console form post refused for something its page could not show: the page had expired (no or
 * a wrong CSRF token — it was open from before the operator last signed in, or the form was made
 * by hand), the operator's role does not allow the action (the role changed while the page was
 * open, or the form was made by hand), the operator's account may not change the form's brand (an
 * editor limited to other brands), or the session itself had ended (it expired — the browser then
 * sends no cookie at all — or the operator signed out in another tab). An API client keeps the
 * status and its reason as JSON; a browser's form post (browserFormPost) goes to the console's
 * Refused page (pages/_console/refused.tsx), which says what happened and what would allow it, or,
 * with no session, to the sign-in page saying nothing was changed: the console's pages run no
 * script, so a bare {"error":…} would replace the console in the window.
 */
import { ApiError, type ApiAnswer } from '../http/api';
import { hasSessionCookie, sessionCookie, type ConsoleAnswer } from './api';
import { browserFormPost } from './forms';
import { signInAddress } from './returnTo';
import { BRAND_ID, isPermission, may, PERMISSION_WORDS, rolesThatMay, type Permission, type Role } from './roles';

/** The reason an API client is given for a post without the session's CSRF token. */
export const FORM_OUT_OF_DATE = 'The form is out of date; reload the page and try again';

/** Why a browser's form post was refused, and what its page says it with. */
export type RefusalReason =
  /** `back`: the page the form was on */
  | { why: 'expired'; back?: string }
  | { why: 'role'; permission: Permission }
  | { why: 'brand'; brand: string }
  /** no session: to the sign-in page; `back`: the page the form was on, to return to after signing in */
  | { why: 'session'; back?: string };

/** A refusal a browser's form post is shown as a page (an API client gets its status and message as JSON). */
export class FormRefusal extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly reason: RefusalReason,
  ) {
    super(status, message);
  }
}

/** A post without the session's CSRF token; `back`: the page the form was on, when the route knows it better than its action does. */
export const formOutOfDate = (back?: string): FormRefusal => new FormRefusal(403, FORM_OUT_OF_DATE, { why: 'expired', back });

/** A post about a brand the operator's account may not change (an editor limited to other brands). */
export const notYourBrand = (brand: string): FormRefusal => new FormRefusal(403, `Your account may not change the brand "${brand}"`, { why: 'brand', brand });

/**
 * requireUser's refusal as an error: a role's 403, or no session at all (401 "Sign in first"),
 * marked as one (so a browser gets a page); a session still at its second step, as it was.
 */
export function refusalError(who: { refused?: ConsoleAnswer; permission?: Permission; stage?: string }, back?: string): ApiError {
  const { status, body } = who.refused!;
  const error = (body as { error: string }).error;
  if (status === 403 && who.permission) return new FormRefusal(status, error, { why: 'role', permission: who.permission });
  if (status === 401 && who.stage === undefined) return new FormRefusal(status, error, { why: 'session', back });
  return new ApiError(status, error);
}

/** The page each console form post's action comes from, for an expired form the route did not place. */
const FORM_PAGES: Readonly<Record<string, string>> = {
  logout: '/',
  reveal: '/leads',
  review: '/leads',
  totp: '/account',
  export: '/exports',
  costs: '/exports',
  users: '/users',
  links: '/users',
  settings: '/settings',
  experiments: '/experiments',
};

/** The sign-in page's message key for a form posted without a session (pages/_console/login.tsx). */
export const SESSION_ENDED = 'session_form';

/** Where a browser is sent for a refusal of `action`'s form: the Refused page, or with no session the sign-in page. */
export function refusedLocation(refusal: FormRefusal, action: string): string {
  const r = refusal.reason;
  // signed in again, the operator is taken back to the form's page (signInAddress keeps only a console page)
  if (r.why === 'session') return signInAddress({ error: SESSION_ENDED }, r.back ?? FORM_PAGES[action]);
  const query: Record<string, string> =
    r.why === 'role'
      ? { why: 'role', permission: r.permission }
      : r.why === 'brand'
        ? { why: 'brand', brand: r.brand }
        : { why: 'expired', back: r.back ?? FORM_PAGES[action] ?? '/' };
  return `/refused?${new URLSearchParams(query)}`;
}

/**
 * For a browser's form post refused with a FormRefusal, the 303 to its page — dropping a session
 * cookie that no longer signs anyone in, as the pages do; undefined otherwise (the error stands).
 */
export function refusedAnswer(err: unknown, headers: Record<string, string | string[] | undefined>, action: string): ApiAnswer | undefined {
  if (!(err instanceof FormRefusal) || !browserFormPost(headers)) return undefined;
  const location = refusedLocation(err, action);
  const dead = err.reason.why === 'session' && hasSessionCookie({ headers: headers as Record<string, string | undefined> });
  return {
    status: 303,
    body: { location },
    headers: { Location: location, ...(dead ? { 'Set-Cookie': sessionCookie('', 0) } : {}) },
  };
}

/**
 * What the Refused page says: its heading and sentences, from its address (only its own words,
 * whatever the address holds, and a brand only as a brand id). `mayChangeBrand`: whether the
 * viewer's account may change the address's brand now (then the page had expired instead).
 */
export function refusedText(
  query: { why: string; permission: string; brand?: string },
  role: Role,
  mayChangeBrand = true,
): { why: 'role' | 'brand' | 'expired'; heading: string; lines: string[] } {
  const permission = query.permission;
  const brand = query.brand ?? '';
  if (query.why === 'brand' && BRAND_ID.test(brand) && !mayChangeBrand)
    return {
      why: 'brand',
      heading: 'Not one of your brands',
      lines: [`Nothing was changed: your account may not change the brand “${brand}”.`, 'An admin can give your account access to it on the Users page.'],
    };
  if (query.why === 'role' && isPermission(permission) && !may(role, permission)) {
    const needed = rolesThatMay(permission).join(' or ');
    return {
      why: 'role',
      heading: 'Not for your role',
      lines: [
        `Nothing was changed: your role (${role}) may not ${PERMISSION_WORDS[permission]}. That needs the ${needed} role.`,
        'If your role changed while the page was open, it still showed a form your role no longer has. Ask an admin if you need it.',
      ],
    };
  }
  // an expired form, or a role or account that may do it after all (it changed back): the page again has what is needed
  return {
    why: 'expired',
    heading: 'This page had expired',
    lines: ['Nothing was changed: the page you sent the form from had expired. Open it again and try again.'],
  };
}
