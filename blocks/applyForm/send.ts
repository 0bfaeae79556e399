import { CERTIFICATE_PAGE_PREFIX } from '../../engine/browser/certificatePath';
import type { LeadRequestBody } from '../../engine/browser/formRules';
import { traceRequest, traceResponse, type Exchange } from './formTrace';

/** What became of one POST /api/leads, in the words the form shows. */
export type SendOutcome =
  /**
   * The request is stored. `earlier`: a 409 — the form's key was taken by a request sent before
   * whose answer never came back, and this one differed from it, so the lead named is that first
   * request and what changed since was not sent.
   */
  | { kind: 'received'; id?: string; saleToken?: string; certificateUrl?: string; earlier?: true }
  /** 400: the server named the fields it refused ("/pointer: reason") */
  | { kind: 'invalid'; message: string; problems: string[] }
  /** 422: a rule of the request itself (state, age); trying again will not help */
  | { kind: 'refused'; message: string }
  /** 429, 413, 5xx, network: the answers are kept and the same request can be sent again */
  | { kind: 'retry'; message: string };

export const RETRY_MESSAGE = "We couldn't send your request. Your answers are kept — please try again.";

function waitText(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  if (!Number.isFinite(seconds) || seconds <= 0) return 'Please wait a minute';
  if (seconds < 90) return `Please wait ${Math.ceil(seconds)} seconds`;
  return `Please wait ${Math.ceil(seconds / 60)} minutes`;
}

/** A response of POST /api/leads → what the form does next. Pure: tested in tests/unit/apply-form-rules.test.ts. */
export function outcomeOf(status: number, body: unknown, retryAfter: string | null): SendOutcome {
  const b = (body && typeof body === 'object' ? body : {}) as {
    id?: unknown;
    error?: unknown;
    problems?: unknown;
    saleToken?: unknown;
    certificateUrl?: unknown;
  };
  const received = {
    kind: 'received',
    ...(typeof b.id === 'string' ? { id: b.id } : {}),
    ...(typeof b.saleToken === 'string' ? { saleToken: b.saleToken } : {}),
    // only a page of this site's own certificates is linked
    ...(typeof b.certificateUrl === 'string' && b.certificateUrl.startsWith(CERTIFICATE_PAGE_PREFIX) ? { certificateUrl: b.certificateUrl } : {}),
  } as const;
  if (status === 200 || status === 201 || status === 202) return received;
  // The key is this form's own: a request under it is stored already, and sending again can only
  // be refused the same way. So the form follows that request (the 409 names it) and says so.
  if (status === 409) return { ...received, earlier: true };
  const error = typeof b.error === 'string' && b.error.trim() ? b.error.trim() : undefined;
  if (status === 400) {
    const problems = Array.isArray(b.problems) ? b.problems.filter((p): p is string => typeof p === 'string') : [];
    return { kind: 'invalid', message: error ?? 'Some answers need a correction.', problems };
  }
  if (status === 422) return { kind: 'refused', message: error ?? "We can't take this request." };
  if (status === 429)
    return { kind: 'retry', message: `Too many requests came from your connection. ${waitText(retryAfter)}, then try again — your answers are kept.` };
  return { kind: 'retry', message: RETRY_MESSAGE };
}

export const OFFLINE_MESSAGE =
  "We couldn't send your request: you seem to be offline. Your answers are kept — we'll send it by ourselves as soon as your connection is back, so keep this page open (or try again).";

export const LEADS_URL = '/api/leads';

/**
 * POST the lead; never throws (a network failure is a 'retry' outcome). `onExchange`, when the
 * form traces its lead posts, receives the request and the response as they went.
 */
export async function sendLead(body: LeadRequestBody, onExchange?: (exchange: Exchange) => void): Promise<SendOutcome> {
  const bodyText = JSON.stringify(body);
  try {
    const res = await fetch(LEADS_URL, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: bodyText });
    const text = await res.text().catch(() => '');
    onExchange?.({ request: traceRequest(LEADS_URL, bodyText), response: traceResponse(res.status, text) });
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: the status decides
    }
    return outcomeOf(res.status, json, res.headers.get('retry-after'));
  } catch {
    onExchange?.({ request: traceRequest(LEADS_URL, bodyText), response: traceResponse(0, null) });
    return { kind: 'retry', message: RETRY_MESSAGE };
  }
}

/** One key per form fill, kept across retries and changed answers (one lead): crypto.randomUUID, or getRandomValues where that is missing (non-secure contexts). */
export function newIdempotencyKey(c: Pick<Crypto, 'getRandomValues'> & { randomUUID?: () => string } = globalThis.crypto): string {
  if (typeof c.randomUUID === 'function') {
    try {
      return c.randomUUID();
    } catch {
      // non-secure context: fall through
    }
  }
  const bytes = c.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
