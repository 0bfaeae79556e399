/**
 * The Sentry envelope protocol, as far as we use it (https://develop.sentry.dev/sdk/envelopes/):
 * a DSN → its envelope endpoint and auth header; an error → an event; event ↔ envelope text.
 * Pure functions; GlitchTip accepts the same. Table tests: tests/unit/error-reports.test.ts.
 */

export interface Dsn {
  /** https://host[:port][/path]/api/{project}/envelope/ */
  envelopeUrl: string;
  publicKey: string;
  projectId: string;
  /** the DSN as written, for the envelope header */
  dsn: string;
}

/** "https://KEY@host[:port][/path]/PROJECT" → its parts; undefined for anything else. */
export function parseDsn(text: string | undefined): Dsn | undefined {
  if (!text?.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.username) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  const projectId = parts.pop();
  if (!projectId || !/^\d+$/.test(projectId)) return undefined;
  const prefix = parts.length ? `/${parts.join('/')}` : '';
  return { envelopeUrl: `${url.protocol}//${url.host}${prefix}/api/${projectId}/envelope/`, publicKey: decodeURIComponent(url.username), projectId, dsn: text.trim() };
}

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
  exception?: { values: { type: string; value: string; stacktrace?: { frames: { filename?: string; function?: string; lineno?: number; colno?: number }[] } }[] };
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
export function serverEvent(err: unknown, ctx: { release: string; environment: string; tags: Record<string, string>; url?: string; method?: string; now?: Date }): SentryEvent {
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

export class EnvelopeError extends Error {}

/**
 * Envelope text → its single event (what the browser reporter sends). Items are read by their
 * length when given, else up to the newline; exactly one item of type "event" is accepted.
 */
export function eventOfEnvelope(text: string): SentryEvent {
  const lines = text.split('\n');
  if (lines.length < 3) throw new EnvelopeError('An envelope has a header line, an item header line and a payload');
  let header: unknown;
  let itemHeader: unknown;
  try {
    header = JSON.parse(lines[0]!);
    itemHeader = JSON.parse(lines[1]!);
  } catch {
    throw new EnvelopeError('The envelope headers are not JSON');
  }
  if (!header || typeof header !== 'object') throw new EnvelopeError('The envelope header is not an object');
  const item = itemHeader as { type?: unknown; length?: unknown };
  if (item?.type !== 'event') throw new EnvelopeError('Only an event item is accepted');
  const rest = lines.slice(2).join('\n');
  const payload = typeof item.length === 'number' ? Buffer.from(rest, 'utf8').subarray(0, item.length).toString('utf8') : lines[2]!;
  let event: unknown;
  try {
    event = JSON.parse(payload);
  } catch {
    throw new EnvelopeError('The event is not JSON');
  }
  if (!event || typeof event !== 'object' || Array.isArray(event)) throw new EnvelopeError('The event is not an object');
  const e = event as Partial<SentryEvent>;
  if (typeof e.event_id !== 'string' || !/^[0-9a-f]{32}$/.test(e.event_id)) throw new EnvelopeError('The event has no valid event_id');
  return e as SentryEvent;
}

/** What makes two reports "the same" for deduplication: type, message and the top of the stack. */
export function fingerprint(event: SentryEvent): string {
  const ex = event.exception?.values?.[0];
  const top = ex?.stacktrace?.frames?.slice(-3).map((f) => `${f.filename}:${f.lineno}`).join('|') ?? String((event.extra as { stack?: unknown } | undefined)?.stack ?? '').slice(0, 300);
  return `${event.tags?.brand ?? ''}|${ex?.type ?? ''}|${ex?.value ?? event.message ?? ''}|${top}`;
}
