/**
 * POST /api/events — first-party funnel events from the brand pages (engine/traffic/eventsApi.ts):
 * checked, then queued for the traffic writer; 202 before anything is written.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleApi } from '../../engine/http/api';
import { acceptEvents } from '../../engine/traffic/eventsApi';
import { sharedTrafficWriter } from '../../engine/traffic/writer';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => {
    const batch = await acceptEvents(req);
    sharedTrafficWriter().add(batch);
    return { status: 202, body: { accepted: batch.events.length } };
  });
}
