/**
 * Pages every brand has without listing them in its file: the engine adds these routes after the
 * brand's own (a brand that lists the same path keeps its own), each to a shared layout in
 * brands/layouts/. One place for a page the law or the business wants on every site, rather than
 * twelve copies of the same route that could drift apart. Client-safe (the footer and the
 * application form link here).
 */
import type { Route } from '../../schemas/brand.types';

/** The contact opt-out page: a borrower revokes consent to calls, texts and emails. */
export const CONTACT_OPT_OUT_PATH = '/stop-calls-and-emails';
export const CONTACT_OPT_OUT_LABEL = 'Stop calls and emails';

export const SHARED_ROUTES: readonly Route[] = [{ path: CONTACT_OPT_OUT_PATH, layout: 'stop-calls-and-emails' }];

/** The brand's routes followed by the shared ones it does not list itself and whose layout exists. */
export function withSharedRoutes(routes: readonly Route[], hasLayout: (name: string) => boolean): Route[] {
  const own = new Set(routes.map((r) => r.path));
  return [...routes, ...SHARED_ROUTES.filter((r) => !own.has(r.path) && hasLayout(r.layout))];
}
