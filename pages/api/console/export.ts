/** POST /api/console/export — the leads CSV (engine/console/exportRoute.ts); on the console host only (engine/frontDoor/consolePath.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportRoute } from '../../../engine/console/exportRoute';
import { getStore } from '../../../engine/store/db';

export const config = { api: { bodyParser: false } };

export default async function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return exportRoute(await getStore(), req, res);
}
