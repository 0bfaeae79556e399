/**
 * The Sentry envelope protocol, as far as we use it (https://develop.sentry.dev/sdk/envelopes/):
 * a DSN → its envelope endpoint and auth header; an error → an event; event ↔ envelope text.
 * Pure functions; GlitchTip accepts the same. Table tests: tests/unit/error-reports.test.ts.
 */

import type { Dsn } from './dsn.mjs';

export { parseDsn, type Dsn } from './dsn.mjs';

export const authHeader = (dsn: Dsn, client = 'loansites/1.0') => `Sentry sentry_version=7, sentry_client=${client}, sentry_key=${dsn.publicKey}`;

export interface SentryEvent {
  event_id: string;
  timestamp: number;
  platform: string;
  level: 'error' | 'warning' | 'fatal';
  release?: string;
  environment?: string;
  server_name?: string;
  tags?: Record<string, string>;
  request?: { url?: string; method?: string; headers?: Record<string, string> };
  exception?: {
    values: { type: string; value: string; stacktrace?: { frames: { filename?: string; function?: string; lineno?: number; colno?: number }[] } }[];
  };
  extra?: Record<string, unknown>;
  [key: string]: unknown;
}

export const newEventId = (): string => crypto.randomUUID().replace(/-/g, '');

/** "    at fn (file.js:10:5)" lines → Sentry frames, oldest first (as Sentry wants them). */
export function stackFrames(stack: string | undefined): { filename?: string; function?: string; lineno?: number; colno?: number }[] {
  const frames: { filename?: string; function?: string; lineno?: number; colno?: number }[] = [];
  for (const line of (stack ?? '').split('\n').slice(1, 51)) {
    const m = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (m) frames.push({ ...(m[1] ? { function: m[1] } : {}), filename: m[2]!, lineno: Number(m[3]), colno: Number(m[4]) });
  }
  return frames.reverse();
}

/** An error thrown on the server → an event. */
export function serverEvent(
  err: unknown,
  ctx: { release: string; environment: string; tags: Record<string, string>; url?: string; method?: string; now?: Date },
): SentryEvent {
  const error = err instanceof Error ? err : new Error(typeof err === 'string' ? err : JSON.stringify(err));
  const frames = stackFrames(error.stack);
  return {
    event_id: newEventId(),
    timestamp: (ctx.now ?? new Date()).getTime() / 1000,
    platform: 'node',
    level: 'error',
    release: ctx.release,
    environment: ctx.environment,
    tags: ctx.tags,
    ...(ctx.url ? { request: { url: ctx.url, ...(ctx.method ? { method: ctx.method } : {}) } } : {}),
    exception: { values: [{ type: error.name || 'Error', value: error.message.slice(0, 2000), ...(frames.length ? { stacktrace: { frames } } : {}) }] },
  };
}

/** An event → envelope text: header line, item header line, payload. */
export function envelopeOf(event: SentryEvent, dsn?: Dsn, now = new Date()): string {
  const header = { event_id: event.event_id, sent_at: now.toISOString(), ...(dsn ? { dsn: dsn.dsn } : {}) };
  return `${JSON.stringify(header)}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify(event)}\n`;
}

/** What makes two reports "the same" for deduplication: type, message and the top of the stack. */
export function fingerprint(event: SentryEvent): string {
  const ex = event.exception?.values?.[0];
  const top =
    ex?.stacktrace?.frames
      ?.slice(-3)
      .map((f) => `${f.filename}:${f.lineno}`)
      .join('|') ?? String((event.extra as { stack?: unknown } | undefined)?.stack ?? '').slice(0, 300);
  return `${event.tags?.brand ?? ''}|${ex?.type ?? ''}|${ex?.value ?? event.message ?? ''}|${top}`;
}
