/**
 * POST /api/events, the route's work (pages/api/events.ts mounts it): a batch from one visit,
 * checked by the shared handler (JSON only, at most EVENTS_BODY_LIMIT bytes, the schema in
 * schemas/api/events.schema.json, a per-client rate limit), turned into rows with the brand and
 * host of the request and the device class of its user agent, and handed to the traffic writer.
 * The answer (202) does not wait for the database. No IP address is stored: it keys the rate
 * limit only. A visitor who opted out (GPC, or the Do-Not-Sell cookie) is counted, without click ids.
 */
import type { IncomingMessage } from 'node:http';
import schema from '../../schemas/api/events.schema.json' with { type: 'json' };
import type { EventBatch } from '../../schemas/api.types';
import { brandOfRequest, clientIp, readJsonBody, requireMethod, trustProxyHeaders, userAgent } from '../http/api';
import { enforceRateLimit, RATE_RULES } from '../http/rateLimit';
import { requestHost } from '../hosts';
import { privacyOptedOut } from '../privacy';
import type { TrafficBatch } from '../store/traffic';
import { deviceClass, metricOf, visitRow } from './rules';

export const EVENTS_BODY_LIMIT = 16 * 1024;

/** The rows a checked body becomes (pure: the tests call it with any context). */
export function batchOf(body: EventBatch, ctx: { brand: string; host: string; userAgent: string; optedOut: boolean; now: Date }): TrafficBatch {
  const createdAt = ctx.now.toISOString();
  const device = deviceClass(ctx.userAgent);
  return {
    visits: body.landing ? [visitRow(body.visitId, body.landing, ctx)] : [],
    events: body.events.map((e) => ({
      visitId: body.visitId,
      metric: metricOf(e),
      path: e.path,
      state: e.state ?? '',
      value: 0,
      brand: ctx.brand,
      device,
      createdAt,
    })),
  };
}

/** Reads and checks the request; the batch to write, or an ApiError (4xx with the reason). */
export async function acceptEvents(req: IncomingMessage, now = new Date()): Promise<TrafficBatch> {
  requireMethod(req, ['POST']);
  const loaded = brandOfRequest(req);
  await enforceRateLimit(RATE_RULES.events, clientIp(req));
  const body = await readJsonBody<EventBatch>(req, { limit: EVENTS_BODY_LIMIT, schema });
  const forwardedHost = req.headers['x-forwarded-host'];
  const host = requestHost({ host: req.headers.host, forwardedHost: Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost }, trustProxyHeaders());
  return batchOf(body, { brand: loaded.brand.id, host, userAgent: userAgent(req), optedOut: privacyOptedOut(req.headers), now });
}
