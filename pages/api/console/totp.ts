/** POST /api/console/totp — a console form post (engine/console/totpRoutes.ts): the sign-in code, and setting up an authenticator; on the console host only (engine/frontDoor/consolePath.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { totpRoute } from '../../../engine/console/totpRoutes';
import { handleApi } from '../../../engine/http/api';
import { getStore } from '../../../engine/store/db';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => totpRoute(await getStore(), req));
}
