/** POST /api/console/login — a console form post (engine/console/formRoutes.ts loginRoute); on the console host only (engine/frontDoor/consolePath.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loginRoute } from '../../../engine/console/formRoutes';
import { handleApi } from '../../../engine/http/api';
import { getStore } from '../../../engine/store/db';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => loginRoute(await getStore(), req));
}
