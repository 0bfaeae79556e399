/**
 * The pages a production server renders at start, before it accepts connections, to have the
 * render path compiled (server.mjs; engine/http/coldPageRender.mjs warmUp renders them and keeps
 * nothing): a spread over every brand and every route of each, as the sitemaps list them, so
 * that every template and block the brands use has run a few times.
 */
import { routePaths } from '../site/seo/sitemap';
import { decideRoute, type Door } from './frontDoor';

/** How many pages when WARM_UP_PAGES does not say (0 turns the warm-up off). */
export const WARM_UP_PAGES_DEFAULT = 0;

/** WARM_UP_PAGES as a count of pages; a value that is not a whole number ≥ 0 is refused with the reason. */
export function warmUpCountOf(env: Record<string, string | undefined>): { count: number } | { problem: string } {
  const raw = env.WARM_UP_PAGES?.trim();
  if (raw === undefined || raw === '') return { count: WARM_UP_PAGES_DEFAULT };
  if (!/^\d{1,6}$/.test(raw)) return { problem: `WARM_UP_PAGES must be a whole number of pages (0 turns the warm-up off), not ${JSON.stringify(raw)}` };
  return { count: Number(raw) };
}

/**
 * Up to `count` brand pages, one route of one brand at a time in turn (every route of every brand
 * once, then the next page of each, …): each the front door's own decision for the path on the
 * brand's first host, so a page the front door would not render (a blog-only host, …) is left out.
 * The internal page path and the host it is asked on.
 */
export function warmUpPages(door: Door, count: number): { page: string; host: string }[] {
  const sources = [...door.catalog.brands.values()].flatMap((loaded) => {
    const host = loaded.brand.hosts[0];
    return host ? loaded.routes.map((route) => ({ host, paths: routePaths(loaded, route) })) : [];
  });
  const out: { page: string; host: string }[] = [];
  const seen = new Set<string>();
  while (out.length < count && sources.length) {
    for (let i = 0; i < sources.length && out.length < count;) {
      const source = sources[i]!;
      const next = source.paths.next();
      if (next.done) {
        sources.splice(i, 1);
        continue;
      }
      const d = decideRoute({ method: 'GET', target: next.value, host: source.host }, door);
      if (d.kind === 'page' && !seen.has(d.page)) {
        seen.add(d.page);
        out.push({ page: d.page, host: source.host });
      }
      i++;
    }
  }
  return out;
}
