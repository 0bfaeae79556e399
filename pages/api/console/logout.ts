/** POST /api/console/logout — a console form post (engine/console/formRoutes.ts logoutRoute); on the console host only (engine/frontDoor/consolePath.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logoutRoute } from '../../../engine/console/formRoutes';
import { handleApi } from '../../../engine/http/api';
import { getStore } from '../../../engine/store/db';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => logoutRoute(await getStore(), req));
}
