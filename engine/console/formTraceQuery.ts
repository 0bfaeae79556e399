/**
 * A lead's form trace for the console (admin only, opened on demand, each opening audited). The
 * trace is stored sealed (engine/store/leads.ts recordFormTrace) without a lead id of its own: it
 * is the request the apply form posted and the answer it got, and that answer carries the id of
 * the lead it stored. So the traces of the lead's brand stored from just before the lead until
 * TRACE_WINDOW_MS after it are opened, and the one whose answer names the lead is shown.
 * Server-only (it opens sealed text): used from getServerSideProps alone.
 */
import type { Store } from '../store/db';
import { audit } from '../store/console';
import { openFormTrace } from '../store/leads';

/** How long after its lead a form trace may arrive (the browser sends it when the form has its answer). */
export const TRACE_WINDOW_MS = 60 * 60_000;
/** At most this many traces of the brand are opened looking for the lead's. */
const MAX_CANDIDATES = 200;

export interface ShownFormTrace {
  id: string;
  at: string;
  type: string;
  url: string;
  /** the query parameters, name and value */
  search: [string, string][];
  /** the posted body and the answer's, as indented JSON (or the text that was sent) */
  requestBody: string;
  status: number;
  responseBody: string;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2));

/** The answer's lead id in a trace's JSON, when it has one. */
export function tracedLeadId(trace: unknown): string | undefined {
  const body = (trace as { response?: { body?: unknown } } | null)?.response?.body;
  const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** The trace of one lead, opened; undefined when none was stored (or none could be opened). */
export async function findLeadFormTrace(db: Store, lead: { id: string; brand: string; created_at: string }): Promise<ShownFormTrace | undefined> {
  const from = new Date(Date.parse(lead.created_at) - 60_000).toISOString();
  const to = new Date(Date.parse(lead.created_at) + TRACE_WINDOW_MS).toISOString();
  const rows = await db
    .selectFrom('form_traces')
    .select(['id', 'type', 'trace', 'created_at'])
    .where('brand', '=', lead.brand)
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .orderBy('created_at')
    .limit(MAX_CANDIDATES)
    .execute();
  for (const row of rows) {
    let trace: { request: { url: string; search: Record<string, string>; body: unknown }; response: { status: number; body: unknown } };
    try {
      trace = JSON.parse(openFormTrace(row.trace)) as typeof trace;
    } catch {
      continue; // sealed under a key this server no longer has, or damaged: not this lead's to show
    }
    if (tracedLeadId(trace) !== lead.id) continue;
    return {
      id: row.id,
      at: row.created_at,
      type: row.type,
      url: trace.request.url,
      search: Object.entries(trace.request.search ?? {}),
      requestBody: asText(trace.request.body),
      status: trace.response.status,
      responseBody: asText(trace.response.body),
    };
  }
  return undefined;
}

/** Opens a lead's form trace for an admin, recording the opening (found or not) in the audit log. */
export async function openLeadFormTrace(db: Store, actor: string, lead: { id: string; brand: string; created_at: string }, now = new Date()) {
  const trace = await findLeadFormTrace(db, lead);
  await audit(db, { actor, action: 'form_trace', target: lead.id, detail: { found: !!trace, ...(trace ? { trace: trace.id } : {}) }, now });
  return trace ?? null;
}
