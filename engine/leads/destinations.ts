/**
 * LEAD_DESTINATIONS is the short form of deliver-mode buyers (buyers/*.json with "mode":
 * "deliver"): each entry gets every lead of its brand at once, as before the sale existed.
 * Deliver buyer documents get, through the same outbox, the leads nobody bought.
 *
 * The lead buyers per brand, from LEAD_DESTINATIONS (JSON, schemas/lead-destinations.schema.json):
 *   {"ipaydayloans": [{"name": "buyer-a", "url": "https://buyer.example/leads", "secret": "…"}], "*": […]}
 * Secrets stay in the environment, never in brand files. A malformed value is a startup error
 * that says what is wrong; no value means leads are stored only.
 */
import schema from '../../schemas/lead-destinations.schema.json' with { type: 'json' };
import { validatorFor } from '../http/api';
import { toProblems } from '../validate/problems';

export interface LeadDestination {
  name: string;
  url: string;
  secret: string;
  timeoutMs?: number;
  /** receives test leads too (engine/leads/environment.ts); default: production leads only */
  acceptsTestLeads?: boolean;
}

export type DestinationMap = Record<string, LeadDestination[]>;

export function parseDestinations(text: string | undefined): DestinationMap {
  if (!text?.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`LEAD_DESTINATIONS is not valid JSON: ${(err as Error).message}`);
  }
  const validate = validatorFor<DestinationMap>(schema);
  if (!validate(value))
    throw new Error(
      `LEAD_DESTINATIONS is not valid: ${toProblems(validate.errors)
        .map((p) => `${p.pointer || '/'}: ${p.message}`)
        .join('; ')}`,
    );
  const plain = Object.entries(value).flatMap(([brand, list]) =>
    list.flatMap((d, i) => (cleartextElsewhere(d.url) ? [`/${brand}/${i}/url: ${CLEARTEXT}, not ${d.url}`] : [])),
  );
  if (plain.length) throw new Error(`LEAD_DESTINATIONS is not valid: ${plain.join('; ')}`);
  return value;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
const CLEARTEXT =
  "must be https: each lead carries the borrower's contact, date of birth and income (http only on 127.0.0.1 or localhost, for a local stand-in, as for buyer documents)";

/** An http URL to another machine: the lead would cross the network in clear text. */
const cleartextElsewhere = (url: string): boolean => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && !LOOPBACK.test(u.hostname);
  } catch {
    return false;
  }
};

let cached: { text: string | undefined; map: DestinationMap } | undefined;

/** The configured destinations (re-read when the variable changes, as tests do). */
export function configuredDestinations(env: Record<string, string | undefined> = process.env): DestinationMap {
  const text = env.LEAD_DESTINATIONS;
  if (!cached || cached.text !== text) cached = { text, map: parseDestinations(text) };
  return cached.map;
}

/** A brand's destinations: its own, then the "*" ones (a name listed twice counts once). */
export function destinationsOf(brandId: string, map: DestinationMap = configuredDestinations()): LeadDestination[] {
  const out = new Map<string, LeadDestination>();
  for (const d of [...(map[brandId] ?? []), ...(map['*'] ?? [])]) if (!out.has(d.name)) out.set(d.name, d);
  return [...out.values()];
}

/**
 * An outbox row's destination by name: a LEAD_DESTINATIONS entry of the brand, or a deliver
 * buyer document ("buyer:<id>", queued by the sale for an unsold lead).
 */
export function findDestination(brandId: string, name: string, buyerById: (id: string) => LeadDestination | undefined): LeadDestination | undefined {
  if (name.startsWith('buyer:')) return buyerById(name.slice('buyer:'.length));
  return destinationsOf(brandId).find((d) => d.name === name);
}
