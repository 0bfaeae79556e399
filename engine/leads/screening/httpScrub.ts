/**
 * An outside scrub reached over HTTP (SCREENING_SCRUB_URL): the service a brand contracts for
 * Do-Not-Call and known-litigator checks, or a gateway in front of several. One POST per lead with
 * `{"phone", "email", "country"}` (JSON; `Authorization: Bearer <SCREENING_SCRUB_TOKEN>` when set),
 * answered 200 `{"codes": [...]}` with any of the scrub codes (`scrub-dnc`, `scrub-litigator`;
 * others are ignored). Within SCREENING_SCRUB_TIMEOUT_MS (default 300) or it counts as "could not
 * run": a timeout, a refused connection, a non-200 or a body that is not that JSON. What that
 * does is the brand's `screening.checks.scrub.whenUnavailable`: open (the default) scores the lead
 * as if it were clear, closed adds `scrub-unavailable` (and refuses it if the check refuses). A
 * failure is logged once a minute at most, so a service that is down shows in the log without
 * flooding it.
 */
import { REASONS, type ReasonCode } from './codes';
import type { Scrub } from './scrubs';

type Env = Record<string, string | undefined>;

export const DEFAULT_SCRUB_TIMEOUT_MS = 300;

/** SCREENING_SCRUB_TIMEOUT_MS: whole milliseconds from 1 to 10,000; anything else is the default. */
export function scrubTimeoutMs(env: Env = process.env): number {
  const ms = Number(env.SCREENING_SCRUB_TIMEOUT_MS);
  return Number.isInteger(ms) && ms >= 1 && ms <= 10_000 ? ms : DEFAULT_SCRUB_TIMEOUT_MS;
}

const isScrubCode = (c: unknown): c is ReasonCode => typeof c === 'string' && Object.hasOwn(REASONS, c) && REASONS[c as ReasonCode].check === 'scrub';

let lastWarning = 0;
function warn(url: string, why: string): void {
  const now = Date.now();
  if (now - lastWarning < 60_000) return;
  lastWarning = now;
  console.warn(`[screening] the outside scrub at ${url} could not answer (${why}): leads are scored as the brand's scrub.whenUnavailable says`);
}

export function httpScrub(url: string, token = ''): Scrub {
  return {
    name: `scrub ${new URL(url).host}`,
    async check(q, signal) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ phone: q.phone, email: q.email, country: q.country }),
          signal,
        });
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        const body = (await res.json()) as { codes?: unknown };
        if (!Array.isArray(body?.codes)) throw new Error('no codes in the answer');
        return body.codes.filter(isScrubCode);
      } catch (err) {
        warn(url, signal.aborted ? 'no answer in time' : (err as Error).message);
        throw err;
      }
    },
  };
}

/** The scrub SCREENING_SCRUB_URL names (none when unset, or not an http(s) URL: then said once). */
export function scrubFromEnv(env: Env = process.env): Scrub | undefined {
  const url = env.SCREENING_SCRUB_URL?.trim();
  if (!url) return undefined;
  if (!/^https?:\/\/[^/]/.test(url)) {
    console.warn(`[screening] SCREENING_SCRUB_URL=${url} is not an http(s) URL: no outside scrub is consulted`);
    return undefined;
  }
  return httpScrub(url, env.SCREENING_SCRUB_TOKEN ?? '');
}
