/**
 * One signed request to a buyer, bounded in time and in what is read back: the answer's body is
 * read up to MAX_ANSWER_BYTES and the rest dropped unread (a buyer cannot fill our memory), and
 * every failure — refused connection, timeout, reset — comes back as a reason, never a throw.
 */
import { deadline } from '../process/deadline';
import { signature } from './wire';
import { MAX_ANSWER_BYTES, type RawAnswer } from './answers';

/** Failures before a connection was made: the request, and the lead in it, never reached the buyer. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export interface SentRequest {
  answer: RawAnswer;
  latencyMs: number;
}

async function readCapped(res: Response): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: '', truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      return { text: '', truncated: true };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

export async function sendSigned(
  url: string,
  body: unknown,
  opts: { secret: string; timeoutMs: number; leadId?: string; fetcher?: typeof fetch },
): Promise<SentRequest> {
  const text = JSON.stringify(body);
  const started = performance.now();
  // a deadline, not AbortSignal.timeout: a buyer's answer that came in time while this process was busy still counts
  const { signal, clear } = deadline(Math.max(1, Math.round(opts.timeoutMs)));
  try {
    const res = await (opts.fetcher ?? fetch)(url, {
      method: 'POST',
      // never followed (the lead goes to the declared endpoint only); its 3xx is read as an answer that does not decide
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/json',
        'X-Loansites-Signature': signature(opts.secret, text),
        ...(opts.leadId ? { 'Idempotency-Key': opts.leadId, 'X-Loansites-Lead': opts.leadId } : {}),
      },
      body: text,
      signal,
    });
    const read = await readCapped(res);
    return { answer: { status: res.status, ...read }, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const timedOut = e.name === 'TimeoutError' || (e.name === 'AbortError' && signal.aborted);
    return {
      answer: {
        error: timedOut ? `no answer within ${Math.round(opts.timeoutMs)} ms` : `${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`.slice(0, 200),
        ...(!timedOut && NOT_CONNECTED.has(e.cause?.code ?? '') ? { notSent: true } : {}),
      },
      latencyMs: Math.round(performance.now() - started),
    };
  } finally {
    clear();
  }
}
