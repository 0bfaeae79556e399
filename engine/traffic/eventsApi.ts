/**
 * POST /api/events, the route's work (pages/api/events.ts declares it): a batch from one visit,
 * checked by its declaration (JSON only, at most 16 KB, the schema in
 * schemas/api/events.schema.json, a per-client rate limit), turned into rows with the brand and
 * host of the request and the device class of its user agent, and handed to the traffic writer.
 * The answer (202) does not wait for the database. No IP address is stored: it keys the rate
 * limit only. A visitor who opted out (GPC, or the Do-Not-Sell cookie) is counted, without click ids.
 *
 * The visit's id is the server's (./visitId.ts): a batch without one must bring its landing and
 * is answered with the new id; a batch with an id this site did not issue for this brand is
 * refused (403); a landing on a batch with an id is ignored (a visit keeps its first landing).
 * Past the visit's cap (RATE_RULES.eventsPerVisit), the client's share of events
 * (RATE_RULES.eventsPerClient, EVENTS_PER_CLIENT_PER_MINUTE) or the whole site's ingest budget
 * (RATE_RULES.eventsBudget, EVENTS_BUDGET_PER_MINUTE) a batch is refused with 429 and
 * Retry-After; events refused past the site's budget are counted so the overview can say its counts are short.
 */
import type { IncomingMessage } from 'node:http';
import type { EventBatch } from '../../schemas/api.types';
import { ApiError, userAgent } from '../http/api';
import { enforceRateLimit, RATE_RULES } from '../http/rateLimit';
import { privacyOptedOut } from '../browser/privacy';
import type { TrafficBatch } from '../store/traffic';
import { deviceClass, metricOf, visitRow } from '../store/trafficRules';
import { issueVisitId, verifyVisitId } from './visitId';
import { sharedTrafficWriter } from './writer';
import { exposuresOf } from './exposures';
import { getCatalog } from '../site/catalog';

/** A checked body with its visit's id (verified, or issued for it: `issued`). */
type VisitBatch = EventBatch & { visitId: string; issued: boolean };

/** The rows a checked body becomes (pure: the tests call it with any context). */
export function batchOf(body: VisitBatch, ctx: { brand: string; host: string; userAgent: string; optedOut: boolean; now: Date }): TrafficBatch {
  const createdAt = ctx.now.toISOString();
  const device = deviceClass(ctx.userAgent);
  return {
    // Only the batch the id was issued for says where the visit began. A landing on a later batch
    // is ignored: stored, it could beat the first to the table (another instance's writer may save
    // first) and give the visit another campaign; refused, it would take the batch's events with
    // it (beacons are not retried).
    visits: body.issued && body.landing ? [visitRow(body.visitId, body.landing, ctx)] : [],
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

/** The visit a checked body belongs to: its verified id, or a new one for a first batch (`issued`). */
export function visitOfBody(body: EventBatch, brand: string): { visitId: string; issued: boolean } {
  if (body.visitId === undefined) {
    if (!body.landing) throw new ApiError(400, 'A batch without a visitId is a visit’s first and must have its landing');
    return { visitId: issueVisitId(brand), issued: true };
  }
  if (!verifyVisitId(body.visitId, brand))
    throw new ApiError(403, 'visitId was not issued by this site for this brand; send the first batch without one to get one');
  return { visitId: body.visitId, issued: false };
}

/**
 * Counts the batch against its visit's cap, its client's share and the site's ingest budget; 429
 * past any. Events refused past the budget are counted (the funnel is short of them); past a
 * visit's cap or a client's share they are not (a visit that sent hundreds of events has reached
 * every stage it can count). The client's share comes before the budget: without it one client,
 * a new visit per batch within its allowance of posts, spends the whole site's budget and every
 * other visitor's events are refused until the minute ends.
 */
async function admit(visitId: string, issued: boolean, events: number, brand: string, ip: string): Promise<void> {
  if (!issued) await enforceRateLimit(RATE_RULES.eventsPerVisit, visitId, events, 'This visit has sent too many events');
  await enforceRateLimit(RATE_RULES.eventsPerClient, ip, events + (issued ? 1 : 0), 'This client has sent too many events');
  try {
    await enforceRateLimit(RATE_RULES.eventsBudget, 'all', events + (issued ? 1 : 0), 'The site is receiving more events than its budget');
  } catch (err) {
    sharedTrafficWriter().refuse(brand, events, new Date());
    throw err;
  }
}

/**
 * A batch that passed its route's declaration (pages/api/events.ts: POST, the brand of the host,
 * the per-client rate limit, the schema and cap) → the rows to write (and the visit's id,
 * `issued` when new), or an ApiError (4xx with the reason).
 */
export async function acceptEvents(
  { body, brand, host, req, ip }: { body: EventBatch; brand: string; host: string; req: IncomingMessage; ip: string },
  now = new Date(),
): Promise<TrafficBatch & { visitId: string; issued: boolean }> {
  const { visitId, issued } = visitOfBody(body, brand);
  await admit(visitId, issued, body.events.length, brand, ip);
  const batch = batchOf({ ...body, visitId, issued }, { brand, host, userAgent: userAgent(req), optedOut: privacyOptedOut(req.headers), now });
  const exposures = exposuresOf(body.events, { visitId, loaded: getCatalog().brands.get(brand), cookie: req.headers.cookie, now });
  return { ...batch, ...(exposures.length ? { exposures } : {}), visitId, issued };
}
