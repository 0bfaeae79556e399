/**
 * What server.mjs loads of the front door: compiled with what it imports into one plain
 * JavaScript module at build time (scripts/build-front-door.ts → .next/front-door.mjs), because
 * server.mjs runs on plain Node, before and beside Next, and the engine is TypeScript.
 */
export { decide, consoleHostsOf, permissionsPolicy, productionHosts, type Decision, type Door, type RequestFacts } from './frontDoor';
export { requestHost } from '../hosts';
export { answerOf } from './frontDoorAnswers';
export { getCatalog } from '../catalog';
export { previewModeId } from './previewMode';
export { demoLenderAvailable } from '../sale/demoAvailable';

import type { Catalog } from '../catalog';
import { decide, REFUSED_METHODS, type Decision, type Door, type RequestFacts } from './frontDoor';

/**
 * `decide`, with a brand page's decision remembered per host and target (bounded) for as long as
 * the catalog is the same object: matching a path against a brand's routes costs ~20 µs, a
 * sizeable part of a replayed cache hit. Only page decisions are kept: they depend on nothing
 * but the host, the target, the catalog and the environment.
 */
export function rememberingPages(max = 4096): (req: RequestFacts, door: Door) => Decision {
  let catalog: Catalog | undefined;
  const pages = new Map<string, Decision>();
  return (req, door) => {
    if (door.catalog !== catalog) {
      pages.clear();
      catalog = door.catalog;
    }
    const key = `${req.host}\n${door.trustForwardedHost ? req.forwardedHost : ''}\n${req.target}`;
    const known = pages.get(key);
    if (known && !REFUSED_METHODS.has(req.method)) return known;
    const d = decide(req, door);
    if (d.kind === 'page' && key.length < 1024) {
      if (pages.size >= max) pages.clear();
      pages.set(key, d);
    }
    return d;
  };
}
