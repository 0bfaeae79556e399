/**
 * Error reports from the server: a failed getStaticProps, an API 5xx — sent to SENTRY_DSN
 * (Sentry or GlitchTip) as envelopes. (The browser posts its own straight to the DSN:
 * engine/errors/reporterScript.mjs.) No DSN → nothing is sent. Release = the git commit the build was made from
 * (next.config.ts puts it in LOANSITES_RELEASE); brand as a tag.
 *
 * Per server process: the same report (fingerprint) at most once a minute, and at most
 * SENTRY_MAX_PER_MINUTE (default 60) reports a minute in all, so an outage does not use up the
 * project's quota. Sending never throws and never delays the response (fire and forget with a
 * 5 s time-out).
 */
import { authHeader, envelopeOf, fingerprint, parseDsn, serverEvent, type Dsn, type SentryEvent } from './envelope';

export const release = (): string => process.env.LOANSITES_RELEASE || 'unknown';
export const environment = (): string => process.env.SENTRY_ENVIRONMENT || process.env.LOANSITES_DEPLOYMENT || process.env.NODE_ENV || 'production';

let cachedDsn: { text: string | undefined; dsn: Dsn | undefined } | undefined;
export function configuredDsn(): Dsn | undefined {
  const text = process.env.SENTRY_DSN;
  if (cachedDsn && cachedDsn.text === text) return cachedDsn.dsn;
  const dsn = parseDsn(text);
  if (text?.trim() && !dsn) console.warn('[errors] SENTRY_DSN is not a DSN (https://KEY@host/PROJECT): error reports are off');
  cachedDsn = { text, dsn };
  return dsn;
}

/** Deduplication and the cap: pure over a state object and the clock (tested on its own). */
export interface Gate {
  seen: Map<string, number>;
  windowStart: number;
  count: number;
}
export const newGate = (): Gate => ({ seen: new Map(), windowStart: 0, count: 0 });
export function admit(gate: Gate, key: string, now: number, maxPerMinute: number): boolean {
  if (now - gate.windowStart >= 60_000) {
    gate.windowStart = now;
    gate.count = 0;
    for (const [k, at] of gate.seen) if (now - at >= 60_000) gate.seen.delete(k);
  }
  const last = gate.seen.get(key);
  if (last !== undefined && now - last < 60_000) return false;
  if (gate.count >= maxPerMinute) return false;
  gate.seen.set(key, now);
  gate.count++;
  return true;
}

const gate = newGate();
const maxPerMinute = () => Number(process.env.SENTRY_MAX_PER_MINUTE ?? 60);

/** Sends one event; resolves to whether it was sent (false without a DSN, deduplicated or capped). */
export async function sendEvent(event: SentryEvent): Promise<boolean> {
  const dsn = configuredDsn();
  if (!dsn) return false;
  if (!admit(gate, fingerprint(event), Date.now(), maxPerMinute())) return false;
  try {
    const res = await fetch(dsn.envelopeUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-sentry-envelope', 'X-Sentry-Auth': authHeader(dsn) },
      body: envelopeOf(event, dsn),
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) console.warn(`[errors] the error-report service answered ${res.status}`);
    return res.ok;
  } catch (err) {
    console.warn('[errors] the error report could not be sent:', (err as Error).message);
    return false;
  }
}

/** A server-side error → one report (fire and forget). `kind` says where: getStaticProps, api. */
export function reportServerError(err: unknown, ctx: { kind: string; brand?: string; url?: string; method?: string }): void {
  if (!configuredDsn()) return;
  const tags: Record<string, string> = { kind: ctx.kind, ...(ctx.brand ? { brand: ctx.brand } : {}) };
  void sendEvent(
    serverEvent(err, {
      release: release(),
      environment: environment(),
      tags,
      ...(ctx.url ? { url: ctx.url } : {}),
      ...(ctx.method ? { method: ctx.method } : {}),
    }),
  );
}
