/**
 * POST /api/events — first-party funnel events from the brand pages (engine/traffic/eventsApi.ts):
 * checked, then queued for the traffic writer; 202 before anything is written ({accepted, visitId}
 * for a visit's first batch, which is how the browser gets its visit's id).
 */
import schema from '../../schemas/api/events.schema.json' with { type: 'json' };
import type { EventBatch } from '../../schemas/api.types';
import { json, route } from '../../engine/http/route';
import { RATE_RULES } from '../../engine/http/rateLimit';
import { acceptEvents } from '../../engine/traffic/eventsApi';
import { sharedTrafficWriter } from '../../engine/traffic/writer';

export const config = { api: { bodyParser: false } };

export default route(
  { methods: ['POST'], brand: true, rate: RATE_RULES.events, body: json<EventBatch>(schema, 16 * 1024) },
  async ({ req, body, brand, host, ip }) => {
    const { visitId, issued, ...batch } = await acceptEvents({ body, brand: brand.brand.id, host, req, ip });
    sharedTrafficWriter().add(batch);
    // A visit's first batch learns its id here (the page it came from may be a cached one).
    return { status: 202, body: { accepted: batch.events.length, ...(issued ? { visitId } : {}) } };
  },
);
