/** POST /api/console/reveal — a console form post (engine/console/formRoutes.ts revealRoute); on the console host only (engine/frontDoor/consolePath.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { revealRoute } from '../../../engine/console/formRoutes';
import { handleApi } from '../../../engine/http/api';
import { getStore } from '../../../engine/store/db';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => revealRoute(await getStore(), req));
}
