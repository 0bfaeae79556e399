/**
 * What server.mjs loads of the front door: compiled with what it imports into one plain
 * JavaScript module at build time (scripts/build-front-door.ts → .next/front-door.mjs), because
 * server.mjs runs on plain Node, before and beside Next, and the engine is TypeScript.
 */
export { decide, consoleHostsOf, isStagingHost, permissionsPolicy, productionHosts, type Decision, type Door, type RequestFacts } from './frontDoor';
export { requestHost } from '../site/hosts';
export { answerOf } from './answers';
export { getCatalog } from '../site/catalog';
export { watchBrandRevisions } from '../site/brandLive';
export { previewModeId } from './previewMode';
export { demoLenderAvailable } from '../sale/demoAvailable';
export { warmUpCountOf, warmUpPages } from './warmUp';

import type { Catalog } from '../site/catalog';
import { decideRoute, REFUSED_METHODS, type Decision, type Door, type RequestFacts } from './frontDoor';
import { withVariant } from './experiment';

/**
 * `decide`, with a brand page's decision remembered per host and target (bounded) for as long as
 * the catalog is the same object: matching a path against a brand's routes costs ~20 µs, a
 * sizeable part of a replayed cache hit. Only page decisions are kept: they depend on nothing
 * but the host, the target, the catalog and the environment. Kept by host, then by target, so a
 * hit looks up the strings as the request has them (no key joined from them on every request);
 * a remembered decision is the same object on every hit (the replay keys its own work by it).
 * What is remembered is the route; a page under an experiment then gets the visitor's variant
 * (./experiment.ts), itself one object per variant.
 */
export function rememberingPages(max = 4096): (req: RequestFacts, door: Door) => Decision {
  let catalog: Catalog | undefined;
  const pages = new Map<string, Map<string, Decision>>();
  let size = 0;
  return (req, door) => {
    if (door.catalog !== catalog) {
      pages.clear();
      size = 0;
      catalog = door.catalog;
    }
    // no X-Forwarded-Host and an empty one are different requests (the second is refused): never one key
    const host = door.trustForwardedHost && req.forwardedHost !== undefined ? `${req.host}\n${req.forwardedHost}` : `${req.host}`;
    // a request with two Host headers is refused by decideRoute, never answered from the first one's pages
    const known = (req.hostHeaders ?? 1) > 1 ? undefined : pages.get(host)?.get(req.target);
    if (known && !REFUSED_METHODS.has(req.method)) return withVariant(known, req, door);
    const d = decideRoute(req, door);
    if (d.kind === 'page' && host.length + req.target.length < 1024) {
      if (size >= max) {
        pages.clear();
        size = 0;
      }
      let targets = pages.get(host);
      if (!targets) pages.set(host, (targets = new Map()));
      if (!targets.has(req.target)) size++;
      targets.set(req.target, d);
    }
    return withVariant(d, req, door);
  };
}
