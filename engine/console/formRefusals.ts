/**
 * A console form post refused for something its page could not show: the page had expired (no or
 * a wrong CSRF token — it was open from before the operator last signed in, or the form was made
 * by hand), or the operator's role does not allow the action (the role changed while the page was
 * open, or the form was made by hand). An API client keeps the 403 and its reason as JSON; a
 * browser's form post (browserFormPost) goes to the console's Refused page
 * (pages/_console/refused.tsx), which says what happened and, for a role, which role is needed:
 * the console's pages run no script, so a bare {"error":…} would replace the console in the window.
 */
import { ApiError, type ApiAnswer } from '../http/api';
import type { ConsoleAnswer } from './api';
import { browserFormPost } from './forms';
import { isPermission, may, PERMISSION_WORDS, rolesThatMay, type Permission, type Role } from './roles';

/** The reason an API client is given for a post without the session's CSRF token. */
export const FORM_OUT_OF_DATE = 'The form is out of date; reload the page and try again';

/** A refusal a browser's form post is shown as a page: `back` is the page the form was on (for an expired one). */
export class FormRefusal extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly why: 'expired' | 'role',
    readonly back: string | undefined,
    readonly permission?: Permission,
  ) {
    super(status, message);
  }
}

/** A post without the session's CSRF token; `back`: the page the form was on, when the route knows it better than its action does. */
export const formOutOfDate = (back?: string): FormRefusal => new FormRefusal(403, FORM_OUT_OF_DATE, 'expired', back);

/** requireUser's refusal as an error: a role's 403 marked as one (so a browser gets the page), anything else (401) as it was. */
export function refusalError(who: { refused?: ConsoleAnswer; permission?: Permission }): ApiError {
  const { status, body } = who.refused!;
  const error = (body as { error: string }).error;
  if (status === 403 && who.permission) return new FormRefusal(status, error, 'role', undefined, who.permission);
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

/** The Refused page's address for a refusal of `action`'s form. */
export function refusedLocation(refusal: FormRefusal, action: string): string {
  const query: Record<string, string> =
    refusal.why === 'role' && refusal.permission
      ? { why: 'role', permission: refusal.permission }
      : { why: 'expired', back: refusal.back ?? FORM_PAGES[action] ?? '/' };
  return `/refused?${new URLSearchParams(query)}`;
}

/** For a browser's form post refused with a FormRefusal, the 303 to the Refused page; undefined otherwise (the error stands). */
export function refusedAnswer(err: unknown, headers: Record<string, string | string[] | undefined>, action: string): ApiAnswer | undefined {
  if (!(err instanceof FormRefusal) || !browserFormPost(headers)) return undefined;
  const location = refusedLocation(err, action);
  return { status: 303, body: { location }, headers: { Location: location } };
}

/** What the Refused page says: its heading and sentences, from its address (only its own words, whatever the address holds). */
export function refusedText(query: { why: string; permission: string }, role: Role): { why: 'role' | 'expired'; heading: string; lines: string[] } {
  const permission = query.permission;
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
  // an expired form, or a role that may do it after all (it changed back): the page again has what is needed
  return {
    why: 'expired',
    heading: 'This page had expired',
    lines: ['Nothing was changed: the page you sent the form from had expired. Open it again and try again.'],
  };
}
