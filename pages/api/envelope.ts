/**
 * POST /api/envelope: the browser's error reporter (engine/errors/reporterScript.mjs) posts its
 * Sentry envelopes here, to the site's own origin, and the server forwards them to SENTRY_DSN.
 * Why not straight to the DSN: pages are cached (ISR) and built before the deployment's
 * environment is known, so the page cannot carry the DSN; the policy's connect-src stays
 * 'self'; and blockers that drop requests to error services do not drop these.
 *
 * One event per envelope, at most 64 KiB; the brand tag is the host's brand (never the body's);
 * 30 a minute per client (RATE_LIMIT_ERROR_REPORTS), deduplicated and capped per process like
 * every report (engine/errors/report.ts). No DSN → 404 and the reporter stops for the page view.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, brandOfRequest, clientIp, handleApi, readRawBody, requireMethod } from '../../engine/http/api';
import { enforceRateLimit, RATE_RULES } from '../../engine/http/rateLimit';
import { EnvelopeError, eventOfEnvelope } from '../../engine/errors/envelope';
import { configuredDsn, environment, release, sendEvent } from '../../engine/errors/report';

export const config = { api: { bodyParser: false } };

export const ENVELOPE_BODY_LIMIT = 64 * 1024;

export default function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleApi(req, res, async () => {
    requireMethod(req, ['POST']);
    const brand = brandOfRequest(req);
    if (!configuredDsn()) throw new ApiError(404, 'Error reports are not collected on this server');
    await enforceRateLimit(RATE_RULES.errorReports, clientIp(req));
    const raw = await readRawBody(req, ENVELOPE_BODY_LIMIT);
    let event;
    try {
      event = eventOfEnvelope(raw.toString('utf8'));
    } catch (err) {
      if (err instanceof EnvelopeError) throw new ApiError(400, err.message);
      throw err;
    }
    const tags = typeof event.tags === 'object' && event.tags && !Array.isArray(event.tags) ? event.tags : {};
    event.tags = { ...tags, brand: brand.brand.id };
    event.release = typeof event.release === 'string' && event.release ? event.release : release();
    event.environment = typeof event.environment === 'string' && event.environment ? event.environment : environment();
    event.platform = 'javascript';
    const sent = await sendEvent(event);
    return { status: sent ? 202 : 200, body: { id: event.event_id, sent } };
  });
}
