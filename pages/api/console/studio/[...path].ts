/**
 * /api/console/studio/… — the brand studio's JSON API, on the console host only
 * (engine/frontDoor/consolePath.ts): engine/console/studioApi.ts answers; the contract is in
 * docs/engineers/studio-api.md. Each request's body is read, capped and checked there (its size
 * and schema depend on the path), so Next's parser is off.
 */
import { studioRoute } from '../../../../engine/console/studioApi';
import { route } from '../../../../engine/http/route';
import { setBlockSpecs } from '../../../../engine/site/catalog';
import { BLOCK_SPECS } from '../../../../blocks/generated/specs';

export const config = { api: { bodyParser: false } };

// the studio checks documents against the catalog, whose blocks are checked by their specs
setBlockSpecs(BLOCK_SPECS);

/** The path after /api/console/studio/, from the URL (so the route runs the same on a bare node:http server). */
const segmentsOf = (url: string | undefined) =>
  new URL(url ?? '/', 'http://x').pathname
    .replace(/^\/api\/console\/studio\/?/, '')
    .split('/')
    .filter(Boolean);

export default route({ methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] }, async ({ req, store }) => studioRoute(await store(), req, segmentsOf(req.url)));
