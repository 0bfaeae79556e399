/**
 * The form trace in the browser (SPEC §4, §7): once the form reports ready and the brand turns
 * capture on, the lead post's request and response are sealed for the server's public key and
 * sent to POST /api/trace. The sealing code (WebCrypto, or node-forge where `crypto.subtle` is
 * missing) is imported only when a trace is sent, so pages without capture never load it.
 * SPEC §8: trace errors are logged only — the visitor never waits on a trace.
 */
import type { FormTrace, FormTraceRequest, FormTraceResponse } from '../../engine/browser/formTrace/format';
import { gaClientIdFromCookie } from '../../engine/browser/tracking';

export interface Exchange {
  request: FormTraceRequest;
  response: FormTraceResponse;
}

const parseBody = (text: string | null | undefined): unknown => {
  if (text === null || text === undefined || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** A request as the trace records it: the full URL, its query as name → value, the body parsed. */
export function traceRequest(url: string, bodyText: string | null | undefined, base = window.location.href): FormTraceRequest {
  const full = new URL(url, base);
  return { url: full.toString(), search: Object.fromEntries(full.searchParams), body: parseBody(bodyText) };
}

export const traceResponse = (status: number, bodyText: string | null | undefined): FormTraceResponse => ({ status, body: parseBody(bodyText) });

/** Seals and posts one trace; never throws. */
export async function sendFormTrace(type: string, exchange: Exchange, publicKeyPem: string): Promise<void> {
  try {
    const { encryptFormTrace } = await import('../../engine/browser/formTrace/encryptBrowser');
    const trace: FormTrace = { clientId: gaClientIdFromCookie(document.cookie), type, ...exchange };
    const envelope = await encryptFormTrace(trace, publicKeyPem);
    const res = await fetch('/api/trace', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(envelope), keepalive: true });
    if (!res.ok) console.warn(`[form trace] not stored: HTTP ${res.status}`);
  } catch (err) {
    console.warn('[form trace] not sent:', err);
  }
}

/**
 * While installed, every fetch() to a URL starting with `urlPrefix` (a third-party form's
 * lead-posting proxy) is passed through unchanged and reported to `onExchange` with its
 * request and response. Returns the function that uninstalls it.
 */
export function traceFetchesTo(urlPrefix: string, onExchange: (exchange: Exchange) => void): () => void {
  const original = window.fetch;
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(urlPrefix)) return original(input, init);
    const bodyText = await request
      .clone()
      .text()
      .catch(() => null);
    try {
      const response = await original(request);
      void response
        .clone()
        .text()
        .then((text) => onExchange({ request: traceRequest(request.url, bodyText), response: traceResponse(response.status, text) }))
        .catch(() => undefined);
      return response;
    } catch (err) {
      onExchange({ request: traceRequest(request.url, bodyText), response: traceResponse(0, null) });
      throw err;
    }
  };
  window.fetch = wrapped;
  return () => {
    if (window.fetch === wrapped) window.fetch = original;
  };
}
