/**
 * POST /api/trace/session (SPEC §7 Session trace): {source1, source2, clickId, uuid, ggClientId}
 * checked against schemas/api/trace-session.schema.json (JSON only, at most 4 KB), stored with
 * server time, the brand of the host (never from the body), the user agent and a truncated IP.
 * Idempotent on uuid: 201 when stored now, 200 when it was stored already. 60 posts a minute per
 * client (RATE_LIMIT_SESSION_TRACE), then 429 with Retry-After.
 */
import schema from '../../../schemas/api/trace-session.schema.json' with { type: 'json' };
import { truncateIp, userAgent } from '../../../engine/http/api';
import { json, route } from '../../../engine/http/route';
import { RATE_RULES } from '../../../engine/http/rateLimit';
import { recordSessionTrace } from '../../../engine/store/sessionTraces';
import type { SessionTrace } from '../../../schemas/api.types';

export const config = { api: { bodyParser: false } };

export const SESSION_TRACE_BODY_LIMIT = 4096;

export default route(
  { methods: ['POST'], brand: true, rate: RATE_RULES.sessionTrace, body: json<SessionTrace>(schema, SESSION_TRACE_BODY_LIMIT) },
  async ({ req, body, brand, ip, store }) => {
    const created = await recordSessionTrace(await store(), {
      uuid: body.uuid,
      brand: brand.brand.id,
      source1: body.source1,
      source2: body.source2,
      clickId: body.clickId,
      gaClientId: body.ggClientId,
      userAgent: userAgent(req),
      ip: truncateIp(ip),
      createdAt: new Date().toISOString(),
    });
    return { status: created ? 201 : 200, body: { uuid: body.uuid, stored: created ? 'now' : 'already' } };
  },
);
