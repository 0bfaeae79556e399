/**
 * POST /api/events — first-party funnel events from the brand pages (engine/traffic/eventsApi.ts):
 * checked, then queued for the traffic writer; 202 before anything is written ({accepted, visitId}
 * for a visit's first batch, which is how the browser gets its visit's id).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleApi } from '../../engine/http/api';
import { acceptEvents } from '../../engine/traffic/eventsApi';
import { sharedTrafficWriter } from '../../engine/traffic/writer';

export const config = { api: { bodyParser: false } };

export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => {
    const { visitId, issued, ...batch } = await acceptEvents(req);
    sharedTrafficWriter().add(batch);
    // A visit's first batch learns its id here (the page it came from may be a cached one).
    return { status: 202, body: { accepted: batch.events.length, ...(issued ? { visitId } : {}) } };
  });
}
