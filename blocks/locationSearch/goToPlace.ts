/**
 * From a chosen place to the brand's page for it: the server picks the page from the brand's
 * routes (GET /api/place-page, engine/site/placePage.ts), then the router goes there.
 */
import { pushPage } from '../chrome/navigate';

export async function placePagePath(place: { state: string; city?: string }, loanType: string): Promise<string> {
  const query = new URLSearchParams({ state: place.state, loanType, ...(place.city ? { city: place.city } : {}) });
  const res = await fetch(`/api/place-page?${query}`, { headers: { Accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`No page for that place (${res.status})`);
  return ((await res.json()) as { path: string }).path;
}

export const goTo = (path: string) => pushPage(path);
