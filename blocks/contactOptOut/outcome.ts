/** What an answer of POST /api/opt-out means to the form. Pure: tested in tests/unit/contact-opt-out.test.ts. */

export const OPT_OUT_URL = '/api/opt-out';

export type OptOutOutcome =
  | { kind: 'done' }
  /** the server (or the form) named the field that needs a correction */
  | { kind: 'invalid'; message: string; fields: { phone?: boolean; email?: boolean } }
  | { kind: 'retry'; message: string };

export function optOutOutcome(status: number, body: unknown, retryAfter: string | null): OptOutOutcome {
  if (status >= 200 && status < 300) return { kind: 'done' };
  const b = (body && typeof body === 'object' ? body : {}) as { problems?: unknown };
  if (status === 400) {
    const problems = Array.isArray(b.problems) ? b.problems.filter((p): p is string => typeof p === 'string') : [];
    const reasons = problems.map((p) => p.replace(/^\/\w*:\s*/, ''));
    const first = reasons[0] ?? 'Check the phone number or email address.';
    return {
      kind: 'invalid',
      message: `${first.charAt(0).toUpperCase()}${first.slice(1)}${reasons.length > 1 ? `; ${reasons.slice(1).join('; ')}` : ''}.`,
      fields: { phone: problems.some((p) => p.startsWith('/phone') || p.startsWith('/:')), email: problems.some((p) => p.startsWith('/email')) },
    };
  }
  if (status === 429) {
    const s = Number(retryAfter);
    return {
      kind: 'retry',
      message: `Too many requests came from your connection. Please wait ${Number.isFinite(s) && s > 0 ? `${Math.ceil(s)} seconds` : 'a minute'}, then try again.`,
    };
  }
  return { kind: 'retry', message: "We couldn't record your choice just now. Please try again in a moment." };
}
